import fc from 'fast-check';
import {
  fieldProblem, formProblems, integerProblem, labelKeyProblem, labelValueProblem, MAX_EXACT_INTEGER, namespaceProblem,
  newPoolForm, parseLabelText, planFormWrite, resourceNameProblem, specFromForm, truncateForDisplay
} from '..';
import { formFromPool } from '../pool-form';
import { NOW, poolObject, VERSIONS } from './pool-test-data';

describe('input rules (Kubernetes names, labels, numbers)', () => {
  it('accepts label keys by IsQualifiedName and refuses the rest', () => {
    for (const key of ['env', 'app.kubernetes.io/name', 'a', 'A_b.c-9', 'elemental.cattle.io/channel']) {
      expect(labelKeyProblem(key)).toBeUndefined();
    }
    expect(labelKeyProblem('')?.key).toBe('osUpgrades.input.labelKeyRequired');
    expect(labelKeyProblem('site lyon')?.key).toBe('osUpgrades.input.labelKeyInvalid');
    expect(labelKeyProblem('-a')?.key).toBe('osUpgrades.input.labelKeyInvalid');
    expect(labelKeyProblem('a/b/c')?.key).toBe('osUpgrades.input.labelKeyInvalid');
    expect(labelKeyProblem('Upper.Case/x')?.key).toBe('osUpgrades.input.labelKeyPrefixInvalid');
    expect(labelKeyProblem('/x')?.key).toBe('osUpgrades.input.labelKeyPrefixInvalid');
    expect(labelKeyProblem('x'.repeat(64))?.key).toBe('osUpgrades.input.labelKeyTooLong');
    expect(labelKeyProblem('x'.repeat(63))).toBeUndefined();
  });

  it('accepts label values by IsValidLabelValue: empty or at most 63 characters', () => {
    expect(labelValueProblem('')).toBeUndefined();
    expect(labelValueProblem('v2.2.0_rc-1')).toBeUndefined();
    expect(labelValueProblem('x'.repeat(63))).toBeUndefined();
    expect(labelValueProblem('x'.repeat(100))?.key).toBe('osUpgrades.input.labelValueTooLong');
    expect(labelValueProblem('a b')?.key).toBe('osUpgrades.input.labelValueInvalid');
    expect(labelValueProblem('a.')?.key).toBe('osUpgrades.input.labelValueInvalid');
  });

  it('never echoes a huge value whole in a problem', () => {
    const huge = `${ 'x'.repeat(1_000_000) } y`;
    const reason = labelValueProblem(huge);

    expect(reason?.key).toBe('osUpgrades.input.labelValueTooLong');
    expect(JSON.stringify(reason).length).toBeLessThan(200);
    expect(JSON.stringify(labelKeyProblem(`${ huge }`)).length).toBeLessThan(300);
  });

  it('checks resource names as DNS-1123 subdomains and namespaces as DNS-1123 labels', () => {
    expect(resourceNameProblem('edge-pool.v2')).toBeUndefined();
    expect(resourceNameProblem('')?.key).toBe('osUpgrades.input.nameRequired');
    expect(resourceNameProblem('Edge')?.key).toBe('osUpgrades.input.nameInvalid');
    expect(resourceNameProblem('edge pool')?.key).toBe('osUpgrades.input.nameInvalid');
    expect(resourceNameProblem('a'.repeat(254))?.key).toBe('osUpgrades.input.nameTooLong');
    expect(resourceNameProblem('a'.repeat(1_000_000))?.key).toBe('osUpgrades.input.nameTooLong');
    expect(namespaceProblem('fleet-default')).toBeUndefined();
    expect(namespaceProblem('fleet.default')?.key).toBe('osUpgrades.input.namespaceInvalid');
    expect(namespaceProblem('')?.key).toBe('osUpgrades.input.namespaceRequired');
  });

  it('bounds integers by what the browser can send exactly', () => {
    expect(integerProblem('3', { min: 1 })).toBeUndefined();
    expect(integerProblem(' 3 ', { min: 1 })).toBeUndefined();
    expect(integerProblem(String(MAX_EXACT_INTEGER), { min: 1 })).toBeUndefined();
    expect(integerProblem('99999999999999999999', { min: 1 })?.key).toBe('osUpgrades.input.integerOutOfRange');
    expect(integerProblem('0', { min: 1 })?.key).toBe('osUpgrades.input.integerOutOfRange');
    expect(integerProblem('1.5', { min: 1 })?.key).toBe('osUpgrades.input.integerInvalid');
    expect(integerProblem('1e3', { min: 1 })?.key).toBe('osUpgrades.input.integerInvalid');
    expect(integerProblem('', { min: 1 })?.key).toBe('osUpgrades.input.integerInvalid');
  });

  it('accepts every integer inside the bounds and refuses every one outside', () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), (n) => {
      expect(integerProblem(String(n), { min: 1, max: 500 }) === undefined).toBe(n >= 1 && n <= 500);
    }));
  });

  it('parses cluster labels and reports every part it cannot read', () => {
    expect(parseLabelText('env=prod, site = lyon')).toEqual({ labels: { env: 'prod', site: 'lyon' }, problems: [] });
    expect(parseLabelText('site lyon').problems[0].key).toBe('osUpgrades.input.labelPartInvalid');
    expect(parseLabelText('env=prod, site lyon').problems).toHaveLength(1);
    expect(parseLabelText('a=1, a=2').problems[0].key).toBe('osUpgrades.input.labelKeyRepeated');
    expect(parseLabelText(' , ').problems[0].key).toBe('osUpgrades.input.labelsRequired');
    expect(parseLabelText('env=a b').problems[0].key).toBe('osUpgrades.input.labelValueInvalid');
  });

  it('truncates long messages for display', () => {
    expect(truncateForDisplay('short')).toBe('short');
    expect(truncateForDisplay('x'.repeat(1000), 10)).toBe(`${ 'x'.repeat(9) }…`);
    fc.assert(fc.property(fc.string(), fc.integer({ min: 1, max: 50 }), (text, max) => {
      expect(Array.from(truncateForDisplay(text, max)).length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : 0));
    }));
  });
});

describe('the pool form never drops what was typed', () => {
  it('marks an unreadable cluster-label target beside its row and refuses to save', () => {
    const object = poolObject({ spec: { clusterTargets: [{ clusterName: 'a' }, { clusterSelector: { matchLabels: { site: 'paris' } } }] } });
    const form = formFromPool(object);

    form.targets[1] = { kind: 'clusterSelector', value: 'site lyon' };
    const problems = formProblems(form);

    expect(fieldProblem(problems, 'target.1')?.key).toBe('osUpgrades.input.labelPartInvalid');
    const plan = planFormWrite({
      original: object, form, initialForm: formFromPool(object), versions: VERSIONS, now: NOW
    });

    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason.key).toBe('osUpgrades.poolForm.fieldProblems');
  });

  it('refuses an empty target row instead of leaving it out', () => {
    const form = {
      ...newPoolForm(), name: 'edge', targets: [{ kind: 'clusterName' as const, value: '' }]
    };

    expect(fieldProblem(formProblems(form), 'target.0')?.key).toBe('osUpgrades.input.targetRequired');
  });

  it('refuses an empty or repeated node-selector key instead of dropping it', () => {
    const form = {
      ...newPoolForm(), name: 'edge', nodeLabels: [{ key: 'role', value: 'worker' }, { key: '', value: 'x' }, { key: 'role', value: 'db' }]
    };
    const problems = formProblems(form);

    expect(fieldProblem(problems, 'nodeLabel.0')).toBeUndefined();
    expect(fieldProblem(problems, 'nodeLabel.1')?.key).toBe('osUpgrades.input.labelKeyRequired');
    expect(fieldProblem(problems, 'nodeLabel.2')?.key).toBe('osUpgrades.input.labelKeyRepeated');
  });

  it('checks the name and the concurrency', () => {
    const form = {
      ...newPoolForm(), name: 'Edge Pool', concurrency: '99999999999999999999'
    };
    const problems = formProblems(form);

    expect(fieldProblem(problems, 'name')?.key).toBe('osUpgrades.input.nameInvalid');
    expect(fieldProblem(problems, 'concurrency')?.key).toBe('osUpgrades.input.integerOutOfRange');
  });

  it('writes every valid row it shows (property)', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);

    fc.assert(fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 6 }), (keys) => {
      const form = {
        ...newPoolForm(), name: 'edge', nodeLabels: keys.map((k) => ({ key: k, value: 'v' }))
      };

      expect(formProblems(form)).toEqual([]);
      expect(Object.keys((specFromForm(form).nodeSelector as { matchLabels: object }).matchLabels)).toEqual(keys);
    }));
  });
});
