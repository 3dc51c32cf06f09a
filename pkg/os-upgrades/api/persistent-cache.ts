// Published changelog files kept across sessions in IndexedDB (idb-keyval), keyed by source URL
// (and the user, where the request carries credentials), bounded by planCacheEviction.
import {
  clear, createStore, del, delMany, entries, getMany, promisifyRequest, setMany, UseStore
} from 'idb-keyval';
import { BatchReader } from './batch-reader';
import { CacheEntryMeta, DEFAULT_CACHE_MAX_BYTES, planCacheEviction } from '../domain';

export interface FileCache {
  get(key: string): Promise<unknown | undefined>;
  put(key: string, value: unknown, size: number): Promise<void>;
  clear(): Promise<void>;
  /** Entries and bytes held, for the sources page. */
  usage(): Promise<{ entries: number; bytes: number }>;
}

/** Pending writes go to IndexedDB this long after the last put, or this long after the first. */
const WRITE_QUIET_MS = 300;
const WRITE_LATEST_MS = 3000;

/** One database per store, as idb-keyval's createStore makes them. */
const FILES_DB = 'os-upgrades-changelog-files';
const INDEX_DB = 'os-upgrades-changelog-index';

/** The databases the file cache keeps across sessions. */
export const CACHE_DATABASES = [FILES_DB, INDEX_DB];

/**
 * Writes the recency of entries that are still in the index, in one transaction: an entry another
 * session (or tab) cleared or evicted meanwhile is not put back.
 */
function touchExisting(batch: [string, CacheEntryMeta][], index: UseStore): Promise<void> {
  return index('readwrite', (store) => {
    for (const [key, meta] of batch) {
      const request = store.getKey(key);

      request.onsuccess = () => {
        if (request.result !== undefined) {
          store.put(meta, key);
        }
      };
    }

    return promisifyRequest(store.transaction);
  });
}

export class PersistentFileCache implements FileCache {
  private readonly files: UseStore;
  private readonly index: UseStore;
  private metas: Promise<Map<string, CacheEntryMeta>> | undefined;
  private clock = 0;
  /** Writes not yet in IndexedDB: gathered and written in one transaction per store. */
  private pending = new Map<string, { value: unknown; meta: CacheEntryMeta }>();
  private flushing: Promise<void> | undefined;
  private startFlush: () => void = () => undefined;
  private quiet: ReturnType<typeof setTimeout> | undefined;
  private firstPendingAt = 0;
  private lastPutAt = 0;
  private readonly touched = new Map<string, CacheEntryMeta>();
  private touching: ReturnType<typeof setTimeout> | undefined;
  /** The files asked for in one turn, read in two transactions (getMany: the first few, then the rest). */
  private readonly reader: BatchReader;

  constructor(
    private readonly maxBytes = DEFAULT_CACHE_MAX_BYTES,
    private readonly now: () => number = () => Date.now(),
    private readonly writeAfter = { quietMs: WRITE_QUIET_MS, latestMs: WRITE_LATEST_MS },
  ) {
    this.files = createStore(FILES_DB, 'files');
    this.index = createStore(INDEX_DB, 'index');
    this.reader = new BatchReader((keys) => getMany(keys, this.files));
    // Opened and read now, while the page still reads its versions: the first file's lookup then
    // need not wait for IndexedDB to open (on a first visit, to create) the databases.
    this.loadMetas().catch(() => undefined);
  }

  /** Strictly increasing, so two uses in the same millisecond keep their order. */
  private tick(): number {
    this.clock = Math.max(this.clock + 1, this.now());

    return this.clock;
  }

  private loadMetas(): Promise<Map<string, CacheEntryMeta>> {
    if (!this.metas) {
      this.metas = entries<string, CacheEntryMeta>(this.index).then((list) => new Map(list.map(([key, meta]) => [key, meta])));
    }

    return this.metas;
  }

  async get(key: string): Promise<unknown | undefined> {
    const waiting = this.pending.get(key);

    if (waiting) {
      return waiting.value;
    }
    const metas = await this.loadMetas();
    const meta = metas.get(key);

    if (!meta) {
      return undefined;
    }
    const value = await this.reader.read(key);

    if (value === undefined) {
      metas.delete(key);
      await del(key, this.index);

      return undefined;
    }
    const used = { ...meta, usedAt: this.tick() };

    metas.set(key, used);
    // Recency is worth a write, but not worth waiting for: written in batches.
    this.touched.set(key, used);
    if (!this.touching) {
      this.touching = setTimeout(() => {
        const batch = [...this.touched.entries()];

        this.touched.clear();
        this.touching = undefined;
        touchExisting(batch, this.index).catch(() => undefined);
      }, 200);
    }

    return value;
  }

  /** Resolves once the entry is written (with whatever else was put meanwhile). */
  put(key: string, value: unknown, size: number): Promise<void> {
    if (size > this.maxBytes || size < 0) {
      return Promise.resolve();
    }
    this.pending.set(key, {
      value,
      meta: {
        key, size, usedAt: this.tick()
      }
    });
    // Written once the files stop coming (at the latest `latestMs` after the first): a compare
    // loading hundreds of files writes them in one transaction per store, after it has drawn them,
    // not in a transaction every 50 ms on the main thread it draws with.
    this.lastPutAt = Date.now();
    if (!this.flushing) {
      this.firstPendingAt = this.lastPutAt;
      this.flushing = new Promise<void>((resolve) => {
        this.startFlush = resolve;
      }).then(() => this.flush());
      this.armWrite();
    }

    return this.flushing;
  }

  /** When the pending writes are due: `quietMs` after the last put, at the latest `latestMs` after the first. */
  private writeDue(): number {
    return Math.min(this.lastPutAt + this.writeAfter.quietMs, this.firstPendingAt + this.writeAfter.latestMs);
  }

  /**
   * One timer per batch, moved on when it fires before the writes are due, rather than a timer
   * cleared and set again for each of a compare's 500 puts.
   */
  private armWrite(): void {
    this.quiet = setTimeout(() => (Date.now() < this.writeDue() ? this.armWrite() : this.startFlush()), Math.max(0, this.writeDue() - Date.now()));
  }

  private async flush(): Promise<void> {
    const metas = await this.loadMetas();
    const batch = [...this.pending.values()];

    this.pending = new Map();
    this.flushing = undefined;
    const evicted: string[] = [];

    for (const entry of batch) {
      const others = [...metas.values()].filter((meta) => meta.key !== entry.meta.key);
      const plan = planCacheEviction(others, entry.meta.size, this.maxBytes);

      plan.evict.forEach((key) => metas.delete(key));
      evicted.push(...plan.evict);
      metas.set(entry.meta.key, entry.meta);
    }
    const kept = batch.filter((entry) => metas.has(entry.meta.key));
    const gone = evicted.filter((key) => !metas.has(key));

    if (gone.length) {
      await Promise.all([delMany(gone, this.files), delMany(gone, this.index)]);
    }
    await setMany(kept.map((entry): [string, unknown] => [entry.meta.key, entry.value]), this.files);
    await setMany(kept.map((entry): [string, CacheEntryMeta] => [entry.meta.key, entry.meta]), this.index);
  }

  async clear(): Promise<void> {
    this.pending.clear();
    clearTimeout(this.quiet);
    this.startFlush();
    // A recency write still waiting would put the cleared entries back in the index.
    clearTimeout(this.touching);
    this.touching = undefined;
    this.touched.clear();
    await Promise.all([clear(this.files), clear(this.index)]);
    this.metas = Promise.resolve(new Map());
  }

  async usage(): Promise<{ entries: number; bytes: number }> {
    const metas = await this.loadMetas();

    return { entries: metas.size, bytes: [...metas.values()].reduce((sum, meta) => sum + meta.size, 0) };
  }
}

/** A cache that keeps nothing: where IndexedDB is missing (or refused, as in private windows). */
export class NoFileCache implements FileCache {
  async get(): Promise<undefined> {
    return undefined;
  }

  async put(): Promise<void> {
    return undefined;
  }

  async clear(): Promise<void> {
    return undefined;
  }

  async usage(): Promise<{ entries: number; bytes: number }> {
    return { entries: 0, bytes: 0 };
  }
}

/** A cache read that has not answered by then is treated as a miss (a blocked or stuck IndexedDB). */
const READ_TIMEOUT_MS = 3000;

/** The reads asked for in one turn, and their shared time limit. */
interface ReadTurn {
  deadline: Promise<undefined>;
  timer: ReturnType<typeof setTimeout>;
  open: number;
}

/** Wraps a cache so a failing or stuck IndexedDB (quota, a closed database) never fails a file load. */
export class SafeFileCache implements FileCache {
  private turn: ReadTurn | undefined;

  constructor(private readonly inner: FileCache, private readonly timeoutMs = READ_TIMEOUT_MS) {}

  get(key: string): Promise<unknown | undefined> {
    const turn = this.readTurn();

    turn.open++;

    return Promise.race([this.inner.get(key).catch(() => undefined), turn.deadline]).finally(() => {
      turn.open--;
      if (!turn.open) {
        clearTimeout(turn.timer);
      }
    });
  }

  /**
   * The reads of one turn (a compare asks for hundreds at once) share one timer, cleared when the
   * last of them answers: a timer each cost the page more than the reads.
   */
  private readTurn(): ReadTurn {
    if (!this.turn) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), this.timeoutMs);
      });

      this.turn = {
        deadline, timer: timer as ReturnType<typeof setTimeout>, open: 0
      };
      queueMicrotask(() => {
        this.turn = undefined;
      });
    }

    return this.turn;
  }

  put(key: string, value: unknown, size: number): Promise<void> {
    return this.inner.put(key, value, size).catch(() => undefined);
  }

  clear(): Promise<void> {
    return this.inner.clear();
  }

  usage(): Promise<{ entries: number; bytes: number }> {
    return this.inner.usage().catch(() => ({ entries: 0, bytes: 0 }));
  }
}

export function browserFileCache(): FileCache {
  return typeof indexedDB === 'undefined' ? new NoFileCache() : new SafeFileCache(new PersistentFileCache());
}
