import jsyaml from 'js-yaml';
import type { KubeObject, Reason } from './types';
import type { PoolMetadataFields, PoolSpecFields } from './pool-write';
import { PROTECTED_ANNOTATIONS } from './pool';
import { formFromPool, FieldProblem, PoolForm } from './pool-form';
import { labelProblem, truncateForDisplay } from './input-rules';
import { specOf } from './pool-object';
import { asRecord, isRecord } from './text';
import { guardedChange } from './guarded-fields';
import { annotationsProblem, POOL_SPEC_DEFAULTS, unknownSpecField } from './pool-yaml-limits';
import { SELECTOR_ANNOTATION } from './keys';

// The pool form's YAML view, edited: the text is read back into the form's fields plus the parts
// of the object the form does not show, so saving it goes through the form's own write rules
// (planFormWrite: the same input checks, overlaps and planPoolWrite). Rule "YAML edits" of domain/README.md.

/** Where the YAML does not parse: the parser's 1-based line and column and its message. */
export interface YamlSyntaxError {
  line: number;
  column: number;
  message: string;
}

/** What a YAML edit adds to the form's write: the parts of the object the form has no field for. */
export interface PoolYamlParts {
  /**
   * The object as typed: its node selector's other parts (expressions) and drain's other fields
   * (timeouts) are kept from it, as the form keeps them from the pool as read.
   */
  specBase: KubeObject;
  /** Labels, annotations and other spec fields changed against the pool as read (null / undefined removes). */
  extra: PoolMetadataFields & { spec: PoolSpecFields };
  /** Values of the wrong type or not valid for Kubernetes; saving is refused while there is one. */
  problems: FieldProblem[];
}

export type PoolYamlRead =
  | { kind: 'syntax'; error: YamlSyntaxError }
  /** A change only another way may make (the pin only through Approve), or not a pool at all. */
  | { kind: 'refused'; reason: Reason }
  | { kind: 'edit'; form: PoolForm; parts: PoolYamlParts };

export interface PoolYamlContext {
  /** The object the YAML view showed before the person typed (what saving the form would write then). */
  shown: KubeObject;
  /** The pool as read; undefined when creating. */
  original?: KubeObject;
  /** The form now: its image fields (exact or selector, the picked version) are kept. */
  form: PoolForm;
}

/** The spec fields the form edits; the pin fields only ever change through approve and roll back. */
const FORM_SPEC_FIELDS = ['clusterTargets', 'nodeSelector', 'concurrency', 'cordon', 'drain'];
const PIN_FIELDS = ['managedOSVersionName', 'osImage'];
/** Annotations of the pin and its approval (the selector has its own message: it changes in the form). */
const PIN_ANNOTATIONS = PROTECTED_ANNOTATIONS.filter((key) => key !== SELECTOR_ANNOTATION);
/** Metadata a person may change in the YAML; every other metadata field is the server's. */
const EDITABLE_METADATA = ['labels', 'annotations'];
const TOP_LEVEL = ['apiVersion', 'kind', 'metadata', 'spec'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function refuse(name: string, values?: Record<string, unknown>): PoolYamlRead {
  // A field is named as typed, which may be any length: the message shows its start.
  const shown = values && typeof values.field === 'string' ? { ...values, field: truncateForDisplay(values.field, 120) } : values;

  return { kind: 'refused', reason: shown ? { key: `osUpgrades.poolYaml.refusal.${ name }`, values: shown } : { key: `osUpgrades.poolYaml.refusal.${ name }` } };
}

function problem(field: string, name: string, values?: Record<string, unknown>): FieldProblem {
  return { field, reason: values ? { key: `osUpgrades.poolYaml.problem.${ name }`, values } : { key: `osUpgrades.poolYaml.problem.${ name }` } };
}

/** YAML text → a value, or the parser's line and message. */
export function parseYamlText(text: string): { value: unknown } | { error: YamlSyntaxError } {
  try {
    return { value: jsyaml.load(text, { schema: jsyaml.JSON_SCHEMA }) };
  } catch (e) {
    const mark = (e as { mark?: { line?: number; column?: number } }).mark;
    const reason = (e as { reason?: unknown }).reason;

    return {
      error: {
        line:    (mark?.line ?? 0) + 1,
        column:  (mark?.column ?? 0) + 1,
        message: typeof reason === 'string' ? reason : String((e as Error)?.message ?? e),
      }
    };
  }
}

/** The keys whose value differs from `before`: the new value, or `removed` for a key that is gone. */
function changes<T>(before: Record<string, unknown>, after: Record<string, unknown>, keys: (key: string) => boolean, removed: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};

  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!keys(key) || same(before[key], after[key])) {
      continue;
    }
    out[key] = key in after ? after[key] : removed;
  }

  return out;
}

function metadataProblems(metadata: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];

  for (const field of EDITABLE_METADATA) {
    const value = metadata[field];

    if (value === undefined || value === null) {
      continue;
    }
    if (!isRecord(value)) {
      problems.push(problem(`metadata.${ field }`, 'notAMap'));
      continue;
    }
    const tooMuch = field === 'annotations' ? annotationsProblem(value) : undefined;

    tooMuch && problems.push(tooMuch);
    for (const [key, text] of Object.entries(value)) {
      if (typeof text !== 'string') {
        problems.push(problem(`metadata.${ field }.${ key }`, 'notText'));
      } else if (field === 'labels') {
        const bad = labelProblem({ key, value: text });

        bad && problems.push({ field: `metadata.labels.${ key }`, reason: bad });
      }
    }
  }

  return problems;
}

function specProblems(spec: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const {
    clusterTargets, nodeSelector, cordon, drain
  } = spec;

  if (clusterTargets !== undefined && clusterTargets !== null && !Array.isArray(clusterTargets)) {
    problems.push(problem('spec.clusterTargets', 'notAList'));
  } else if (Array.isArray(clusterTargets)) {
    clusterTargets.forEach((target, i) => !isRecord(target) && problems.push(problem(`spec.clusterTargets.${ i }`, 'notAMap')));
  }
  if (nodeSelector !== undefined && nodeSelector !== null) {
    if (!isRecord(nodeSelector)) {
      problems.push(problem('spec.nodeSelector', 'notAMap'));
    } else if (nodeSelector.matchLabels !== undefined && !isRecord(nodeSelector.matchLabels)) {
      problems.push(problem('spec.nodeSelector.matchLabels', 'notAMap'));
    }
  }
  if (cordon !== undefined && typeof cordon !== 'boolean') {
    problems.push(problem('spec.cordon', 'notBoolean'));
  }
  if (drain !== undefined && drain !== null) {
    if (!isRecord(drain)) {
      problems.push(problem('spec.drain', 'notAMap'));
    } else {
      ['force', 'ignoreDaemonSets', 'deleteLocalData'].forEach((key) => drain[key] !== undefined && typeof drain[key] !== 'boolean' && problems.push(problem(`spec.drain.${ key }`, 'notBoolean')));
    }
  }

  return problems;
}

/**
 * The form fields a YAML object stands for. Unlike `formFromPool`, a value of the wrong type is
 * never replaced by a default: a concurrency is kept as typed, so the form's check refuses it.
 */
function formFromObject(object: KubeObject, context: PoolYamlContext): PoolForm {
  const read = formFromPool(object);
  const spec = specOf(object);
  const { form, original } = context;
  const concurrency = spec.concurrency;

  return {
    ...read,
    // An edit cannot rename or move a pool; a new pool takes them from the YAML.
    name:        original ? form.name : read.name,
    namespace:   original ? form.namespace : read.namespace,
    concurrency: concurrency === undefined || concurrency === null ? form.concurrency : (typeof concurrency === 'object' ? JSON.stringify(concurrency) : String(concurrency)),
    imageMode:   form.imageMode,
    channel:     form.channel,
    versionName: form.versionName,
  };
}

/**
 * Reads the YAML the person typed in the pool form's YAML view (rule "YAML edits"). Refused: a change of
 * the pin (`spec.managedOSVersionName`, `spec.osImage`) or of the approval annotations (only
 * Approve and Roll back move them), of another field deciding what runs on the nodes
 * (`guardedChange`: upgradeContainer, prepare, cloudConfig), of the selector annotation (the form's image fields change it),
 * of the kind, of a pool's name or namespace, or of the server's metadata. Otherwise the form's
 * fields and the parts the form does not show, with the problems of values that cannot be written.
 */
export function readPoolYaml(text: string, context: PoolYamlContext): PoolYamlRead {
  const parsed = parseYamlText(text);

  if ('error' in parsed) {
    return { kind: 'syntax', error: parsed.error };
  }
  const object = parsed.value;

  if (!isRecord(object)) {
    return refuse('notAnObject');
  }
  const { shown, original } = context;
  const unknown = Object.keys(object).find((key) => !TOP_LEVEL.includes(key));

  if (unknown) {
    return refuse('unknownField', { field: unknown });
  }
  if (object.apiVersion !== shown.apiVersion || object.kind !== shown.kind) {
    return refuse('kindChanged', { kind: String(shown.kind ?? '') });
  }
  if (object.spec !== undefined && !isRecord(object.spec)) {
    return refuse('specNotAMap');
  }
  const metadata = asRecord(object.metadata);
  const shownMetadata = asRecord(shown.metadata);
  const spec = asRecord(object.spec);
  const shownSpec = specOf(shown);
  const annotations = asRecord(metadata.annotations);
  const shownAnnotations = asRecord(shownMetadata.annotations);

  if (PIN_FIELDS.some((key) => !same(spec[key], shownSpec[key])) || PIN_ANNOTATIONS.some((key) => !same(annotations[key], shownAnnotations[key]))) {
    return refuse('pinChanged');
  }
  const guarded = guardedChange(shown, object);

  if (guarded) {
    return refuse('guardedField', { field: guarded });
  }
  if (!same(annotations[SELECTOR_ANNOTATION], shownAnnotations[SELECTOR_ANNOTATION])) {
    return refuse('selectorChanged');
  }
  const serverField = Object.keys({ ...metadata, ...shownMetadata }).find((key) => {
    const identity = key === 'name' || key === 'namespace';

    return !EDITABLE_METADATA.includes(key) && !(identity && !original) && !same(metadata[key], shownMetadata[key]);
  });

  if (serverField) {
    return refuse(serverField === 'name' || serverField === 'namespace' ? 'renamed' : 'serverField', { field: `metadata.${ serverField }` });
  }
  const defaulted = FORM_SPEC_FIELDS.find((key) => key in POOL_SPEC_DEFAULTS && shownSpec[key] !== undefined && !(key in spec));

  // The server would store the CRD's default: the deletion would not be what is stored.
  if (defaulted) {
    return refuse('deletedDefaulted', { field: `spec.${ defaulted }`, value: JSON.stringify(POOL_SPEC_DEFAULTS[defaulted]) });
  }
  const unknownSpec = unknownSpecField(spec);

  // The server would prune it and answer 200: saving would say "saved" for a field it never kept.
  if (unknownSpec) {
    return refuse('unknownSpecField', { field: unknownSpec });
  }

  const problems = [...metadataProblems(metadata), ...specProblems(spec)];
  const before = asRecord(original?.metadata);
  const labels = changes(asRecord(before.labels), asRecord(metadata.labels), () => true, null) as Record<string, string | null>;
  const changedAnnotations = changes(asRecord(before.annotations), annotations, (key) => !PROTECTED_ANNOTATIONS.includes(key), null) as Record<string, string | null>;
  const otherSpec = changes(specOf(original), spec, (key) => !FORM_SPEC_FIELDS.includes(key) && !PIN_FIELDS.includes(key), undefined);

  // A form field deleted in the YAML is deleted from the write, not filled in again from the form.
  for (const key of FORM_SPEC_FIELDS) {
    if (shownSpec[key] !== undefined && !(key in spec)) {
      otherSpec[key] = undefined;
    }
  }

  return {
    kind:  'edit',
    form:  formFromObject(object, context),
    parts: {
      specBase: object,
      // Only what changed: an empty change would write `labels: {}` on a pool that has none.
      extra:    {
        ...Object.keys(labels).length ? { labels } : {},
        ...Object.keys(changedAnnotations).length ? { annotations: changedAnnotations } : {},
        spec: otherSpec,
      },
      problems,
    },
  };
}

/** The object the YAML view shows for a plan's object: without `status`, which the server keeps. */
export function yamlShownObject(object: KubeObject): KubeObject {
  const { status, ...rest } = object; // eslint-disable-line @typescript-eslint/no-unused-vars

  return rest;
}

/** Where a form field's problem sits in the YAML (`target.2` → `spec.clusterTargets.2`); YAML problems name their path already. */
export function yamlFieldPath(field: string): string {
  const [head, index] = field.split('.');

  switch (head) {
  case 'name':
  case 'namespace':
    return `metadata.${ head }`;
  case 'target':
    return `spec.clusterTargets.${ index }`;
  case 'nodeLabel':
    return `spec.nodeSelector.matchLabels (${ Number(index) + 1 })`;
  case 'concurrency':
    return 'spec.concurrency';
  default:
    return field;
  }
}
