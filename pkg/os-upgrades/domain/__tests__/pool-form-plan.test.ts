import { SELECTOR_ANNOTATION } from '..';
import { formFromPool, newPoolForm } from '../pool-form';
import { planFormWrite } from '../pool-form-plan';
import {
  MID, NEW, NOW, OLD, poolObject, VERSIONS
} from './pool-test-data';

function written(plan: ReturnType<typeof planFormWrite>): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!plan.ok) {
    throw new Error(`refused: ${ plan.reason.key }`);
  }

  return plan.object;
}

describe('planning a pool form write', () => {
  it('creates by selector: pins what the selector picks now and stores the selector as typed', () => {
    const form = { ...newPoolForm(), name: 'edge' };
    const plan = planFormWrite({
      form, initialForm: newPoolForm(), selector: { channel: 'stable', minAgeHours: 24 }, versions: VERSIONS, now: NOW
    });
    const object = written(plan);

    expect(object.spec.managedOSVersionName).toBe(MID.name);
    expect(plan.ok && plan.resolution?.chosen?.name).toBe(MID.name);
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe('{"channel":"stable","minAgeHours":24}');
    expect(object.metadata.namespace).toBe('fleet-default');
    expect(object.spec.concurrency).toBe(1);
  });

  it('refuses a selector that matches nothing', () => {
    const plan = planFormWrite({
      form: { ...newPoolForm(), name: 'edge' }, initialForm: newPoolForm(), selector: { channel: 'nope' }, versions: VERSIONS, now: NOW
    });

    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason.key).toBe('osUpgrades.pool.refusal.noMatch');
  });

  it('creates by exact version', () => {
    const form = {
      ...newPoolForm(), name: 'edge', imageMode: 'exact' as const, versionName: OLD.name
    };

    expect(written(planFormWrite({
      form, initialForm: newPoolForm(), versions: VERSIONS, now: NOW
    })).spec.managedOSVersionName).toBe(OLD.name);
  });

  it('editing concurrency keeps the pin and everything else byte for byte', () => {
    const original = poolObject({
      pin: OLD.name, selector: '{"channel":"stable"}', spec: { extra: { keep: true } }
    });
    const initialForm = formFromPool(original);
    const object = written(planFormWrite({
      original, form: { ...initialForm, concurrency: '4' }, initialForm, selector: { channel: 'stable' }, versions: VERSIONS, now: NOW
    }));

    expect(object).toEqual({ ...original, spec: { ...(original.spec as object), concurrency: 4 } });
  });

  it('changing the selector stores it and names the new candidate, but keeps the pin', () => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel":"stable","minAgeHours":24}' });
    const initialForm = formFromPool(original);
    const plan = planFormWrite({
      original, form: initialForm, initialForm, selector: { channel: 'stable' }, versions: VERSIONS, now: NOW
    });
    const object = written(plan);

    expect(object.spec.managedOSVersionName).toBe(OLD.name);
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe('{"channel":"stable"}');
    expect(plan.ok && plan.candidate?.name).toBe(NEW.name);
  });

  it('switching to exact version stops following the selector and keeps the pin', () => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel":"stable"}' });
    const initialForm = formFromPool(original);
    const object = written(planFormWrite({
      original,
      form: {
        ...initialForm, imageMode: 'exact', versionName: NEW.name
      },
      initialForm,
      versions: VERSIONS,
      now:      NOW
    }));

    expect(object.spec.managedOSVersionName).toBe(OLD.name);
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBeUndefined();
  });

  it('keeps a stored selector it cannot read, byte for byte, when its fields were not touched', () => {
    const original = poolObject({ pin: OLD.name, selector: 'not json' });
    const initialForm = formFromPool(original);
    const object = written(planFormWrite({
      original, form: { ...initialForm, concurrency: '2' }, initialForm, selector: {}, selectorUntouched: true, versions: VERSIONS, now: NOW
    }));

    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe('not json');
    expect(object.spec.concurrency).toBe(2);
  });

  it('refuses to save an invalid selector', () => {
    const original = poolObject({ selector: '{"channel":"stable"}' });
    const initialForm = formFromPool(original);

    expect(planFormWrite({
      original, form: initialForm, initialForm, selector: undefined, versions: VERSIONS, now: NOW
    }).ok).toBe(false);
  });
});
