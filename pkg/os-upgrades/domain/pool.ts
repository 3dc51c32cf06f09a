import type { KubeObject, OSVersion } from './types';
import { asOSVersions, VersionInput } from './channel';
import { ImageSelector, parseSelector, SelectorError } from './selector';
import { asText, isRecord } from './text';
import {
  APPROVAL_COMMENT_ANNOTATION, APPROVED_AT_ANNOTATION, APPROVED_BY_ANNOTATION, APPROVED_IMAGE_ANNOTATION, FORCED_ANNOTATION, FORCED_CONTAINER_ANNOTATION, HISTORY_ANNOTATION, OPERATOR_VERSION_LABEL, PREVIOUS_VERSION_ANNOTATION, SELECTOR_ANNOTATION
} from './keys';

export const APPROVAL_COMMENT_MAX = 1000;
export const OPERATOR_LABELS: readonly string[] = [OPERATOR_VERSION_LABEL];

/** The namespace a new pool starts in: Elemental's default for downstream clusters. */
export const DEFAULT_NAMESPACE = 'fleet-default';
/** Fleet's namespace of the local cluster: its pools may not name cluster targets. */
export const FLEET_LOCAL_NAMESPACE = 'fleet-local';

/** Annotations only this extension's write rules may set; other edits never touch them. */
export const PROTECTED_ANNOTATIONS: readonly string[] = [
  SELECTOR_ANNOTATION, PREVIOUS_VERSION_ANNOTATION, APPROVED_BY_ANNOTATION, APPROVED_AT_ANNOTATION, FORCED_ANNOTATION,
  FORCED_CONTAINER_ANNOTATION, HISTORY_ANNOTATION, APPROVAL_COMMENT_ANNOTATION, APPROVED_IMAGE_ANNOTATION,
];

/** What the UI needs to know about one ManagedOSImage (a workload pool's upgrade). */
export interface PoolView {
  name: string;
  namespace: string;
  resourceVersion?: string;
  /** spec.managedOSVersionName, the pinned image ID. */
  pin?: string;
  /** spec.osImage, a raw image that wins over the pin. */
  osImage?: string;
  /** The stored selector, when its annotation holds a valid one. */
  selector?: ImageSelector;
  /** The annotation's raw text, when there is one (valid or not). */
  selectorText?: string;
  /** Why the stored selector cannot be used ([] when it can, or when there is none). */
  selectorErrors: SelectorError[];
  previousVersion?: string;
  approvedBy?: string;
  approvedAt?: string;
}

function optionalText(value: unknown): string | undefined {
  const text = asText(value);

  return text === '' ? undefined : text;
}

/** Reads a ManagedOSImage for the UI. Never throws. */
export function readPool(obj: unknown): PoolView {
  const pool = isRecord(obj) ? obj : {};
  const metadata = isRecord(pool.metadata) ? pool.metadata : {};
  const spec = isRecord(pool.spec) ? pool.spec : {};
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
  const selectorText = typeof annotations[SELECTOR_ANNOTATION] === 'string' ? annotations[SELECTOR_ANNOTATION] as string : undefined;
  const parsed = selectorText === undefined ? { errors: [] } : parseSelector(selectorText);
  const view: PoolView = {
    name:           asText(metadata.name),
    namespace:      asText(metadata.namespace),
    selectorErrors: parsed.errors,
  };
  const optional: [keyof PoolView, unknown][] = [
    ['resourceVersion', metadata.resourceVersion],
    ['pin', spec.managedOSVersionName],
    ['osImage', spec.osImage],
    ['previousVersion', annotations[PREVIOUS_VERSION_ANNOTATION]],
    ['approvedBy', annotations[APPROVED_BY_ANNOTATION]],
    ['approvedAt', annotations[APPROVED_AT_ANNOTATION]],
  ];

  for (const [field, value] of optional) {
    const text = optionalText(value);

    if (text !== undefined) {
      (view as unknown as Record<string, unknown>)[field] = text;
    }
  }
  if (selectorText !== undefined) {
    view.selectorText = selectorText;
  }
  if (parsed.selector) {
    view.selector = parsed.selector;
  }

  return view;
}

/** Versions a pool in `namespace` can name (a version without namespace counts as in any). */
export function versionsForPool(versions: readonly VersionInput[], namespace: string): OSVersion[] {
  return asOSVersions(versions).filter((version) => version.namespace === namespace || version.namespace === '');
}

/** A pool of the local cluster's namespace that names cluster targets: Fleet would not apply it. */
export function fleetLocalWithTargets(namespace: string, spec: Record<string, unknown>): boolean {
  return namespace === FLEET_LOCAL_NAMESPACE && Array.isArray(spec.clusterTargets) && spec.clusterTargets.length > 0;
}

/** A writable view of an object's metadata and spec, on a copy. */
export function parts(object: KubeObject): { metadata: Record<string, unknown>; spec: Record<string, unknown>; annotations: () => Record<string, unknown> } {
  if (!isRecord(object.metadata)) {
    object.metadata = {};
  }
  if (!isRecord(object.spec)) {
    object.spec = {};
  }
  const metadata = object.metadata as Record<string, unknown>;

  return {
    metadata,
    spec:        object.spec as Record<string, unknown>,
    annotations: () => {
      if (!isRecord(metadata.annotations)) {
        metadata.annotations = {};
      }

      return metadata.annotations as Record<string, unknown>;
    },
  };
}

/**
 * One text that changes whenever a pool of the list is added, removed or written (namespace, name
 * and resourceVersion of each): the shell's live lists change in place, so a page watches this.
 */
export function poolsRevisionKey(pools: readonly unknown[]): string {
  return pools.map((pool) => {
    const metadata = isRecord(pool) && isRecord(pool.metadata) ? pool.metadata : {};

    return `${ asText(metadata.namespace) }/${ asText(metadata.name) }@${ asText(metadata.resourceVersion) }`;
  }).join(',');
}
