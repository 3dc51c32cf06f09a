/**
 * @jest-environment node
 */
/* global jest */
import 'fake-indexeddb/auto';
import { PersistentFileCache, SafeFileCache } from '../persistent-cache';

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

  it('reads the files a page asks for at once in two IndexedDB transactions (the first few, then the rest), not one each', async() => {
    const keys = Array.from({ length: 500 }, (_, i) => `file-${ i }`);
    const writer = new PersistentFileCache(100000, clock);

    await Promise.all(keys.map((key) => writer.put(key, key.toUpperCase(), 10)));
    const later = new PersistentFileCache(100000, clock);

    await later.usage(); // the index of entries: read once per session, before the files
    const modes: unknown[] = [];
    const transaction = IDBDatabase.prototype.transaction;

    IDBDatabase.prototype.transaction = function(this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      modes.push(args[1]);

      return transaction.apply(this, args);
    };
    try {
      const values = await Promise.all(keys.map((key) => later.get(key)));

      expect(values).toEqual(keys.map((key) => key.toUpperCase()));
    } finally {
      IDBDatabase.prototype.transaction = transaction;
    }
    // Reads only: the recency of what was read is written later, in its own batch.
    expect(modes.filter((mode) => mode !== 'readwrite')).toHaveLength(2);
    // Its recency write, 200 ms later, is dropped by clear(): nothing comes back into the index.
    await later.clear();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await new PersistentFileCache(100000, clock).usage()).toEqual({ entries: 0, bytes: 0 });
  });

  it('writes files arriving one after another once they stop, in one transaction per store, and at the latest some time after the first', async() => {
    const writes: string[] = [];
    const transaction = IDBDatabase.prototype.transaction;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    IDBDatabase.prototype.transaction = function(this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      if (args[1] === 'readwrite') {
        writes.push(this.name);
      }

      return transaction.apply(this, args);
    };
    try {
      // Written 60 ms after the last put, or 400 ms after the first.
      const cache = new PersistentFileCache(100000, clock, { quietMs: 60, latestMs: 400 });
      const burst: Promise<void>[] = [];

      for (let i = 0; i < 5; i++) {
        burst.push(cache.put(`burst-${ i }`, i, 10));
        await sleep(20);
      }
      expect(writes).toEqual([]);
      await Promise.all(burst);
      expect(writes.sort()).toEqual(['os-upgrades-changelog-files', 'os-upgrades-changelog-index']);

      // A page that never stops reading files still has them written.
      writes.length = 0;
      const first = cache.put('stream-0', 0, 10);
      let i = 1;

      while (!writes.length) {
        await sleep(20);
        cache.put(`stream-${ i++ }`, i, 10);
      }
      await first;
      expect(writes.sort()).toEqual(['os-upgrades-changelog-files', 'os-upgrades-changelog-index']);
      expect(await new PersistentFileCache(100000, clock).get('stream-0')).toBe(0);
    } finally {
      IDBDatabase.prototype.transaction = transaction;
    }
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

type Answer = (value: unknown) => void;

describe('SafeFileCache', () => {
  /** A cache whose reads answer when the test says so. */
  function controlled() {
    const answers: Map<string, Answer> = new Map();
    const inner = {
      get:   (key: string) => new Promise<unknown>((resolve) => answers.set(key, resolve)),
      put:   async() => undefined,
      clear: async() => undefined,
      usage: async() => ({ entries: 0, bytes: 0 }),
    };

    return { inner, answers };
  }

  afterEach(() => {
    jest.useRealTimers();
  });

  it('answers a read that never returns as a miss after its time limit, and the others with their files', async() => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const { inner, answers } = controlled();
    const cache = new SafeFileCache(inner, 3000);
    const reads = Array.from({ length: 500 }, (_, i) => cache.get(`file-${ i }`));

    // The reads of one turn share one timer, not one each.
    expect(jest.getTimerCount()).toBe(1);
    for (let i = 1; i < 500; i++) {
      answers.get(`file-${ i }`)?.(`text ${ i }`);
    }
    await jest.advanceTimersByTimeAsync(3000);

    expect(await reads[0]).toBeUndefined();
    expect(await reads[499]).toBe('text 499');
  });

  it('leaves no timer behind once every read of the turn answered', async() => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const { inner, answers } = controlled();
    const cache = new SafeFileCache(inner, 3000);
    const reads = ['a', 'b'].map((key) => cache.get(key));

    answers.get('a')?.('A');
    answers.get('b')?.('B');
    expect(await Promise.all(reads)).toEqual(['A', 'B']);
    expect(jest.getTimerCount()).toBe(0);
    // A later read gets its own full time limit.
    const later = cache.get('c');

    await jest.advanceTimersByTimeAsync(2999);
    answers.get('c')?.('C');
    expect(await later).toBe('C');
  });

  it('answers a failing read as a miss', async() => {
    const cache = new SafeFileCache({
      get: () => Promise.reject(new Error('closed')), put: async() => undefined, clear: async() => undefined, usage: async() => ({ entries: 0, bytes: 0 })
    });

    expect(await cache.get('a')).toBeUndefined();
  });
});
