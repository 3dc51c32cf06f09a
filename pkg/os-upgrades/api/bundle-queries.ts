// The Fleet Bundles of the pools a page shows, by name, through the shell's SQL-cache API
// (transient `findPage`, as api/pool-pages.ts reads a page of pools): each Bundle holds its pool's
// Plan, so every Bundle of a fleet is megabytes. A `resource.changes` watch says when to read again.
import { bundlePools, poolBundleName, poolId } from '../domain';
import { TYPE } from '../config';
import type { ShellStore } from '../types/shell-store';
import { findByNames, pagingEnabled } from './version-queries';
import { watchChanges } from './resource-changes';

/**
 * Whether Steve filters Bundles by name (its SQL cache is on and the shell has `findPage`): asked of
 * the pools, a type this package pages. Bundles stay unpaged in the shell, whose Fleet pages list them all.
 */
export function bundlesByNameAvailable(store: ShellStore): boolean {
  return pagingEnabled(store, TYPE.IMAGE);
}

/** The Bundles of these pools (`namespace/name` of a pool without one is simply not among them). */
export async function bundlesOfPools(store: ShellStore, pools: readonly unknown[]): Promise<unknown[]> {
  const wanted = new Set(pools.map(poolId));
  const byNamespace = new Map<string, string[]>();

  for (const [namespace, name] of [...wanted].map((id) => id.split('/'))) {
    byNamespace.set(namespace, [...byNamespace.get(namespace) ?? [], name]);
  }
  const found = await Promise.all([...byNamespace].map(([namespace, names]) => findByNames(store, TYPE.FLEET_BUNDLE, namespace, names.map(poolBundleName))));

  // A cut name was matched by its start: only a Bundle of a pool asked for is kept.
  return found.flat().filter((bundle) => bundlePools(bundle).some((key) => wanted.has(key)));
}

/** The Bundles of the pools in view, read again at each change of any Bundle (`onChange`). */
export class PoolBundlesQuery {
  private stopWatch?: () => Promise<void>;

  constructor(private readonly store: ShellStore, private readonly onChange: () => void) {}

  async request(pools: readonly unknown[]): Promise<unknown[]> {
    this.stopWatch ??= watchChanges(this.store, 'os-upgrades/pools/bundles', TYPE.FLEET_BUNDLE, () => this.onChange());

    return await bundlesOfPools(this.store, pools);
  }

  async stop(): Promise<void> {
    const stop = this.stopWatch;

    this.stopWatch = undefined;
    await stop?.();
  }
}
