import type { FleetCluster, FleetGroup } from './cluster-targets';
import type { PartitionPlan } from './partition-plan';
import type { PoolForm } from './pool-form';
import { targetedClusters } from './cluster-targets';
import { partitionPlan } from './partition-plan';
import { specFromForm } from './pool-form';
import { strategyFromRolloutForm } from './rollout-form';

/**
 * The stages the form's strategy makes of the clusters the form's targets select, read from
 * Fleet's clusters (the pool's own targets, not the stored ones: the preview follows the form).
 */
export function rolloutPreview(form: PoolForm, clusters: FleetCluster[], groups: FleetGroup[]): PartitionPlan {
  const targets = specFromForm(form).clusterTargets as Record<string, unknown>[];
  const names = new Set(targetedClusters(form.namespace, targets, clusters, groups));
  const targeted = clusters.filter((cluster) => cluster.namespace === form.namespace && names.has(cluster.name));

  return partitionPlan(strategyFromRolloutForm(form.rollout), targeted, groups);
}

/** The clusters the form's targets select, by name: what a stage may be built from. */
export function targetedClusterNames(form: PoolForm, clusters: FleetCluster[], groups: FleetGroup[]): string[] {
  return targetedClusters(form.namespace, specFromForm(form).clusterTargets as Record<string, unknown>[], clusters, groups).sort();
}
