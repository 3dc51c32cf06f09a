// The pools list's rows, kept between visits: a visit builds the page again, and its rows were
// worked out again each time (every pool's pin, selector, operator state and targets) because the
// page's clock is its own. A row is kept while its pool's resourceVersion, the versions (each the
// same record), the minute and the pool's pending write are the same.
import {
  OSVersion, PendingWrite, poolId, PoolResolver, PoolRow, toPoolRow
} from '../domain';
import { ObjectMemo } from './revision-memo';

const rows = new ObjectMemo<PoolRow>();
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
 * A row's `object` is the pool as given (the shell's live model).
 */
export function poolRows(pools: readonly unknown[], versions: readonly OSVersion[], now: number, pending: Record<string, PendingWrite> = {}): PoolRow[] {
  const minute = Math.floor(now / 60) * 60;
  const token = versionsToken(versions);
  let resolver: PoolResolver | undefined;

  return pools.map((pool) => {
    const write = pending[poolId(pool)];
    const row = rows.get(pool, [token, minute, write], (raw) => ({ ...toPoolRow(raw, resolver ?? (resolver = new PoolResolver(versions, minute)), write), object: pool }));

    // Vue gives a raw object one proxy: the kept row's object is this one unless the pool came unwrapped.
    return row.object === pool ? row : { ...row, object: pool };
  });
}
