import { BatchReader, FIRST_READ_KEYS } from '../batch-reader';

describe('BatchReader', () => {
  it('answers every read of one turn with two bulk reads, the first few keys asked for on their own, each key once', async() => {
    const calls: string[][] = [];
    const answered: string[] = [];
    // The larger read answers later, as IndexedDB does.
    const reader = new BatchReader(async(keys) => {
      calls.push(keys);
      await new Promise((resolve) => setTimeout(resolve, keys.length));

      return keys.map((key) => (key === 'gone' ? undefined : key.toUpperCase()));
    });
    const keys = Array.from({ length: 500 }, (_, i) => `file-${ i }`);
    const values = await Promise.all([...keys, 'file-0', 'gone'].map((key) => reader.read(key).then((value) => {
      answered.push(key);

      return value;
    })));

    expect(calls).toEqual([keys.slice(0, FIRST_READ_KEYS), [...keys.slice(FIRST_READ_KEYS), 'gone']]);
    // What was asked for first is there before the rest.
    expect(answered.slice(0, FIRST_READ_KEYS + 1).sort()).toEqual([...keys.slice(0, FIRST_READ_KEYS), 'file-0'].sort());
    expect(values[0]).toBe('FILE-0');
    expect(values[499]).toBe('FILE-499');
    expect(values[500]).toBe('FILE-0');
    expect(values[501]).toBeUndefined();
  });

  it('starts a new batch for reads after the last one was sent', async() => {
    const calls: string[][] = [];
    const reader = new BatchReader(async(keys) => {
      calls.push(keys);

      return keys;
    });

    expect(await reader.read('a')).toBe('a');
    expect(await reader.read('b')).toBe('b');
    expect(calls).toEqual([['a'], ['b']]);
  });

  it('fails every read of a batch whose bulk read fails', async() => {
    const reader = new BatchReader(() => Promise.reject(new Error('closed')));

    await expect(Promise.all([reader.read('a'), reader.read('b')])).rejects.toThrow('closed');
    await expect(reader.read('c')).rejects.toThrow('closed');
  });
});
