import fc from 'fast-check';
import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import {
  FIELD_PROBLEMS_KEY, FormProblemState, PROBLEM_PLACES, problemPlaces, REFUSAL_TABS, refusalPlace, YAML_PROBLEMS_KEY
} from '../form-problem-place';
import { newPoolForm } from '../pool-form';
import { planFormWrite } from '../pool-form-plan';
import { NOW, VERSIONS } from './pool-test-data';

const refused = (name: string) => ({ key: `osUpgrades.pool.refusal.${ name }` });
const state = (over: Partial<FormProblemState>): FormProblemState => ({
  formFields: [], yamlProblems: false, readOnly: false, ...over
});

describe('where the pool form shows a problem', () => {
  it('names the Image tab for an invalid selector even when a target field also has a problem', () => {
    const s = state({ formFields: ['target.0', 'target.overlap'], refusal: refused('invalidSelector') });

    expect(refusalPlace(s)).toBe('image');
    expect(problemPlaces(s)).toEqual(['targets', 'image']);
  });

  it('opens the first tab holding a field marked in red for the field-problems refusal', () => {
    const s = state({ formFields: ['concurrency', 'nodeLabel.1'], refusal: { key: FIELD_PROBLEMS_KEY, values: { count: 2 } } });

    expect(refusalPlace(s)).toBe('targets');
    expect(problemPlaces(s)).toEqual(['targets', 'rollout']);
  });

  it('sends values typed in the YAML that cannot be written to the YAML view, not to a tab', () => {
    const s = state({ yamlProblems: true, refusal: { key: YAML_PROBLEMS_KEY, values: { count: 1 } } });

    expect(refusalPlace(s)).toBe('yaml');
    expect(problemPlaces(s)).toEqual(['yaml']);
  });

  it('names the Identity tab for a missing name, the Targets tab for fleet-local targets', () => {
    expect(refusalPlace(state({ refusal: refused('missingName') }))).toBe('identity');
    expect(refusalPlace(state({ refusal: refused('fleetLocalTargets') }))).toBe('targets');
  });

  it('offers no place for a refusal the form has no field for', () => {
    const s = state({ refusal: refused('approverRequired') });

    expect(refusalPlace(s)).toBeUndefined();
    expect(problemPlaces(s)).toEqual([]);
  });

  it('marks nothing on a read-only form', () => {
    const s = state({
      formFields: ['selector', 'name'], yamlProblems: true, refusal: refused('invalidSelector'), readOnly: true
    });

    expect(problemPlaces(s)).toEqual([]);
    expect(refusalPlace(s)).toBeUndefined();
  });

  it('every mapped refusal is a message the form can show', () => {
    const en = jsyaml.safeLoad(readFileSync(join(__dirname, '../../l10n/en-us.yaml'), 'utf8')) as any; // eslint-disable-line @typescript-eslint/no-explicit-any

    Object.keys(REFUSAL_TABS).forEach((key) => {
      expect(key.split('.').reduce((node, part) => node?.[part], en)).toEqual(expect.any(String));
    });
  });

  it('the place a banner names is always marked (property)', () => {
    const field = fc.constantFrom('name', 'namespace', 'target.0', 'nodeLabel.2', 'concurrency', 'selector', 'target.overlap');
    const key = fc.constantFrom(FIELD_PROBLEMS_KEY, YAML_PROBLEMS_KEY, ...Object.keys(REFUSAL_TABS), 'osUpgrades.pool.refusal.approverRequired');

    fc.assert(fc.property(fc.array(field), fc.boolean(), fc.option(key, { nil: undefined }), fc.boolean(), (formFields, yamlProblems, refusalKey, readOnly) => {
      const s = state({
        formFields, yamlProblems, refusal: refusalKey ? { key: refusalKey } : undefined, readOnly
      });
      const place = refusalPlace(s);
      const places = problemPlaces(s);

      expect(places.every((p) => PROBLEM_PLACES.includes(p))).toBe(true);
      if (place) {
        expect(places).toContain(place);
      }
    }));
  });
});

describe('the refusal of a form that cannot be saved', () => {
  const plan = (form: ReturnType<typeof newPoolForm>, yamlProblems = 0) => planFormWrite({
    form,
    initialForm: newPoolForm(),
    selector:    { channel: 'stable' },
    versions:    VERSIONS,
    now:         NOW,
    yaml:        yamlProblems ? {
      specBase: {}, extra: { spec: {} }, problems: [{ field: 'metadata.labels.team', reason: { key: 'osUpgrades.input.labelValueTooLong' } }]
    } : undefined,
  });

  it('asks for the name of a new pool instead of counting an unmarked field', () => {
    const result = plan(newPoolForm());

    expect(!result.ok && result.reason.key).toBe('osUpgrades.pool.refusal.missingName');
  });

  it('counts only the fields marked in red', () => {
    const result = plan({ ...newPoolForm(), concurrency: '0' });

    expect(!result.ok && result.reason).toEqual({ key: FIELD_PROBLEMS_KEY, values: { count: 1 } });
  });

  it('names the YAML view when only a value typed there cannot be written', () => {
    const result = plan({ ...newPoolForm(), name: 'edge' }, 1);

    expect(!result.ok && result.reason).toEqual({ key: YAML_PROBLEMS_KEY, values: { count: 1 } });
  });
});
