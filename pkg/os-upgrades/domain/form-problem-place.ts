import type { Reason } from './types';
import { fieldTab, POOL_FORM_TABS, PoolFormTab } from './pool-form';

/**
 * Where the pool form shows a problem: one of its tabs, or the YAML view (values typed there that
 * the form cannot write are listed beside the editor, not on a tab).
 */
export type ProblemPlace = PoolFormTab | 'yaml';

export const PROBLEM_PLACES: readonly ProblemPlace[] = [...POOL_FORM_TABS, 'yaml'];

/** The refusal of a form field that cannot be written, and of a value typed in the YAML that cannot be. */
export const FIELD_PROBLEMS_KEY = 'osUpgrades.poolForm.fieldProblems';
export const YAML_PROBLEMS_KEY = 'osUpgrades.poolForm.yamlProblems';

const REFUSAL = 'osUpgrades.pool.refusal';

/** The tab holding what each of the write rules' refusals is about. */
export const REFUSAL_TABS: Readonly<Record<string, PoolFormTab>> = {
  [`${ REFUSAL }.alreadyExists`]:      'identity',
  [`${ REFUSAL }.missingName`]:        'identity',
  [`${ REFUSAL }.missingNamespace`]:   'identity',
  [`${ REFUSAL }.fleetLocalTargets`]:  'targets',
  [`${ REFUSAL }.invalidSelector`]:    'image',
  [`${ REFUSAL }.noMatch`]:            'image',
  [`${ REFUSAL }.versionNotFound`]:    'image',
  [`${ REFUSAL }.notContainer`]:       'image',
  [`${ REFUSAL }.terminating`]:        'image',
  [`${ REFUSAL }.withdrawn`]:          'image',
  [`${ REFUSAL }.selectorUnreadable`]: 'image',
  [`${ REFUSAL }.selectorRejects`]:    'image',
  [`${ REFUSAL }.selectionChanged`]:   'image',
};

export interface FormProblemState {
  /** The form's fields that show a problem (`name`, `target.0`, `concurrency`; `selector`, `target.overlap`). */
  formFields: readonly string[];
  /** Whether the YAML view lists values it cannot write. */
  yamlProblems: boolean;
  /** Why saving is refused, if it is. */
  refusal?: Reason;
  /** A read-only form shows no problem: the person cannot change anything. */
  readOnly: boolean;
}

function inOrder(places: Iterable<ProblemPlace | undefined>): ProblemPlace[] {
  const found = new Set(places);

  return PROBLEM_PLACES.filter((place) => found.has(place));
}

/** Where the problem the refusal names is shown (the place its "Show it" opens); undefined when the form has no place for it. */
export function refusalPlace(state: FormProblemState): ProblemPlace | undefined {
  const key = state.refusal?.key;

  if (state.readOnly || !key) {
    return undefined;
  }
  if (key === FIELD_PROBLEMS_KEY) {
    return inOrder(state.formFields.map(fieldTab))[0];
  }
  if (key === YAML_PROBLEMS_KEY) {
    return 'yaml';
  }

  return REFUSAL_TABS[key];
}

/** Every place marked as holding a problem, in the form's order: the fields' tabs, the refusal's place, the YAML view. */
export function problemPlaces(state: FormProblemState): ProblemPlace[] {
  if (state.readOnly) {
    return [];
  }

  return inOrder([...state.formFields.map(fieldTab), refusalPlace(state), state.yamlProblems ? 'yaml' : undefined]);
}
