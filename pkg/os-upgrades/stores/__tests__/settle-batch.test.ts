/* global jest */
import { SettleBatch } from '../settle-batch';

describe('SettleBatch', () => {
  it('writes the entries added in one turn in one write, and resolves each once written', async() => {
    const writes: Array<Array<[string, number]>> = [];
    const batch = new SettleBatch<number>((entries) => writes.push(entries));
    const added = Array.from({ length: 500 }, (_, i) => batch.add(`file-${ i }`, i));

    expect(batch.pending('file-7')).toBe(7);
    expect(writes).toEqual([]);
    await Promise.all(added);

    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(500);
    expect(batch.pending('file-7')).toBeUndefined();
  });

  it('gathers answers that settle together through the same chain of promises', async() => {
    const writes: number[] = [];
    const batch = new SettleBatch<number>((entries) => writes.push(entries.length));
    const answers = Promise.resolve(Array.from({ length: 100 }, (_, i) => i));
    // Each caller awaits its answer through a few steps, as loadOne does through the client.
    const callers = Array.from({ length: 100 }, async(_, i) => {
      const values = await answers;
      const value = await Promise.resolve(values[i]);

      await batch.add(`file-${ i }`, value);
    });

    await Promise.all(callers);

    expect(writes).toEqual([100]);
  });

  it('starts a new write for what settles after the last one', async() => {
    const writes: string[][] = [];
    const batch = new SettleBatch<number>((entries) => writes.push(entries.map(([key]) => key)), 0);

    await batch.add('a', 1);
    await batch.add('b', 2);

    expect(writes).toEqual([['a'], ['b']]);
  });

  it('writes the first file from the network at once, then what comes within the spacing together', async() => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      let clock = 0;
      const writes: string[][] = [];
      const batch = new SettleBatch<number>((entries) => writes.push(entries.map(([key]) => key)), 100, () => clock);

      const first = batch.add('a', 1);

      await first;
      expect(writes).toEqual([['a']]);
      // Files arrive one by one, 10 ms apart, as answers over the network do.
      const later: Promise<void>[] = [];

      for (const key of ['b', 'c', 'd']) {
        clock += 10;
        later.push(batch.add(key, 0));
        await Promise.resolve();
      }
      expect(writes).toEqual([['a']]);
      expect(batch.pending('c')).toBe(0);
      clock = 100;
      jest.advanceTimersByTime(100);
      await Promise.all(later);
      expect(writes).toEqual([['a'], ['b', 'c', 'd']]);
      // Long after the last write, the next file shows at once again.
      clock = 1000;
      await batch.add('e', 0);
      expect(writes).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes at once what waits when the last awaited file settles, without waiting for the spacing', async() => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      let clock = 0;
      const writes: string[][] = [];
      const batch = new SettleBatch<number>((entries) => writes.push(entries.map(([key]) => key)), 100, () => clock);

      await batch.add('a', 1);
      clock = 10;
      const b = batch.add('b', 2);

      await Promise.resolve();
      expect(writes).toEqual([['a']]);
      clock = 20;
      await Promise.all([b, batch.add('c', 3, true)]);
      expect(writes).toEqual([['a'], ['b', 'c']]);
      // The timer of that write is gone: nothing is written twice.
      jest.advanceTimersByTime(200);
      expect(writes).toEqual([['a'], ['b', 'c']]);
      // Right after a write, the last file alone is written at once too.
      clock = 30;
      await batch.add('d', 4, true);
      expect(writes).toEqual([['a'], ['b', 'c'], ['d']]);
    } finally {
      jest.useRealTimers();
    }
  });
});
