import {
  changedSpec, formErrors, formFromPool, newPoolForm, specForCreate, textToLabels
} from '../pool-form';
import { poolObject } from './pool-test-data';

describe('pool form', () => {
  it('starts a new pool with the CRD defaults in fleet-default', () => {
    const form = newPoolForm();

    expect(form.namespace).toBe('fleet-default');
    expect(specForCreate(form)).toEqual({
      clusterTargets: [],
      concurrency:    1,
      cordon:         true,
      drain:          {
        deleteLocalData: true, force: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60
      }
    });
  });

  it('changes nothing when the form is saved untouched', () => {
    const object = poolObject({ spec: { clusterTargets: [{ clusterName: 'a', name: 'keep-me' }, { clusterGroup: 'g' }], nodeSelector: { matchExpressions: [{ key: 'x', operator: 'Exists' }] } } });
    const form = formFromPool(object);

    expect(changedSpec(form, formFromPool(object), object)).toEqual({});
  });

  it('returns only the fields the person changed', () => {
    const object = poolObject();
    const form = formFromPool(object);

    form.concurrency = '3';
    form.nodeLabels = { role: 'worker' };

    expect(changedSpec(form, formFromPool(object), object)).toEqual({ concurrency: 3, nodeSelector: { matchLabels: { role: 'worker' } } });
  });

  it('keeps targets it cannot edit as written and turns drain off with null', () => {
    const kept = { clusterSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] } };
    const object = poolObject({ spec: { clusterTargets: [kept], drain: { force: false } } });
    const form = formFromPool(object);

    expect(form.targets[0].kind).toBe('kept');
    form.drainEnabled = false;
    form.targets.push({ kind: 'clusterSelector', value: 'env=prod, site=a' });

    expect(changedSpec(form, formFromPool(object), object)).toEqual({
      clusterTargets: [kept, { clusterSelector: { matchLabels: { env: 'prod', site: 'a' } } }],
      drain:          null,
    });
  });

  it('refuses a concurrency that is not a whole number of at least 1', () => {
    const form = newPoolForm();

    form.concurrency = '0';
    expect(formErrors(form)).toHaveLength(1);
    form.concurrency = '2';
    expect(formErrors(form)).toHaveLength(0);
  });

  it('parses cluster labels', () => {
    expect(textToLabels('a=1, b = 2')).toEqual({ a: '1', b: '2' });
    expect(textToLabels('a')).toBeUndefined();
  });
});
