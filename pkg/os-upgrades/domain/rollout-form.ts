import type { Reason } from './types';
import type { RolloutMode, RolloutPartition, RolloutStrategy } from './partition-plan';
import { intOrPercentProblem, rolloutModeOf, rolloutStrategyOf } from './partition-plan';
import { parseLabelText } from './input-rules';
import { isRecord } from './text';
import type { TargetKind } from './pool-form';

// The Rollout tab's stages ↔ spec.clusterRolloutStrategy (Fleet's RolloutStrategy, partition-plan.ts).

/** A stage takes clusters the way a pool's target does. */
export type StageKind = TargetKind;

export interface StageRow {
  name: string;
  kind: StageKind | 'kept';
  /** Cluster or group name, or `key=value, …` for cluster labels. */
  value: string;
  /** A count or a percentage ("1", "25%"); '' for the pool's limit. */
  maxUnavailable: string;
  /** A stage the form cannot edit (several criteria, expressions): written back unchanged. */
  kept?: RolloutPartition;
}

export interface RolloutForm {
  mode: RolloutMode;
  /** Automatic: the stage size, a count or a percentage. */
  autoSize: string;
  /** Clusters updating at once over the whole pool; '' for Fleet's 100%. */
  maxUnavailable: string;
  /** Stages that may be over their limit before Fleet starts no later stage; '' for Fleet's 0. */
  maxUnavailablePartitions: string;
  stages: StageRow[];
}

export function newRolloutForm(): RolloutForm {
  return {
    mode: 'none', autoSize: '', maxUnavailable: '', maxUnavailablePartitions: '', stages: []
  };
}

function textToLabels(value: string): Record<string, string> | undefined {
  const parsed = parseLabelText(value);

  return parsed.problems.length ? undefined : parsed.labels;
}

function labelsToText(labels: Record<string, unknown>): string {
  return Object.entries(labels).map(([key, value]) => `${ key }=${ value }`).join(', ');
}

function text(value: unknown): string {
  return value === undefined ? '' : String(value);
}

function stageRow(partition: RolloutPartition): StageRow {
  const criteria = (['clusterName', 'clusterGroup', 'clusterSelector', 'clusterGroupSelector'] as const).filter((key) => partition[key] !== undefined);
  const selector = partition.clusterSelector;
  const simpleSelector = isRecord(selector) && Object.keys(selector).every((key) => key === 'matchLabels') && isRecord(selector.matchLabels);
  const base = { name: partition.name ?? '', maxUnavailable: text(partition.maxUnavailable) };

  if (criteria.length === 1 && criteria[0] === 'clusterName') {
    return {
      ...base, kind: 'clusterName', value: partition.clusterName ?? ''
    };
  }
  if (criteria.length === 1 && criteria[0] === 'clusterGroup') {
    return {
      ...base, kind: 'clusterGroup', value: partition.clusterGroup ?? ''
    };
  }
  if (criteria.length === 1 && criteria[0] === 'clusterSelector' && simpleSelector) {
    return {
      ...base, kind: 'clusterSelector', value: labelsToText(selector.matchLabels as Record<string, unknown>)
    };
  }

  return {
    ...base, kind: 'kept', value: '', kept: partition
  };
}

/** The Rollout tab's stage fields of a pool. */
export function rolloutFormFromPool(obj: unknown): RolloutForm {
  const strategy = rolloutStrategyOf(obj);

  return {
    mode:                     rolloutModeOf(strategy),
    autoSize:                 text(strategy?.autoPartitionSize),
    maxUnavailable:           text(strategy?.maxUnavailable),
    maxUnavailablePartitions: text(strategy?.maxUnavailablePartitions),
    stages:                   (strategy?.partitions ?? []).map(stageRow),
  };
}

/** "3" → 3, "25%" stays a text, '' → undefined (Fleet's default). */
function countOf(value: string): number | string | undefined {
  const trimmed = value.trim();

  if (!trimmed) {
    return undefined;
  }

  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

function partitionOf(row: StageRow): RolloutPartition {
  if (row.kind === 'kept') {
    return {
      ...row.kept, name: row.name, maxUnavailable: countOf(row.maxUnavailable)
    };
  }
  const criterion = row.kind === 'clusterSelector' ? { clusterSelector: { matchLabels: textToLabels(row.value) ?? {} } } : { [row.kind]: row.value.trim() };

  return {
    name: row.name.trim(), ...criterion, maxUnavailable: countOf(row.maxUnavailable)
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** spec.clusterRolloutStrategy from the tab; undefined (no strategy: all clusters at once) for "none" with no limit set. */
export function strategyFromRolloutForm(form: RolloutForm): RolloutStrategy | undefined {
  const common = withoutUndefined({ maxUnavailable: countOf(form.maxUnavailable), maxUnavailablePartitions: countOf(form.maxUnavailablePartitions) });

  if (form.mode === 'automatic') {
    return { ...common, autoPartitionSize: countOf(form.autoSize) ?? '25%' };
  }
  if (form.mode === 'stages') {
    return { ...common, partitions: form.stages.map((row) => withoutUndefined(partitionOf(row))) };
  }

  return Object.keys(common).length ? common : undefined;
}

/** A problem of one field of the tab: `rollout.autoSize`, `rollout.maxUnavailable`, `rollout.stage.<row>.name|value|max`. */
export interface RolloutProblem {
  field: string;
  reason: Reason;
}

function countProblem(value: string): Reason | undefined {
  const count = countOf(value);

  return count === undefined ? undefined : intOrPercentProblem(count);
}

/** What keeps the tab from being saved: bad counts, stages without a name, a cluster, a group or labels, names twice. */
export function rolloutFormProblems(form: RolloutForm): RolloutProblem[] {
  const problems: RolloutProblem[] = [];
  const add = (field: string, reason: Reason | undefined) => reason && problems.push({ field, reason });

  add('rollout.maxUnavailable', countProblem(form.maxUnavailable) ?? (countOf(form.maxUnavailable) === 0 ? { key: 'osUpgrades.stages.problem.zeroPool' } : undefined));
  add('rollout.maxUnavailablePartitions', countProblem(form.maxUnavailablePartitions));
  if (form.mode === 'automatic') {
    add('rollout.autoSize', countProblem(form.autoSize) ?? (countOf(form.autoSize) === 0 ? { key: 'osUpgrades.stages.problem.autoZero' } : undefined));
  }
  if (form.mode !== 'stages') {
    return problems;
  }
  if (!form.stages.length) {
    add('rollout.stages', { key: 'osUpgrades.stages.problem.none' });
  }
  const seen = new Set<string>();

  form.stages.forEach((row, i) => {
    const name = row.name.trim();

    add(`rollout.stage.${ i }.name`, !name ? { key: 'osUpgrades.stages.problem.noName', values: { stage: i + 1 } } : seen.has(name) ? { key: 'osUpgrades.stages.problem.sameName', values: { stage: name } } : undefined);
    seen.add(name);
    if (row.kind !== 'kept') {
      const value = row.value.trim();
      const badLabels = row.kind === 'clusterSelector' && value && !textToLabels(value);

      add(`rollout.stage.${ i }.value`, !value ? { key: 'osUpgrades.stages.problem.noClusters', values: { stage: name || i + 1 } } : badLabels ? { key: 'osUpgrades.input.labelsRequired' } : undefined);
    }
    add(`rollout.stage.${ i }.max`, countProblem(row.maxUnavailable) ?? (countOf(row.maxUnavailable) === 0 ? { key: 'osUpgrades.stages.problem.zero', values: { stage: name || i + 1 } } : undefined));
  });

  return problems;
}
