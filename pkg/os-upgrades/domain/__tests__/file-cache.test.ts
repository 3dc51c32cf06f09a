import fc from 'fast-check';
import {
  CacheEntryMeta, fileCacheKey, MISSING_KEPT_MS, missingRecord, planCacheEviction, readKeptFile
} from '../index';

const entry = (key: string, size: number, usedAt: number): CacheEntryMeta => ({
  key, size, usedAt
});

describe('planCacheEviction', () => {
  it('evicts nothing while everything fits', () => {
    expect(planCacheEviction([entry('a', 10, 1), entry('b', 10, 2)], 10, 30)).toEqual({ evict: [], store: true });
  });

  it('evicts the least recently used first, only as many as needed', () => {
    const entries = [entry('new', 10, 30), entry('old', 10, 10), entry('mid', 10, 20)];

    expect(planCacheEviction(entries, 10, 30)).toEqual({ evict: ['old'], store: true });
    expect(planCacheEviction(entries, 20, 30)).toEqual({ evict: ['old', 'mid'], store: true });
  });

  it('does not store an entry larger than the bound, and evicts nothing for it', () => {
    expect(planCacheEviction([entry('a', 10, 1)], 31, 30)).toEqual({ evict: [], store: false });
  });

  it('always ends within the bound, evicting oldest-first (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ size: fc.nat(100), usedAt: fc.nat(1000) }), { maxLength: 30 }),
      fc.nat(150),
      fc.integer({ min: 1, max: 1000 }),
      (raw, incoming, max) => {
        const entries = raw.map((e, i) => entry(`k${ i }`, e.size, e.usedAt));
        const plan = planCacheEviction(entries, incoming, max);

        if (!plan.store) {
          expect(incoming).toBeGreaterThan(max);
          expect(plan.evict).toEqual([]);

          return;
        }
        const evicted = new Set(plan.evict);
        const kept = entries.filter((e) => !evicted.has(e.key));

        expect(kept.reduce((s, e) => s + e.size, 0) + incoming).toBeLessThanOrEqual(max);
        // No kept entry is older than an evicted one.
        const newestEvicted = Math.max(-1, ...entries.filter((e) => evicted.has(e.key)).map((e) => e.usedAt));

        expect(kept.every((e) => e.usedAt >= newestEvicted)).toBe(true);
      }
    ));
  });
});

describe('fileCacheKey', () => {
  it('keeps users apart when the request carries credentials, and shares public files', () => {
    expect(fileCacheKey('https://r/x.log', true, 'u1')).not.toBe(fileCacheKey('https://r/x.log', true, 'u2'));
    expect(fileCacheKey('https://cdn/x.log', false, 'u1')).toBe(fileCacheKey('https://cdn/x.log', false, 'u2'));
  });
});

describe('readKeptFile', () => {
  const now = 1_800_000_000_000;

  it('a kept file is a file; nothing kept means ask', () => {
    expect(readKeptFile([{ id: 'SUSE-2024-1' }], now)).toEqual({ kind: 'file', value: [{ id: 'SUSE-2024-1' }] });
    expect(readKeptFile(undefined, now)).toEqual({ kind: 'ask' });
  });

  it('a missing file is believed for 6 hours, then asked again', () => {
    expect(readKeptFile(missingRecord(now), now + MISSING_KEPT_MS - 1)).toEqual({ kind: 'missing' });
    expect(readKeptFile(missingRecord(now), now + MISSING_KEPT_MS)).toEqual({ kind: 'ask' });
    // A clock set back is no reason to believe it longer.
    expect(readKeptFile(missingRecord(now), now - 1)).toEqual({ kind: 'ask' });
  });

  it('does not believe a "missing" kept under the old rule, which took HTML 404 pages for missing files', () => {
    expect(readKeptFile({ osUpgradesMissingSince: now }, now + 1)).toEqual({ kind: 'ask' });
  });
});
