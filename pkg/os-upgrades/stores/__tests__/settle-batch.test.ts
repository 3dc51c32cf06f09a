import { SettleBatch } from '../settle-batch';

describe('SettleBatch', () => {
  it('writes the entries that settle within the wait in one write, and resolves each once written', async() => {
    const writes: Array<Array<[string, number]>> = [];
    const batch = new SettleBatch<number>((entries) => writes.push(entries), 5);
    const added = Array.from({ length: 500 }, (_, i) => batch.add(`file-${ i }`, i));

    expect(batch.pending('file-7')).toBe(7);
    expect(writes).toEqual([]);
    await Promise.all(added);

    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(500);
    expect(batch.pending('file-7')).toBeUndefined();
  });

  it('starts a new write for what settles after the last one', async() => {
    const writes: string[][] = [];
    const batch = new SettleBatch<number>((entries) => writes.push(entries.map(([key]) => key)), 1);

    await batch.add('a', 1);
    await batch.add('b', 2);

    expect(writes).toEqual([['a'], ['b']]);
  });
});
