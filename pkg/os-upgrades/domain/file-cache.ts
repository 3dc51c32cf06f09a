// Which cached changelog files to keep (domain README rule "Kept files"): bounded in bytes, least recently used
// evicted first. Pure: the IndexedDB store in api/ applies what this decides.

export interface CacheEntryMeta {
  key: string;
  /** Bytes the entry stands for (the size of the file it was parsed from). */
  size: number;
  /** When it was last read or written (any increasing clock: ms or a counter). */
  usedAt: number;
}

/** 50 MB: a thousand update logs and package lists of a real channel fit several times. */
export const DEFAULT_CACHE_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The keys to evict so that `entries` plus an entry of `incomingSize` bytes fit `maxBytes`,
 * least recently used first (ties by key). An entry larger than the bound alone is not stored:
 * `store` is false and nothing is evicted for it.
 */
export function planCacheEviction(entries: readonly CacheEntryMeta[], incomingSize: number, maxBytes: number): { evict: string[]; store: boolean } {
  if (incomingSize > maxBytes || incomingSize < 0) {
    return { evict: [], store: false };
  }
  let total = entries.reduce((sum, entry) => sum + entry.size, 0) + incomingSize;
  const evict: string[] = [];
  const oldestFirst = [...entries].sort((a, b) => a.usedAt - b.usedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  for (const entry of oldestFirst) {
    if (total <= maxBytes) {
      break;
    }
    evict.push(entry.key);
    total -= entry.size;
  }

  return { evict, store: true };
}

/**
 * The cache key of a file: its URL, and the user when the request carries credentials (a
 * same-origin source may answer each user differently), so one user never reads another's.
 */
export function fileCacheKey(url: string, withCredentials: boolean, userId: string): string {
  return withCredentials ? `user:${ userId }\n${ url }` : `public\n${ url }`;
}

/**
 * How long a file found missing (a 404 from a source that serves files, never a web page) is kept
 * across sessions: an image's changelog is published with the image, rarely later, and a 500-image
 * compare has a few such images that would otherwise be asked again on every visit.
 */
export const MISSING_KEPT_MS = 6 * 3600 * 1000;

const MISSING_SINCE = 'osUpgradesMissingSince';
const MISSING_RULE = 'osUpgradesMissingRule';

/**
 * Raised when what counts as missing changes: records written under an older rule are not believed
 * (version 1 took a dev server's or proxy's HTML 404 page for a missing file).
 */
export const MISSING_RULE_VERSION = 2;

/** The record kept for a missing file. */
export function missingRecord(now: number): Record<string, number> {
  return { [MISSING_SINCE]: now, [MISSING_RULE]: MISSING_RULE_VERSION };
}

export type KeptFile = { kind: 'file'; value: unknown } | { kind: 'missing' } | { kind: 'ask' };

/** What a kept entry says now: a file, a missing file (recent, under this rule), or ask again. */
export function readKeptFile(value: unknown, now: number): KeptFile {
  if (value === undefined) {
    return { kind: 'ask' };
  }
  const record = value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;

  if (!record || !(MISSING_SINCE in record)) {
    return { kind: 'file', value };
  }
  const since = record[MISSING_SINCE];
  const current = record[MISSING_RULE] === MISSING_RULE_VERSION && typeof since === 'number' && now - since >= 0 && now - since < MISSING_KEPT_MS;

  return current ? { kind: 'missing' } : { kind: 'ask' };
}
