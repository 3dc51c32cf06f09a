import type { Reason } from './types';
import type { FleetCluster, FleetGroup } from './cluster-targets';
import { matchesSelector } from './cluster-targets';
import { specOf } from './pool-object';
import { isRecord } from './text';

// A pool's spec.clusterRolloutStrategy is Fleet's RolloutStrategy: the Elemental operator copies it
// unchanged into the Bundle it writes (rancher/elemental-operator
// controllers/managedosimage_controller.go: bundle.Spec.RolloutStrategy = spec.ClusterRolloutStrategy;
// the type in api/v1beta1/managedosimage_types.go). Fleet then splits the targeted clusters into
// partitions (rancher/fleet internal/cmd/controller/target/rollout.go: partitions, manualPartition,
// autoPartition) and sizes each limit (internal/cmd/controller/target/status.go: limit).

/** A Kubernetes IntOrString: a whole number or a text ("3" or "25%"). */
export type IntOrPercent = number | string;

export interface RolloutPartition {
  name?: string;
  maxUnavailable?: IntOrPercent;
  clusterName?: string;
  clusterGroup?: string;
  clusterSelector?: Record<string, unknown>;
  clusterGroupSelector?: Record<string, unknown>;
}

export interface RolloutStrategy {
  maxUnavailable?: IntOrPercent;
  maxUnavailablePartitions?: IntOrPercent;
  autoPartitionSize?: IntOrPercent;
  partitions?: RolloutPartition[];
}

/** Fleet's defaults (rancher/fleet internal/cmd/controller/target/builder.go: defLimit, defAutoPartitionSize, defMaxUnavailablePartitions). */
export const FLEET_DEFAULT_LIMIT = '100%';
export const FLEET_DEFAULT_AUTO_PARTITION_SIZE = '25%';
export const FLEET_DEFAULT_MAX_UNAVAILABLE_PARTITIONS = 0;
/** autoPartition keeps every cluster in one partition below this many targets. */
export const FLEET_AUTO_PARTITION_MINIMUM = 200;

export type RolloutMode = 'none' | 'automatic' | 'stages';

function isIntOrPercent(value: unknown): value is IntOrPercent {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'string';
}

function readPartition(value: Record<string, unknown>): RolloutPartition {
  const out: RolloutPartition = {};

  for (const key of ['name', 'clusterName', 'clusterGroup'] as const) {
    if (typeof value[key] === 'string') {
      out[key] = value[key] as string;
    }
  }
  for (const key of ['clusterSelector', 'clusterGroupSelector'] as const) {
    if (isRecord(value[key])) {
      out[key] = value[key] as Record<string, unknown>;
    }
  }
  if (isIntOrPercent(value.maxUnavailable)) {
    out.maxUnavailable = value.maxUnavailable;
  }

  return out;
}

/** The rollout strategy a pool (or a Bundle) holds; undefined when it sets none. */
export function rolloutStrategyOf(obj: unknown): RolloutStrategy | undefined {
  const spec = specOf(obj);
  const raw = isRecord(spec.clusterRolloutStrategy) ? spec.clusterRolloutStrategy : isRecord(spec.rolloutStrategy) ? spec.rolloutStrategy : undefined;

  if (!raw) {
    return undefined;
  }
  const strategy: RolloutStrategy = {};

  for (const key of ['maxUnavailable', 'maxUnavailablePartitions', 'autoPartitionSize'] as const) {
    if (isIntOrPercent(raw[key])) {
      strategy[key] = raw[key] as IntOrPercent;
    }
  }
  if (Array.isArray(raw.partitions)) {
    strategy.partitions = raw.partitions.filter(isRecord).map(readPartition);
  }

  return strategy;
}

/** none: Fleet's one partition "All"; stages: named partitions; automatic: any other strategy. */
export function rolloutModeOf(strategy: RolloutStrategy | undefined): RolloutMode {
  if (strategy?.partitions?.length) {
    return 'stages';
  }

  return strategy?.autoPartitionSize === undefined || strategy.autoPartitionSize === 0 ? 'none' : 'automatic';
}

/**
 * Fleet's `limit`: the first value set (else 100%) for `count` items. An integer is taken as is; a
 * text is an integer or a percentage of `count` rounded down, at least 1. Undefined where Fleet
 * fails the Bundle ("invalid maxUnavailable, must be int or percentage").
 */
export function fleetLimit(count: number, ...values: (IntOrPercent | undefined)[]): number | undefined {
  if (count <= 0) {
    return 1;
  }
  const value = values.find((v) => v !== undefined) ?? FLEET_DEFAULT_LIMIT;

  if (typeof value === 'number') {
    return value;
  }
  if (/^[+-]?\d+$/.test(value.trim()) && Number(value) > 0) {
    return Number(value);
  }
  if (!value.endsWith('%')) {
    return undefined;
  }
  const percent = Number(value.slice(0, -1));

  if (value.length < 2 || !Number.isFinite(percent)) {
    return undefined;
  }
  if (percent <= 0) {
    return 1;
  }

  return Math.max(1, Math.floor(Math.floor(count * percent) / 100));
}

/** A count or percentage as the form accepts it: a whole number ≥ 0, or 0–100 followed by %. */
export function intOrPercentProblem(value: IntOrPercent | undefined): Reason | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 ? undefined : { key: 'osUpgrades.stages.problem.count', values: { value } };
  }
  if (/^\d+$/.test(value) || (/^\d+(\.\d+)?%$/.test(value) && Number(value.slice(0, -1)) <= 100)) {
    return undefined;
  }

  return { key: 'osUpgrades.stages.problem.count', values: { value } };
}

function hasCriterion(partition: RolloutPartition): boolean {
  return !!(partition.clusterName || partition.clusterGroup || partition.clusterSelector || partition.clusterGroupSelector);
}

/** What the CRD and Fleet refuse or ignore in a strategy: bad counts, stages without name or clusters, names twice. */
export function rolloutStrategyProblems(strategy: RolloutStrategy | undefined): Reason[] {
  if (!strategy) {
    return [];
  }
  const problems: Reason[] = [];

  for (const key of ['maxUnavailable', 'maxUnavailablePartitions', 'autoPartitionSize'] as const) {
    if (intOrPercentProblem(strategy[key])) {
      problems.push({ key: 'osUpgrades.stages.problem.field', values: { field: key, value: String(strategy[key]) } });
    }
  }
  if (strategy.maxUnavailable === 0) {
    // partition.go updateDeploymentFromStaged starts a cluster only while fewer than the limit are unavailable.
    problems.push({ key: 'osUpgrades.stages.problem.zeroPool' });
  }
  const seen = new Set<string>();

  (strategy.partitions ?? []).forEach((partition, index) => {
    const stage = partition.name || String(index + 1);

    if (!partition.name?.trim()) {
      problems.push({ key: 'osUpgrades.stages.problem.noName', values: { stage: index + 1 } });
    } else if (seen.has(partition.name)) {
      problems.push({ key: 'osUpgrades.stages.problem.sameName', values: { stage } });
    }
    seen.add(partition.name ?? '');
    if (!hasCriterion(partition)) {
      // rancher/fleet internal/cmd/controller/target/matcher/clustermatcher.go: no criteria match no cluster.
      problems.push({ key: 'osUpgrades.stages.problem.noClusters', values: { stage } });
    }
    if (intOrPercentProblem(partition.maxUnavailable)) {
      problems.push({ key: 'osUpgrades.stages.problem.stageCount', values: { stage, value: String(partition.maxUnavailable) } });
    } else if (partition.maxUnavailable === 0) {
      problems.push({ key: 'osUpgrades.stages.problem.zero', values: { stage } });
    }
  });

  return problems;
}

/**
 * Fleet's partition matcher for one cluster: every criterion set must hold, a partition that
 * sets none matches nothing; a group name and a group selector must hold for the same group
 * the cluster belongs to (manualPartition tries each of the cluster's groups in turn).
 */
export function partitionMatches(partition: RolloutPartition, cluster: FleetCluster, groups: FleetGroup[]): boolean {
  if (!hasCriterion(partition)) {
    return false;
  }
  if (partition.clusterName && partition.clusterName !== cluster.name) {
    return false;
  }
  if (partition.clusterSelector && !matchesSelector(partition.clusterSelector, cluster.labels)) {
    return false;
  }
  const memberOf = groups.filter((group) => group.namespace === cluster.namespace && matchesSelector(group.selector, cluster.labels));
  const groupFits = (group?: FleetGroup) => (!partition.clusterGroup || partition.clusterGroup === group?.name) &&
    (!partition.clusterGroupSelector || matchesSelector(partition.clusterGroupSelector, group?.labels ?? {}));

  return memberOf.length ? memberOf.some(groupFits) : groupFits(undefined);
}

export interface PlannedStage {
  name: string;
  /** Clusters this stage updates first (a cluster in several stages is listed in its first). */
  clusters: string[];
  /** How many of its clusters may be updating at once (Fleet's partition maxUnavailable). */
  maxUnavailable: number | undefined;
  /**
   * Whether the stage holds the later ones back: Fleet counts a partition unavailable only while more
   * of its clusters than maxUnavailable are out of date (target/status.go), so a limit that covers
   * every cluster of the stage never stops the next one.
   */
  holdsBack: boolean;
}

export interface PartitionPlan {
  mode: RolloutMode;
  stages: PlannedStage[];
  /** Targeted clusters no stage names: Fleet never updates them. */
  unstaged: string[];
  /** Clusters more than one stage names, with those stages (Fleet counts them in each). */
  overlaps: { cluster: string; stages: string[] }[];
  /** Automatic partitioning asked for, but fewer than 200 clusters: Fleet keeps one partition. */
  autoBelowMinimum: boolean;
  /** How many stages may be over their limit before Fleet stops starting later stages. */
  maxUnavailablePartitions: number | undefined;
  /** Clusters updating at once over the whole pool. */
  maxUnavailable: number | undefined;
}

function stage(name: string, clusters: string[], counted: number, maxUnavailable: number | undefined): PlannedStage {
  return {
    name, clusters, maxUnavailable, holdsBack: maxUnavailable !== undefined && maxUnavailable < counted
  };
}

function autoStages(strategy: RolloutStrategy, clusters: string[]): { stages: PlannedStage[]; belowMinimum: boolean } {
  const all = (): PlannedStage[] => [stage('All', clusters, clusters.length, fleetLimit(clusters.length, strategy.maxUnavailable))];
  const size = strategy.autoPartitionSize;

  if (typeof size === 'number' && size <= 0) {
    return { stages: all(), belowMinimum: false };
  }
  if (clusters.length < FLEET_AUTO_PARTITION_MINIMUM) {
    return { stages: all(), belowMinimum: size !== undefined };
  }
  const chunk = Math.max(1, fleetLimit(clusters.length, size, FLEET_DEFAULT_AUTO_PARTITION_SIZE) ?? 1);
  const stages: PlannedStage[] = [];

  for (let offset = 0; offset < clusters.length; offset += chunk) {
    const part = clusters.slice(offset, offset + chunk);

    stages.push(stage(`Partition ${ offset } - ${ offset + part.length }`, part, part.length, fleetLimit(part.length, strategy.maxUnavailable)));
  }

  return { stages, belowMinimum: false };
}

/**
 * Which targeted cluster falls in which stage, as Fleet assigns them. `targeted` are the pool's
 * targeted clusters in Fleet's order (automatic stages cut that list in slices).
 */
export function partitionPlan(strategy: RolloutStrategy | undefined, targeted: FleetCluster[], groups: FleetGroup[]): PartitionPlan {
  const rules = strategy ?? {};
  const names = targeted.map((cluster) => cluster.name);
  // internal/cmd/controller/target/partition.go maxUnavailablePartitions: a limit over the partitions made.
  const common = (stages: PlannedStage[]) => ({
    maxUnavailable:           fleetLimit(names.length, rules.maxUnavailable),
    maxUnavailablePartitions: fleetLimit(stages.length, rules.maxUnavailablePartitions, FLEET_DEFAULT_MAX_UNAVAILABLE_PARTITIONS),
    stages,
  });

  if (!rules.partitions?.length) {
    const { stages, belowMinimum } = autoStages(rules, names);

    return {
      ...common(stages), mode: rolloutModeOf(strategy), unstaged: [], overlaps: [], autoBelowMinimum: belowMinimum
    };
  }
  const stageNames = rules.partitions.map((partition, index) => partition.name || String(index + 1));
  const first = new Map<string, number>();
  const overlaps: PartitionPlan['overlaps'] = [];

  for (const cluster of targeted) {
    const matching = rules.partitions.flatMap((partition, index) => (partitionMatches(partition, cluster, groups) ? [index] : []));

    if (matching.length) {
      first.set(cluster.name, matching[0]);
    }
    if (matching.length > 1) {
      overlaps.push({ cluster: cluster.name, stages: matching.map((index) => stageNames[index]) });
    }
  }
  const stages = rules.partitions.map((partition, index) => {
    const clusters = names.filter((name) => first.get(name) === index);
    const counted = clusters.length + overlaps.filter((o) => o.stages.includes(stageNames[index]) && first.get(o.cluster) !== index).length;

    return stage(stageNames[index], clusters, counted, fleetLimit(counted, partition.maxUnavailable, rules.maxUnavailable));
  });

  return {
    ...common(stages), mode: 'stages', unstaged: names.filter((name) => !first.has(name)), overlaps, autoBelowMinimum: false
  };
}
