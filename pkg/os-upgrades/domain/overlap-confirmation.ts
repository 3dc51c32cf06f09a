import {
  FleetCluster, FleetGroup, Overlap, overlappingPools, targetsOf
} from './cluster-targets';
import { readPool } from './pool';
import { specOf } from './pool-object';

// Two ManagedOSImages that select the same machines fight over them (each pins its own image).
// Saving such a pool takes an explicit confirmation naming each pool it overlaps; the pools list
// marks every pool that overlaps another.

/** The overlaps the person has not confirmed by name: while there is one, the form does not save. */
export function unconfirmedOverlaps(overlaps: readonly Overlap[], confirmed: readonly string[]): Overlap[] {
  return overlaps.filter((overlap) => !confirmed.includes(overlap.pool));
}

/** For each pool (`namespace/name`), the names of the other pools that may upgrade the same machines. */
export function overlapsByPool(pools: readonly unknown[], clusters: readonly FleetCluster[], groups: readonly FleetGroup[]): Map<string, string[]> {
  const result = new Map<string, string[]>();

  for (const pool of pools) {
    const { name, namespace } = readPool(pool);
    const found = overlappingPools({
      name, namespace, targets: targetsOf(pool), nodeSelector: specOf(pool).nodeSelector
    }, [...pools], [...clusters], [...groups]);

    if (found.length) {
      result.set(`${ namespace }/${ name }`, found.map((o) => o.pool));
    }
  }

  return result;
}
