// What the Elemental operator made of a pool's pin, as far as the API shows it. The operator
// (elemental-operator controllers/managedosimage_controller.go) never sets observedGeneration:
// after a write it copies the Fleet bundle's conditions as they were before Fleet reacted, so a
// Ready=True right after a write is the OLD rollout's. A pin to a missing version, or to one that
// is not a container, makes its reconcile return an error: the status is left as it was and the
// reconcile is retried with back-off until the version appears.
import type { KubeObject, OSVersion, Reason } from './types';
import type { RolloutVerdict } from './node-rollout';
import { asOSVersions, isContainerVersion, VersionInput } from './channel';
import { OPERATOR_LABELS, readPool } from './pool';
import { asText, isRecord } from './text';

/** Remembered when the extension wrote a pool: the pin and the conditions the write left. */
export interface PendingWrite {
  pin: string;
  /** status.conditions of the object the write returned, as canonical JSON. */
  conditions: string;
}

export type OperatorState =
  /** The operator cannot use the pin; it keeps retrying and the status says nothing about it. */
  | { kind: 'refused'; reason: Reason }
  /** Written; the status still shows what the operator copied before Fleet reacted. */
  | { kind: 'waiting' }
  /** The status belongs to the current pin (or nothing was written here). */
  | { kind: 'current' };

/** JSON with object keys sorted, so two reads of one value compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${ value.map(canonicalJson).join(',') }]`;
  }
  if (isRecord(value)) {
    return `{${ Object.keys(value).sort().map((key) => `${ JSON.stringify(key) }:${ canonicalJson(value[key]) }`).join(',') }}`;
  }

  return JSON.stringify(value) ?? 'null';
}

function conditionsText(obj: unknown): string {
  const status = isRecord(obj) && isRecord(obj.status) ? obj.status : {};

  return canonicalJson(Array.isArray(status.conditions) ? status.conditions : []);
}

/** What to remember of the object a write returned. */
export function pendingWrite(written: unknown): PendingWrite {
  return { pin: readPool(written).pin ?? '', conditions: conditionsText(written) };
}

/**
 * The operator's state for a pool: refused (the pin names no usable version in its namespace),
 * waiting (the extension wrote `pending` and the conditions have not moved since), or current.
 */
export function operatorState(obj: unknown, versions: readonly VersionInput[], pending?: PendingWrite): OperatorState {
  const pool = readPool(obj);

  if (pool.pin && !pool.osImage) {
    const matches = asOSVersions(versions).filter((version: OSVersion) => version.name === pool.pin && (version.namespace === pool.namespace || version.namespace === ''));

    if (!matches.length) {
      return { kind: 'refused', reason: { key: 'osUpgrades.pool.operator.missing', values: { name: pool.pin } } };
    }
    if (!matches.some(isContainerVersion)) {
      return { kind: 'refused', reason: { key: 'osUpgrades.pool.operator.notContainer', values: { name: pool.pin, type: matches[0].type } } };
    }
  }
  if (pending && pending.pin === (pool.pin ?? '') && pending.conditions === conditionsText(obj)) {
    return { kind: 'waiting' };
  }

  return { kind: 'current' };
}

/**
 * The operator's state once the pool's nodes and Bundle are known (rule "The operator's state"): a
 * wait ends when every node the pool targets runs the pin's image, or when the pool's Fleet Bundle
 * shows the pin's Plan delivered (`bundleDelivered`), whatever the copied conditions still say.
 */
export function operatorStateWithNodes(state: OperatorState, nodes?: { verdict: RolloutVerdict }, delivered = false): OperatorState {
  return state.kind === 'waiting' && (nodes?.verdict === 'rolledOut' || delivered) ? { kind: 'current' } : state;
}

/** The pool's spec, labels and annotations without the labels the operator writes itself. */
function personContent(obj: unknown): unknown {
  const object = isRecord(obj) ? obj : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const labels = isRecord(metadata.labels) ? { ...metadata.labels } : {};

  for (const key of OPERATOR_LABELS) {
    delete labels[key];
  }

  return {
    spec: isRecord(object.spec) ? object.spec : {}, labels, annotations: isRecord(metadata.annotations) ? metadata.annotations : {}
  };
}

/**
 * True when two reads of a pool differ at most in what no person changed: status, bookkeeping
 * (resourceVersion, managedFields…) and the operator's own labels. A 409 between such reads can
 * be retried on the newer one.
 */
export function samePersonContent(a: KubeObject | unknown, b: KubeObject | unknown): boolean {
  return canonicalJson(personContent(a)) === canonicalJson(personContent(b));
}

/** The operator's label on a pool: the pin it last accepted ('' when none). */
export function operatorPin(obj: unknown): string {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return asText(isRecord(metadata.labels) ? metadata.labels[OPERATOR_LABELS[0]] : '');
}
