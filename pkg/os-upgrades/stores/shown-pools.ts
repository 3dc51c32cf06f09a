// The pools the pools list's page shows now, where the shell pages pools (stores/pool-page.ts sets
// them at each read), for the approval's check of a lost race (stores/pool-approval.ts): a module of
// its own, so the approval dialog, which the pool form loads too, does not load the page's store.
import { KubeObject, plainObject, poolId } from '../domain';

let shown: readonly unknown[] = [];

export function setShownPools(pools: readonly unknown[]): void {
  shown = pools;
}

/** The pool `id` as the pools list's page shows it, undefined when it is not on the page. */
export function shownPool(id: string): KubeObject | undefined {
  const pool = shown.find((candidate) => poolId(candidate) === id);

  return pool ? plainObject(pool) : undefined;
}
