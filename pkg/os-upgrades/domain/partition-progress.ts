import type { Reason } from './types';
import type { ClusterRollout } from './node-rollout';
import type { FleetCluster, FleetGroup } from './cluster-targets';
import type { PartitionPlan } from './partition-plan';
import { targetedClusters, targetsOf } from './cluster-targets';
import { partitionPlan, rolloutModeOf, rolloutStrategyOf } from './partition-plan';
import { asText, isRecord } from './text';

// Where a staged rollout stands, from two sources: the Bundle's status.partitions, which Fleet
// writes as it walks its partitions (rancher/fleet internal/cmd/controller/target/partition.go
// UpdatePartitions), and the node-level rollout of each cluster (node-rollout.ts). Fleet walks the
// partitions in order; a partition with more unavailable clusters than its maxUnavailable counts as
// unavailable, and once more partitions are unavailable than maxUnavailablePartitions (default 0)
// it starts no cluster of any later partition. A cluster is unavailable to Fleet until its agent
// applied the bundle and its resources are ready; the upgrade Plan is ready once applied, so Fleet
// moves on while the nodes are still upgrading and a failed node job never stops it.

export type StageState = 'done' | 'running' | 'waiting' | 'halted';

export interface FleetPartitionStatus {
  name: string;
  count: number;
  maxUnavailable: number;
  unavailable: number;
  /** Clusters not given the new deployment yet (OutOfSync: a limit holds them back). */
  outOfSync: number;
  /** Clusters (`namespace/name`) Fleet reports in error (ErrApplied, NotReady, Modified), with its message. */
  failing: { cluster: string; state: string; message: string }[];
}

export interface StageProgress {
  name: string;
  clusters: string[];
  nodes: { updated: number; total: number; failed: number };
  /** Every cluster of the stage was read and none has a node the pool's Plan selects: nothing to upgrade there. */
  noNodes: boolean;
  /** Fleet's status of the partition with this name; undefined before Fleet reported it. */
  fleet?: FleetPartitionStatus;
  state: StageState;
}

export interface StagedRolloutProgress {
  stages: StageProgress[];
  /** The stage Fleet stopped at, with why; undefined when nothing stops the rollout. */
  halt?: {
    stage: string;
    /** stage: the stage is over its own limit; pool: the failing clusters fill the pool's maxUnavailable, so no cluster starts. */
    limit: 'stage' | 'pool';
    unavailable: number;
    maxUnavailable: number;
    failing: FleetPartitionStatus['failing'];
  };
  message: Reason;
}

const FAILING_STATES = new Set(['ErrApplied', 'NotReady', 'Modified']);

function toNumber(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The Bundle's status.partitions (rancher/fleet pkg/apis/fleet.cattle.io/v1alpha1 PartitionStatus). */
export function fleetPartitions(bundle: unknown): FleetPartitionStatus[] {
  const status = isRecord(bundle) && isRecord(bundle.status) ? bundle.status : {};
  const partitions = Array.isArray(status.partitions) ? status.partitions.filter(isRecord) : [];

  return partitions.map((partition) => {
    const summary = isRecord(partition.summary) ? partition.summary : {};
    const nonReady = Array.isArray(summary.nonReadyResources) ? summary.nonReadyResources.filter(isRecord) : [];

    return {
      name:           asText(partition.name),
      count:          toNumber(partition.count),
      maxUnavailable: toNumber(partition.maxUnavailable),
      unavailable:    toNumber(partition.unavailable),
      outOfSync:      toNumber(summary.outOfSync),
      failing:        nonReady.filter((r) => FAILING_STATES.has(asText(r.bundleState))).map((r) => ({
        cluster: asText(r.name), state: asText(r.bundleState), message: asText(r.message)
      })),
    };
  });
}

/** The operator's bundle of a pool: `mos-<pool>` in the pool's namespace (elemental-operator controllers/managedosimage_controller.go). */
export function bundleOfPool(pool: unknown, bundles: readonly unknown[]): unknown {
  const metadata = isRecord(pool) && isRecord(pool.metadata) ? pool.metadata : {};

  return bundles.find((bundle) => {
    const meta = isRecord(bundle) && isRecord(bundle.metadata) ? bundle.metadata : {};

    return meta.namespace === metadata.namespace && meta.name === `mos-${ asText(metadata.name) }`;
  });
}

function statusNumber(bundle: unknown, key: string, fallback: number): number {
  const status = isRecord(bundle) && isRecord(bundle.status) ? bundle.status : {};

  return typeof status[key] === 'number' ? status[key] as number : fallback;
}

/** The stage's clusters were all read, and none runs a node the Plan selects. */
function withoutNodes(clusters: string[], rollouts: readonly ClusterRollout[]): boolean {
  return clusters.length > 0 && clusters.every((cluster) => rollouts.some((r) => r.cluster === cluster && r.reading === 'read' && r.counts.total === 0));
}

function nodesOf(clusters: string[], rollouts: readonly ClusterRollout[]): StageProgress['nodes'] {
  const mine = rollouts.filter((rollout) => clusters.includes(rollout.cluster));

  return {
    updated: mine.reduce((sum, r) => sum + r.counts.updated, 0),
    total:   mine.reduce((sum, r) => sum + r.counts.total, 0),
    failed:  mine.reduce((sum, r) => sum + r.counts.failed, 0),
  };
}

/**
 * Why Fleet starts no more clusters, when clusters fail: the stage that stops the walk is over its
 * limit with clusters in error; or, with every stage within its limit, the failing clusters take
 * the pool's whole maxUnavailable (partition.go updateDeploymentFromStaged starts a cluster only
 * while fewer are unavailable).
 */
function haltOf(stages: StageProgress[], stoppedAt: StageProgress | undefined, bundle: unknown, plan: PartitionPlan): StagedRolloutProgress['halt'] {
  const failingOf = (stage?: StageProgress) => stage?.fleet?.failing ?? [];

  if (stoppedAt && failingOf(stoppedAt).length) {
    return {
      stage: stoppedAt.name, limit: 'stage', unavailable: stoppedAt.fleet?.unavailable ?? 0, maxUnavailable: stoppedAt.fleet?.maxUnavailable ?? 0, failing: failingOf(stoppedAt)
    };
  }
  const failingStage = stages.find((stage) => failingOf(stage).length);
  const max = statusNumber(bundle, 'maxUnavailable', plan.maxUnavailable ?? Infinity);
  const failingCount = stages.reduce((sum, stage) => sum + failingOf(stage).length, 0);
  const stuck = stages.some((stage) => stage.state !== 'done' && (stage.fleet?.unavailable ?? 0) > failingOf(stage).length);

  if (failingStage && failingCount >= max && stuck) {
    return {
      stage: failingStage.name, limit: 'pool', unavailable: failingCount, maxUnavailable: max, failing: failingOf(failingStage)
    };
  }

  return undefined;
}

/**
 * Each stage of the plan with its clusters, nodes and state, walked as Fleet walks its partitions:
 * a stage over its limit counts as unavailable; past maxUnavailablePartitions of those, the later
 * stages wait. The stage that stops them is halted when Fleet reports clusters in error in it
 * (else it is only still running).
 */
export function stagedRolloutProgress(plan: PartitionPlan, bundle: unknown, rollouts: readonly ClusterRollout[]): StagedRolloutProgress {
  const reported = fleetPartitions(bundle);
  const allowed = statusNumber(bundle, 'maxUnavailablePartitions', plan.maxUnavailablePartitions ?? 0);
  let unavailablePartitions = 0;
  let stoppedAt: StageProgress | undefined;
  const stages: StageProgress[] = plan.stages.map((stage, index) => {
    const fleet = reported.find((p) => p.name === stage.name) ?? (reported.length === plan.stages.length ? reported[index] : undefined);
    const nodes = nodesOf(stage.clusters, rollouts);
    const settled = fleet ? fleet.unavailable === 0 : false;
    const noNodes = withoutNodes(stage.clusters, rollouts);
    // With no node to upgrade, the stage is done once Fleet applied the Plan to its clusters.
    const nodesDone = nodes.total > 0 ? nodes.updated === nodes.total : stage.clusters.length === 0 || noNodes;
    const notStarted = !!fleet && fleet.count > 0 && fleet.outOfSync >= fleet.count;
    const progress: StageProgress = {
      name: stage.name, clusters: stage.clusters, nodes, noNodes, fleet, state: settled && nodesDone ? 'done' : stoppedAt || notStarted ? 'waiting' : 'running'
    };

    if (!stoppedAt && fleet && fleet.unavailable > fleet.maxUnavailable) {
      unavailablePartitions++;
      if (unavailablePartitions > allowed) {
        stoppedAt = progress;
      }
    }

    return progress;
  });
  const halt = haltOf(stages, stoppedAt, bundle, plan);

  if (halt) {
    stages.filter((stage) => stage.name === halt.stage).forEach((stage) => {
      stage.state = 'halted';
    });

    return {
      stages,
      halt,
      message: {
        key:    `osUpgrades.stages.progress.halted.${ halt.limit }`,
        values: {
          stage: halt.stage, unavailable: halt.unavailable, max: halt.maxUnavailable, cluster: halt.failing[0].cluster, count: halt.failing.length
        }
      },
    };
  }
  const running = stages.find((stage) => stage.state === 'running');

  if (stages.every((stage) => stage.state === 'done')) {
    return { stages, message: { key: 'osUpgrades.stages.progress.done', values: { count: stages.length } } };
  }

  return {
    stages,
    message: running ? { key: 'osUpgrades.stages.progress.running', values: { stage: running.name, waiting: stages.filter((s) => s.state === 'waiting').length } } : { key: 'osUpgrades.stages.progress.unknown' },
  };
}

/**
 * A pool's staged rollout, from the stored strategy, Fleet's clusters, the pool's bundle and the
 * node rollout; undefined for a pool that rolls out to all its clusters at once.
 */
export function poolStagedRollout(pool: unknown, fleet: { clusters: FleetCluster[]; groups: FleetGroup[]; bundles: readonly unknown[] }, rollouts: readonly ClusterRollout[]): StagedRolloutProgress | undefined {
  const strategy = rolloutStrategyOf(pool);

  if (rolloutModeOf(strategy) === 'none') {
    return undefined;
  }
  const metadata = isRecord(pool) && isRecord(pool.metadata) ? pool.metadata : {};
  const namespace = asText(metadata.namespace);
  const names = new Set(targetedClusters(namespace, targetsOf(pool), fleet.clusters, fleet.groups));
  const targeted = fleet.clusters.filter((cluster) => cluster.namespace === namespace && names.has(cluster.name));

  return stagedRolloutProgress(partitionPlan(strategy, targeted, fleet.groups), bundleOfPool(pool, fleet.bundles), rollouts);
}
