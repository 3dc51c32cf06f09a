/**
 * @jest-environment node
 */
import 'fake-indexeddb/auto';
import { PersistentFileCache } from '../persistent-cache';

describe('PersistentFileCache (IndexedDB through idb-keyval, fake-indexeddb here)', () => {
  let now = 1000;
  const clock = () => now;

  beforeEach(async() => {
    now = 1000;
    await new PersistentFileCache(100, clock).clear();
  });

  it('keeps a file for a later session (a new instance reads it back)', async() => {
    await new PersistentFileCache(100, clock).put('a', [{ id: 'SUSE-1' }], 10);
    const later = new PersistentFileCache(100, clock);

    expect(await later.get('a')).toEqual([{ id: 'SUSE-1' }]);
    expect(await later.usage()).toEqual({ entries: 1, bytes: 10 });
  });

  it('evicts the least recently used entries to stay within its bound', async() => {
    const cache = new PersistentFileCache(100, clock);

    await cache.put('a', 'A', 40);
    now = 2000;
    await cache.put('b', 'B', 40);
    now = 3000;
    await cache.get('a'); // a is now more recent than b
    now = 4000;
    await cache.put('c', 'C', 40);

    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('c')).toBe('C');
    expect((await new PersistentFileCache(100, clock).usage()).bytes).toBeLessThanOrEqual(100);
  });

  it('does not store a file larger than its bound, and clear() empties it', async() => {
    const cache = new PersistentFileCache(100, clock);

    await cache.put('big', 'x', 101);
    expect(await cache.get('big')).toBeUndefined();
    await cache.put('a', 'A', 1);
    await cache.clear();
    expect(await new PersistentFileCache(100, clock).get('a')).toBeUndefined();
  });
});
