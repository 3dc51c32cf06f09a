import fc from 'fast-check';
import { CacheEntryMeta, fileCacheKey, planCacheEviction } from '../index';

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
