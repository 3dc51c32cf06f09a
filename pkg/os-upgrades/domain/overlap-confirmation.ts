import {
  FleetCluster, FleetGroup, nodeSelectorsMayOverlap, Overlap, targetedClusters, targetsOf
} from './cluster-targets';
import { readPool } from './pool';
import { specOf } from './pool-object';
import { isRecord } from './text';

// Two ManagedOSImages that select the same machines fight over them (each pins its own image).
// Saving such a pool takes an explicit confirmation naming each pool it overlaps; the pools list
// marks every pool that overlaps another.

/** The overlaps the person has not confirmed by name: while there is one, the form does not save. */
export function unconfirmedOverlaps(overlaps: readonly Overlap[], confirmed: readonly string[]): Overlap[] {
  return overlaps.filter((overlap) => !confirmed.includes(overlap.pool));
}

/**
 * For each pool (`namespace/name`), the names of the other pools that may upgrade the same machines:
 * what `overlappingPools` says of each, with every pool's clusters worked out once (200 pools on
 * 50 clusters took seconds when each pair worked them out again).
 */
export function overlapsByPool(pools: readonly unknown[], clusters: readonly FleetCluster[], groups: readonly FleetGroup[]): Map<string, string[]> {
  const entries = pools.map((pool) => {
    const { name, namespace } = readPool(pool);
    const metadata = isRecord(pool) && isRecord(pool.metadata) ? pool.metadata : {};

    return {
      name,
      namespace,
      objectName:   String(metadata.name),
      nodeSelector: specOf(pool).nodeSelector,
      clusters:     new Set(targetedClusters(namespace, targetsOf(pool), [...clusters], [...groups])),
    };
  });
  const result = new Map<string, string[]>();

  for (const mine of entries) {
    const found = mine.clusters.size ? entries.filter((other) => other.namespace === mine.namespace && other.name !== mine.name &&
      nodeSelectorsMayOverlap(mine.nodeSelector, other.nodeSelector) && [...other.clusters].some((cluster) => mine.clusters.has(cluster))) : [];

    if (found.length) {
      result.set(`${ mine.namespace }/${ mine.name }`, found.map((other) => other.objectName));
    }
  }

  return result;
}
