// The pools list's rows, kept between visits: a visit builds the page again, and its rows were
// worked out again each time (every pool's pin, selector, operator state and targets) because the
// page's clock is its own. A row is kept, by pool, while the pool's resourceVersion, the versions
// (each the same record), the minute and the pool's pending write are the same: the pool page
// store reads its page again after any pool's change, into new objects, so the object itself is
// not what tells a change apart.
import { toRaw } from 'vue';
import {
  OSVersion, PendingWrite, poolId, PoolResolver, PoolRow, toPoolRow
} from '../domain';
import { KeyedMemo, resourceVersionOf } from './revision-memo';

const kept = new KeyedMemo<PoolRow>();
let lastVersions: { versions: readonly OSVersion[]; token: object } | undefined;

/** The same token while the versions are the same records in the same order (the stores keep them). */
function versionsToken(versions: readonly OSVersion[]): object {
  const same = lastVersions && lastVersions.versions.length === versions.length && lastVersions.versions.every((version, i) => version === versions[i]);

  if (!same) {
    lastVersions = { versions, token: {} };
  }

  return (lastVersions as { token: object }).token;
}

/**
 * toPoolRows with `now` to the minute (the page's clock moves once a minute: a selector's minimum
 * age is decided to the minute either way), each pool's row kept while nothing it reads changed.
 * A row's `object` is the pool as given (the shell's live model). A pool without a
 * resourceVersion is worked out each time.
 */
export function poolRows(pools: readonly unknown[], versions: readonly OSVersion[], now: number, pending: Record<string, PendingWrite> = {}): PoolRow[] {
  const minute = Math.floor(now / 60) * 60;
  const token = versionsToken(versions);
  let resolver: PoolResolver | undefined;

  return pools.map((pool) => {
    const id = poolId(pool);
    // Read through the proxy: the caller's effect depends on it, and every write changes it.
    const resourceVersion = resourceVersionOf(pool);
    const write = pending[id];
    // The rules read every field: from the raw object, not through Vue's proxy.
    const row = kept.get(resourceVersion ? id : undefined, [resourceVersion, token, minute, write], () => ({ ...toPoolRow(toRaw(pool), resolver ?? (resolver = new PoolResolver(versions, minute)), write), object: pool }));

    return row.object === pool ? row : { ...row, object: pool };
  });
}

/** Forgets the rows of the pools that are gone: `every` is every pool there is now. */
export function forgetGonePools(every: readonly unknown[]): void {
  kept.retain(new Set(every.map(poolId)));
}

/** How many pools' rows are kept (for tests). */
export function keptPoolRows(): number {
  return kept.size;
}
