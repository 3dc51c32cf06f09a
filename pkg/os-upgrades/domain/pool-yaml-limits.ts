// What the API server would refuse or drop from a ManagedOSImage typed in the YAML view, checked
// before sending (rule "YAML deletions and the API server's limits" of domain/README.md): fields the CRD does not know (the server prunes
// them and answers 200, so "saved" would be untrue) and the size of the annotations.
import type { Reason } from './types';
import { labelKeyProblem } from './input-rules';
import { isRecord, utf8Length } from './text';

/**
 * The spec fields of the ManagedOSImage CRD (elemental-operator config/crd, as in
 * tests/fixtures/elemental/crds), with the fields of each object (or of each list item) one level
 * down; null where the CRD has no fixed fields (a scalar, or cloudConfig's free map).
 */
export const POOL_SPEC_FIELDS: Readonly<Record<string, readonly string[] | null>> = {
  cloudConfig:            null,
  clusterRolloutStrategy: ['autoPartitionSize', 'maxUnavailable', 'maxUnavailablePartitions', 'partitions'],
  clusterTargets:         [
    'clusterGroup', 'clusterGroupSelector', 'clusterName', 'clusterSelector', 'correctDrift', 'defaultNamespace', 'deleteCRDResources', 'deleteNamespace', 'diff',
    'doNotDeploy', 'downstreamResources', 'forceSyncGeneration', 'helm', 'ignore', 'keepResources', 'kustomize', 'name', 'namespace', 'namespaceAnnotations',
    'namespaceLabels', 'serviceAccount', 'yaml',
  ],
  concurrency:          null,
  cordon:               null,
  drain:                ['deleteEmptydirData', 'deleteLocalData', 'disableEviction', 'force', 'gracePeriod', 'ignoreDaemonSets', 'podSelector', 'skipWaitForDeleteTimeout', 'timeout'],
  managedOSVersionName: null,
  nodeSelector:         ['matchExpressions', 'matchLabels'],
  osImage:              null,
  prepare:              ['args', 'command', 'envFrom', 'envs', 'image', 'securityContext', 'volumes'],
  upgradeContainer:     ['args', 'command', 'envFrom', 'envs', 'image', 'securityContext', 'volumes'],
};

/**
 * Spec fields the CRD gives a default: the API server stores it when the field is missing, so
 * deleting one in the YAML would store the default, not remove the field.
 */
export const POOL_SPEC_DEFAULTS: Readonly<Record<string, unknown>> = {
  drain: {
    deleteLocalData: true, force: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60
  },
};

/** k8s.io/apimachinery pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB: keys and values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_MAX = 256 * 1024;

/** The path of the first spec field the CRD does not know (`spec.bogusField`, `spec.drain.forse`, `spec.clusterTargets.1.nam`). */
export function unknownSpecField(spec: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(spec)) {
    if (!(key in POOL_SPEC_FIELDS)) {
      return `spec.${ key }`;
    }
    const known = POOL_SPEC_FIELDS[key];

    if (!known) {
      continue;
    }
    const items = Array.isArray(value) ? value.map((item, i) => [`.${ i }`, item] as const) : [['', value] as const];

    for (const [index, item] of items) {
      const unknown = isRecord(item) ? Object.keys(item).find((field) => !known.includes(field)) : undefined;

      if (unknown !== undefined) {
        return `spec.${ key }${ index }.${ unknown }`;
      }
    }
  }

  return undefined;
}

/** What the API server refuses in `metadata.annotations` (ValidateAnnotations): a key that is not a qualified name, or over 256 KiB in all. */
export function annotationsProblem(annotations: Record<string, unknown>): { field: string; reason: Reason } | undefined {
  let size = 0;

  for (const [key, value] of Object.entries(annotations)) {
    const bad = labelKeyProblem(key.toLowerCase());

    if (bad) {
      return { field: `metadata.annotations.${ key }`, reason: bad };
    }
    size += utf8Length(key) + (typeof value === 'string' ? utf8Length(value) : 0);
  }

  return size > TOTAL_ANNOTATION_SIZE_MAX ? { field: 'metadata.annotations', reason: { key: 'osUpgrades.poolYaml.problem.annotationsTooLarge', values: { size, max: TOTAL_ANNOTATION_SIZE_MAX } } } : undefined;
}
