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
    const batch = new SettleBatch<number>((entries) => writes.push(entries.map(([key]) => key)));

    await batch.add('a', 1);
    await batch.add('b', 2);

    expect(writes).toEqual([['a'], ['b']]);
  });
});
