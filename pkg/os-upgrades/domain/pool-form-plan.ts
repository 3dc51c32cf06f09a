import type { KubeObject, OSVersion } from './types';
import { readPool } from './pool';
import { planPoolWrite, PoolWritePlan } from './pool-write';
import { ImageSelector, serializeSelector } from './selector';
import {
  changedSpec, formProblems, markedProblems, PoolForm, specForCreate
} from './pool-form';
import { FIELD_PROBLEMS_KEY, YAML_PROBLEMS_KEY } from './form-problem-place';
import type { PoolYamlParts } from './pool-yaml';

export interface FormWriteInput {
  /** The pool as read when the form opened; undefined when creating. */
  original?: KubeObject;
  form: PoolForm;
  /** The form as it was when opened: only fields changed since are written. */
  initialForm: PoolForm;
  /** The selector as parsed; undefined when it is invalid (selector mode only). */
  selector?: ImageSelector;
  /**
   * The person did not touch the selector fields: an edit keeps the stored selector as written,
   * even one this form cannot read.
   */
  selectorUntouched?: boolean;
  versions: readonly OSVersion[];
  /** Unix seconds. */
  now: number;
  /** What the YAML view added that the form has no field for (labels, annotations, other spec fields). */
  yaml?: PoolYamlParts;
}

const INVALID_SELECTOR: PoolWritePlan = { ok: false, reason: { key: 'osUpgrades.pool.refusal.invalidSelector' } };

function planCreate(input: FormWriteInput): PoolWritePlan {
  const { form, yaml } = input;
  const common = {
    name:        form.name.trim(),
    namespace:   form.namespace.trim(),
    spec:        { ...specForCreate(form, yaml?.specBase), ...yaml?.extra.spec },
    labels:      yaml?.extra.labels,
    annotations: yaml?.extra.annotations,
  };

  if (form.imageMode === 'exact') {
    return planPoolWrite(undefined, {
      kind: 'create-exact', versionName: form.versionName, ...common
    }, input.versions, input.now);
  }
  if (!input.selector) {
    return INVALID_SELECTOR;
  }

  return planPoolWrite(undefined, {
    kind: 'create-selector', selector: input.selector, ...common
  }, input.versions, input.now);
}

/**
 * An edit: the changed spec fields, then the selector if it changed. Neither moves the pin;
 * the plan's `candidate` says what the new selector would pick, to approve afterwards.
 */
function planEdit(original: KubeObject, input: FormWriteInput): PoolWritePlan {
  const { yaml } = input;
  const edited = planPoolWrite(original, {
    kind:        'edit',
    spec:        { ...changedSpec(input.form, input.initialForm, original, yaml?.specBase ?? original), ...yaml?.extra.spec },
    labels:      yaml?.extra.labels,
    annotations: yaml?.extra.annotations,
  }, input.versions, input.now);

  if (!edited.ok) {
    return edited;
  }
  const stored = readPool(original).selectorText;

  if (input.form.imageMode === 'exact') {
    return stored === undefined ? edited : planPoolWrite(edited.object, { kind: 'change-selector', selector: null }, input.versions, input.now);
  }
  if (input.selectorUntouched && stored !== undefined) {
    return edited;
  }
  if (!input.selector) {
    return INVALID_SELECTOR;
  }

  return serializeSelector(input.selector) === stored ? edited : planPoolWrite(edited.object, { kind: 'change-selector', selector: input.selector }, input.versions, input.now);
}

/**
 * What saving the form would write, or why it cannot be saved. All pin rules are the domain's.
 * A field that cannot be written refuses the whole save (nothing typed is dropped silently): the
 * form's fields marked in red first, then the values typed in the YAML view.
 */
export function planFormWrite(input: FormWriteInput): PoolWritePlan {
  const marked = markedProblems(formProblems(input.form));
  const yamlProblems = input.yaml?.problems ?? [];

  if (marked.length) {
    return { ok: false, reason: { key: FIELD_PROBLEMS_KEY, values: { count: marked.length } } };
  }
  if (yamlProblems.length) {
    return { ok: false, reason: { key: YAML_PROBLEMS_KEY, values: { count: yamlProblems.length } } };
  }

  return input.original ? planEdit(input.original, input) : planCreate(input);
}
