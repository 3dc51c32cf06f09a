import type { Reason } from './types';
import type { PoolSpecFields } from './pool-write';
import { DEFAULT_NAMESPACE, readPool } from './pool';
import { targetsOf } from './cluster-targets';
import { specOf } from './pool-object';
import { isRecord } from './text';
import {
  newRolloutForm, RolloutForm, rolloutFormFromPool, rolloutFormProblems, strategyFromRolloutForm
} from './rollout-form';
import {
  integerProblem, labelProblem, LabelRow, namespaceProblem, parseLabelText, resourceNameProblem
} from './input-rules';

// The create/edit form's fields, and how they map to `spec` fields. The image (pin and selector)
// is not here: only the domain's write rules may set it.

export const DEFAULT_CONCURRENCY = 1;
export const DEFAULT_CORDON = true;
/** The CRD's default for `spec.drain`. */
export const DEFAULT_DRAIN = {
  deleteLocalData: true, force: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60
};

export type TargetKind = 'clusterName' | 'clusterGroup' | 'clusterSelector';

export interface TargetRow {
  kind: TargetKind | 'kept';
  /** Cluster or group name, or `key=value, …` for cluster labels. */
  value: string;
  /** A target the form cannot edit (other fields, expressions): written back unchanged. */
  kept?: Record<string, unknown>;
}

export interface PoolForm {
  name: string;
  namespace: string;
  targets: TargetRow[];
  /** The node selector's labels as rows: an empty or repeated key stays visible until the person fixes it. */
  nodeLabels: LabelRow[];
  concurrency: string;
  cordon: boolean;
  drainEnabled: boolean;
  drainForce: boolean;
  drainIgnoreDaemonSets: boolean;
  drainDeleteLocalData: boolean;
  imageMode: 'exact' | 'selector';
  channel: string;
  versionName: string;
  /** The Rollout tab's stages: spec.clusterRolloutStrategy (rollout-form.ts). */
  rollout: RolloutForm;
}

export function newPoolForm(): PoolForm {
  return {
    name:                  '',
    namespace:             DEFAULT_NAMESPACE,
    targets:               [],
    nodeLabels:            [],
    concurrency:           String(DEFAULT_CONCURRENCY),
    cordon:                DEFAULT_CORDON,
    drainEnabled:          true,
    drainForce:            DEFAULT_DRAIN.force,
    drainIgnoreDaemonSets: DEFAULT_DRAIN.ignoreDaemonSets,
    drainDeleteLocalData:  DEFAULT_DRAIN.deleteLocalData,
    imageMode:             'selector',
    channel:               '',
    versionName:           '',
    rollout:               newRolloutForm(),
  };
}

export function labelsToText(labels: Record<string, unknown>): string {
  return Object.entries(labels).map(([key, value]) => `${ key }=${ value }`).join(', ');
}

/** `a=1, b=2` → { a: '1', b: '2' }; undefined when any part is not a valid `key=value`. */
export function textToLabels(text: string): Record<string, string> | undefined {
  const parsed = parseLabelText(text);

  return parsed.problems.length ? undefined : parsed.labels;
}

function toTargetRow(target: Record<string, unknown>): TargetRow {
  const keys = Object.keys(target);
  const only = keys.length === 1 ? keys[0] : '';

  if ((only === 'clusterName' || only === 'clusterGroup') && typeof target[only] === 'string') {
    return { kind: only, value: target[only] as string };
  }
  const selector = target.clusterSelector;

  if (only === 'clusterSelector' && isRecord(selector) && Object.keys(selector).every((k) => k === 'matchLabels') && isRecord(selector.matchLabels)) {
    return { kind: 'clusterSelector', value: labelsToText(selector.matchLabels) };
  }

  return {
    kind: 'kept', value: '', kept: target
  };
}

export function formFromPool(obj: unknown): PoolForm {
  const pool = readPool(obj);
  const spec = specOf(obj);
  const nodeSelector = isRecord(spec.nodeSelector) ? spec.nodeSelector : {};
  const drain = isRecord(spec.drain) ? spec.drain : undefined;
  const concurrency = typeof spec.concurrency === 'number' ? spec.concurrency : DEFAULT_CONCURRENCY;

  return {
    name:                  pool.name,
    namespace:             pool.namespace,
    targets:               targetsOf(obj).map(toTargetRow),
    nodeLabels:            isRecord(nodeSelector.matchLabels) ? Object.entries(nodeSelector.matchLabels).map(([key, value]) => ({ key, value: String(value) })) : [],
    concurrency:           String(concurrency),
    cordon:                typeof spec.cordon === 'boolean' ? spec.cordon : DEFAULT_CORDON,
    // `drain: null` disables draining; a missing drain gets the CRD's default.
    drainEnabled:          spec.drain !== null,
    drainForce:            drain ? drain.force === true : DEFAULT_DRAIN.force,
    drainIgnoreDaemonSets: drain ? drain.ignoreDaemonSets === true : DEFAULT_DRAIN.ignoreDaemonSets,
    drainDeleteLocalData:  drain ? drain.deleteLocalData === true : DEFAULT_DRAIN.deleteLocalData,
    imageMode:             pool.selectorText !== undefined ? 'selector' : 'exact',
    channel:               '',
    versionName:           pool.pin ?? '',
    rollout:               rolloutFormFromPool(obj),
  };
}

function targetFromRow(row: TargetRow): Record<string, unknown> | undefined {
  if (row.kind === 'kept') {
    return row.kept;
  }
  const value = row.value.trim();

  if (!value) {
    return undefined;
  }
  if (row.kind === 'clusterSelector') {
    const labels = textToLabels(value);

    return labels ? { clusterSelector: { matchLabels: labels } } : undefined;
  }

  return { [row.kind]: value };
}

/** A problem of one field: `name`, `namespace`, `concurrency`, `target.<row>`, `nodeLabel.<row>`. */
export interface FieldProblem {
  field: string;
  reason: Reason;
}

/** Text with spaces around it is refused, not trimmed: it is saved exactly as typed or not at all. */
const SURROUNDING_SPACE: Reason = { key: 'osUpgrades.input.surroundingSpace' };

function spaced(text: string): Reason | undefined {
  return text !== text.trim() && text.trim() ? SURROUNDING_SPACE : undefined;
}

function targetProblem(row: TargetRow): Reason | undefined {
  if (row.kind === 'kept') {
    return undefined;
  }
  if (!row.value.trim()) {
    return { key: row.kind === 'clusterSelector' ? 'osUpgrades.input.labelsRequired' : 'osUpgrades.input.targetRequired' };
  }
  if (row.value !== row.value.trim()) {
    return SURROUNDING_SPACE;
  }

  return row.kind === 'clusterSelector' ? parseLabelText(row.value).problems[0] : undefined;
}

/**
 * Every problem that keeps the form from being saved, with the field it belongs to. Nothing the
 * person typed is ever left out of the write silently: a field that cannot be written is a problem.
 */
export function formProblems(form: PoolForm): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, reason: Reason | undefined) => reason && problems.push({ field, reason });

  add('name', spaced(form.name) ?? resourceNameProblem(form.name));
  add('namespace', spaced(form.namespace) ?? namespaceProblem(form.namespace));
  form.targets.forEach((row, i) => add(`target.${ i }`, targetProblem(row)));
  const seen = new Set<string>();

  form.nodeLabels.forEach((row, i) => {
    const key = row.key;

    add(`nodeLabel.${ i }`, spaced(row.key) ?? spaced(row.value) ?? labelProblem({ key, value: row.value }) ?? (seen.has(key) ? { key: 'osUpgrades.input.labelKeyRepeated', values: { key } } : undefined));
    seen.add(key);
  });
  add('concurrency', spaced(form.concurrency) ?? integerProblem(form.concurrency, { min: 1 }));
  problems.push(...rolloutFormProblems(form.rollout));

  return problems;
}

/**
 * The problems marked in red beside their field. A new pool's empty name is not: the person has
 * not typed it yet, and the refusal "The pool needs a name" says it once nothing else is wrong.
 */
export function markedProblems(problems: readonly FieldProblem[]): FieldProblem[] {
  return problems.filter((p) => !(p.field === 'name' && p.reason.key === 'osUpgrades.input.nameRequired'));
}

/** The problem shown beside one field, if any. */
export function fieldProblem(problems: readonly FieldProblem[], field: string): Reason | undefined {
  return problems.find((p) => p.field === field)?.reason;
}

/** Problems that keep the form from being saved (l10n keys). */
export function formErrors(form: PoolForm): Reason[] {
  return formProblems(form).map((p) => p.reason);
}

/** Every spec field the form sets, built on the pool's current spec (`original`). */
export function specFromForm(form: PoolForm, original?: unknown): PoolSpecFields {
  const spec = specOf(original);
  const oldNodeSelector = isRecord(spec.nodeSelector) ? spec.nodeSelector : {};
  const oldDrain = isRecord(spec.drain) ? spec.drain : DEFAULT_DRAIN;
  const matchLabels = Object.fromEntries(form.nodeLabels.map((row) => [row.key.trim(), row.value.trim()]));
  const nodeSelector: Record<string, unknown> = { ...oldNodeSelector, matchLabels };
  const concurrency = Number(form.concurrency.trim());

  if (!form.nodeLabels.length) {
    delete nodeSelector.matchLabels;
  }

  return {
    clusterTargets: form.targets.map(targetFromRow).filter((t): t is Record<string, unknown> => !!t),
    nodeSelector:   Object.keys(nodeSelector).length ? nodeSelector : undefined,
    concurrency:    Number.isInteger(concurrency) ? concurrency : undefined,
    cordon:         form.cordon,
    drain:          form.drainEnabled ? {
      ...oldDrain, force: form.drainForce, ignoreDaemonSets: form.drainIgnoreDaemonSets, deleteLocalData: form.drainDeleteLocalData
    } : null,
    clusterRolloutStrategy: strategyFromRolloutForm(form.rollout),
  };
}

/** The spec fields for a new pool: only those with a value (`base`: a YAML edit's object, for the parts the form does not show). */
export function specForCreate(form: PoolForm, base?: unknown): PoolSpecFields {
  const fields = specFromForm(form, base);

  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * Only the spec fields the person changed since the form was opened, so an edit leaves every
 * other field of the object exactly as it was. `base` is the object the form's fields now sit on:
 * the pool as read, or the object typed in the YAML view (its node selector expressions, drain
 * timeouts).
 */
export function changedSpec(form: PoolForm, initial: PoolForm, original: unknown, base: unknown = original): PoolSpecFields {
  const now = specFromForm(form, base);
  const before = specFromForm(initial, original);

  return Object.fromEntries(Object.entries(now).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

/** The pool form's tabs, in order. */
export const POOL_FORM_TABS = ['identity', 'targets', 'image', 'rollout'] as const;
export type PoolFormTab = typeof POOL_FORM_TABS[number];

/**
 * The tab that holds a field (form fields and YAML paths alike); undefined for what only the YAML
 * shows (labels, annotations, other spec fields).
 */
export function fieldTab(field: string): PoolFormTab | undefined {
  const head = field.split('.')[0];

  if (head === 'name' || head === 'namespace' || field === 'metadata.name' || field === 'metadata.namespace') {
    return 'identity';
  }
  if (head === 'target' || head === 'nodeLabel' || field.startsWith('spec.clusterTargets') || field.startsWith('spec.nodeSelector')) {
    return 'targets';
  }
  if (head === 'selector' || head === 'versionName') {
    return 'image';
  }
  if (head === 'concurrency' || head === 'rollout' || field.startsWith('spec.clusterRolloutStrategy') || ['spec.concurrency', 'spec.cordon', 'spec.drain'].some((path) => field === path || field.startsWith(`${ path }.`))) {
    return 'rollout';
  }

  return undefined;
}
