import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import {
  APPROVED_AT_ANNOTATION, APPROVED_BY_ANNOTATION, APPROVED_IMAGE_ANNOTATION, checkPoolUpgrade, HISTORY_ANNOTATION, KubeObject, planPoolWrite, PoolIntent, PoolWritePlan,
  PREVIOUS_VERSION_ANNOTATION, readPool, SELECTOR_ANNOTATION
} from '../index';

const VERSIONS = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base'), ...channelVersions('unstable')];
const NOW = 1760000000;
const NOW_ISO = '2025-10-09T08:53:20.000Z';
const SELECTOR_TEXT = '{"channel":"sl-micro-6.1-base"}';

function pool(overrides: { pin?: string; annotations?: Record<string, string>; namespace?: string } = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name:            'pool-a',
      namespace:       overrides.namespace ?? 'fleet-default',
      resourceVersion: '4711',
      labels:          { team: 'edge' },
      annotations:     overrides.annotations ?? { [SELECTOR_ANNOTATION]: SELECTOR_TEXT, note: 'keep me' },
    },
    spec: {
      managedOSVersionName: overrides.pin ?? 'base-v2.2.0-3.9-os',
      clusterTargets:       [{ clusterName: 'edge-1' }],
      concurrency:          1,
      cordon:               true,
      drain:                null,
    },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }

  return value;
}

// A type alias (not an interface) so it stays assignable to KubeObject.
type PoolObject = {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string>; annotations: Record<string, string> };
  spec: Record<string, unknown>;
  status?: unknown;
};

function written(plan: PoolWritePlan): PoolObject {
  if (!plan.ok) {
    throw new Error(`refused: ${ plan.reason.key }`);
  }

  return plan.object as unknown as PoolObject;
}

const refusal = (plan: PoolWritePlan) => (plan.ok ? undefined : plan.reason.key.replace('osUpgrades.pool.refusal.', ''));

describe('planPoolWrite: create', () => {
  it('creates a pool pinned to an exact version', () => {
    const object = written(planPoolWrite(undefined, {
      kind: 'create-exact', name: 'p', namespace: 'fleet-default', versionName: 'base-v2.2.0-3.8-os', spec: { clusterTargets: [{ clusterName: 'c' }], osImage: 'evil' },
    }, VERSIONS, NOW));

    expect(object).toEqual({
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   { name: 'p', namespace: 'fleet-default' },
      spec:       { clusterTargets: [{ clusterName: 'c' }], managedOSVersionName: 'base-v2.2.0-3.8-os' },
    });
  });

  it('resolves a selector once, stores the name and the selector', () => {
    const plan = planPoolWrite(undefined, {
      kind: 'create-selector', name: 'p', namespace: 'fleet-default', selector: { version: '~2.2', channel: 'sl-micro-6.1-base' },
    }, VERSIONS, NOW);
    const object = written(plan);

    expect(object.spec.managedOSVersionName).toBe('base-v2.2.0-3.12-os');
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe('{"channel":"sl-micro-6.1-base","version":"~2.2"}');
    expect(plan.ok && plan.resolution?.chosen?.name).toBe('base-v2.2.0-3.12-os');
  });

  it('uses a draft without resourceVersion as the base, dropping its osImage, status and stale annotations', () => {
    const draft = {
      metadata: {
        name: 'draft', namespace: 'fleet-default', annotations: { [PREVIOUS_VERSION_ANNOTATION]: 'old', keep: 'yes' }
      },
      spec:   { osImage: 'registry/x:1', concurrency: 2 },
      status: { x: 1 },
    };
    const object = written(planPoolWrite(deepFreeze(draft), { kind: 'create-exact', versionName: 'base-v2.3.0-6.1-os' }, VERSIONS, NOW));

    expect(object.spec).toEqual({ concurrency: 2, managedOSVersionName: 'base-v2.3.0-6.1-os' });
    expect(object.metadata.annotations).toEqual({ keep: 'yes' });
    expect(object.status).toBeUndefined();
  });

  it.each([
    [{
      kind: 'create-exact', name: 'p', namespace: 'fleet-default', versionName: 'nope'
    }, 'versionNotFound'],
    [{
      kind: 'create-exact', name: 'p', namespace: 'fleet-default', versionName: 'base-v2.2.0-3.7-iso'
    }, 'notContainer'],
    [{
      kind: 'create-exact', name: 'p', namespace: 'other-ns', versionName: 'base-v2.2.0-3.8-os'
    }, 'versionNotFound'],
    [{
      kind: 'create-exact', namespace: 'fleet-default', versionName: 'base-v2.2.0-3.8-os'
    }, 'missingName'],
    [{
      kind: 'create-exact', name: 'p', versionName: 'base-v2.2.0-3.8-os'
    }, 'missingNamespace'],
    [{
      kind: 'create-selector', name: 'p', namespace: 'fleet-default', selector: { channel: 'nope' }
    }, 'noMatch'],
    [{
      kind: 'create-selector', name: 'p', namespace: 'fleet-default', selector: '{"version":'
    }, 'invalidSelector'],
    [{
      kind: 'create-selector', name: 'p', namespace: 'fleet-local', selector: {}, spec: { clusterTargets: [{ clusterName: 'x' }] }
    }, 'fleetLocalTargets'],
  ])('refuses %j', (intent, expected) => {
    expect(refusal(planPoolWrite(undefined, intent as PoolIntent, VERSIONS, NOW))).toBe(expected);
  });

  it('refuses to create over an existing object', () => {
    expect(refusal(planPoolWrite(pool(), { kind: 'create-exact', versionName: 'base-v2.2.0-3.8-os' }, VERSIONS, NOW))).toBe('alreadyExists');
  });

  it('accepts fleet-local without targets', () => {
    expect(written(planPoolWrite(undefined, {
      kind: 'create-exact', name: 'p', namespace: 'fleet-local', versionName: 'base-v2.2.0-3.8-os'
    }, VERSIONS.map((v) => ({ ...v, metadata: { ...(v.metadata as object), namespace: 'fleet-local' } })), NOW)).metadata.namespace).toBe('fleet-local');
  });
});

describe('planPoolWrite: edit', () => {
  it('refuses an edit or a new pool that sets what runs on the nodes other than through the pin (upgrade container, prepare, cloud-config)', () => {
    for (const spec of [{ upgradeContainer: { image: 'registry.example/evil:1' } }, { prepare: { image: 'busybox' } }, { cloudConfig: { runcmd: ['x'] } }]) {
      const field = `spec.${ Object.keys(spec)[0] }`;
      const edited = planPoolWrite(deepFreeze(pool()), { kind: 'edit', spec }, VERSIONS, NOW);
      const created = planPoolWrite(undefined, {
        kind: 'create-exact', name: 'p', namespace: 'fleet-default', versionName: 'base-v2.2.0-3.8-os', spec
      }, VERSIONS, NOW);

      expect(edited).toEqual({ ok: false, reason: { key: 'osUpgrades.pool.refusal.guardedField', values: { field } } });
      expect(created).toEqual({ ok: false, reason: { key: 'osUpgrades.pool.refusal.guardedField', values: { field } } });
    }
  });

  it('keeps an upgrade container it does not change (a person\'s FORCE included)', () => {
    const current = pool();

    (current.spec as Record<string, unknown>).upgradeContainer = { image: 'x', envs: [{ name: 'FORCE', value: 'true' }] };
    const object = written(planPoolWrite(deepFreeze(current), { kind: 'edit', spec: { concurrency: 4 } }, VERSIONS, NOW));

    expect(object.spec.upgradeContainer).toEqual({ image: 'x', envs: [{ name: 'FORCE', value: 'true' }] });
  });

  it('changes other fields and keeps the pin and selector byte for byte, even when the intent carries them', () => {
    const current = deepFreeze(pool());
    const object = written(planPoolWrite(current, {
      kind: 'edit',
      spec: {
        concurrency: 3, cordon: false, clusterTargets: [{ clusterGroup: 'g' }], managedOSVersionName: 'base-v2.3.0-6.1-os', osImage: 'evil:latest'
      },
      annotations: {
        [SELECTOR_ANNOTATION]: '{"channel":"x"}', [PREVIOUS_VERSION_ANNOTATION]: 'x', [APPROVED_BY_ANNOTATION]: 'mallory', note: null, added: 'yes'
      },
      labels: { team: 'core' },
    }, VERSIONS, NOW));

    expect(object.spec).toEqual({
      managedOSVersionName: 'base-v2.2.0-3.9-os', clusterTargets: [{ clusterGroup: 'g' }], concurrency: 3, cordon: false, drain: null,
    });
    expect(object.metadata.annotations).toEqual({ [SELECTOR_ANNOTATION]: SELECTOR_TEXT, added: 'yes' });
    expect(object.metadata.labels).toEqual({ team: 'core' });
    expect(object.metadata.resourceVersion).toBe('4711');
  });

  it('keeps drain: null (draining disabled) and can remove a field', () => {
    const object = written(planPoolWrite(pool(), { kind: 'edit', spec: { nodeSelector: { matchLabels: { a: 'b' } }, cordon: undefined } }, VERSIONS, NOW));

    expect(object.spec.drain).toBeNull();
    expect('cordon' in object.spec).toBe(false);
    expect(object.spec.nodeSelector).toEqual({ matchLabels: { a: 'b' } });
  });

  it('refuses without a pool, and refuses targets on fleet-local', () => {
    expect(refusal(planPoolWrite(undefined, { kind: 'edit', spec: {} }, VERSIONS, NOW))).toBe('noPool');
    expect(refusal(planPoolWrite(pool({ namespace: 'fleet-local' }), { kind: 'edit', spec: { concurrency: 2 } }, VERSIONS, NOW))).toBe('fleetLocalTargets');
  });
});

describe('planPoolWrite: change-selector', () => {
  it('stores the new selector, keeps the pin and reports the candidate', () => {
    const plan = planPoolWrite(deepFreeze(pool()), { kind: 'change-selector', selector: { channel: 'sl-micro-6.2-base' } }, VERSIONS, NOW);
    const object = written(plan);

    expect(object.spec.managedOSVersionName).toBe('base-v2.2.0-3.9-os');
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe('{"channel":"sl-micro-6.2-base"}');
    expect(plan.ok && plan.candidate?.name).toBe('base-v2.3.0-6.1-os');
  });

  it('stores a selector that matches nothing (the pin stays), removes one with null, refuses an invalid one', () => {
    const none = planPoolWrite(pool(), { kind: 'change-selector', selector: { channel: 'nope' } }, VERSIONS, NOW);

    expect(none.ok && none.candidate).toBeUndefined();
    expect(written(none).spec.managedOSVersionName).toBe('base-v2.2.0-3.9-os');
    expect(written(planPoolWrite(pool(), { kind: 'change-selector', selector: null }, VERSIONS, NOW)).metadata.annotations).toEqual({ note: 'keep me' });
    expect(refusal(planPoolWrite(pool(), { kind: 'change-selector', selector: { minAgeHours: -2 } }, VERSIONS, NOW))).toBe('invalidSelector');
  });
});

describe('planPoolWrite: approve', () => {
  const approve = (versionName: string, expectedPin = 'base-v2.2.0-3.9-os'): PoolIntent => ({
    kind: 'approve', versionName, expectedPin, approvedBy: 'alice'
  });

  it('writes exactly the approved version, remembers the previous one and who approved when', () => {
    const current = deepFreeze(pool());
    const object = written(planPoolWrite(current, approve('base-v2.2.0-3.12-os'), VERSIONS, NOW));

    expect(object.spec.managedOSVersionName).toBe('base-v2.2.0-3.12-os');
    expect(object.metadata.annotations).toEqual({
      [SELECTOR_ANNOTATION]:         SELECTOR_TEXT,
      note:                          'keep me',
      [PREVIOUS_VERSION_ANNOTATION]: 'base-v2.2.0-3.9-os',
      [APPROVED_BY_ANNOTATION]:      'alice',
      [APPROVED_AT_ANNOTATION]:      NOW_ISO,
      [APPROVED_IMAGE_ANNOTATION]:   'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12',
      [HISTORY_ANNOTATION]:          JSON.stringify([{
        kind:      'approve',
        from:      'base-v2.2.0-3.9-os',
        to:        'base-v2.2.0-3.12-os',
        by:        'alice',
        at:        NOW_ISO,
        comment:   '',
        fromImage: 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9',
        toImage:   'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12',
        changes:   [{
          field: 'managedOSVersionName', before: 'base-v2.2.0-3.9-os', after: 'base-v2.2.0-3.12-os'
        }],
      }]),
    });
    expect(object.metadata.resourceVersion).toBe('4711');
    expect((current.spec as Record<string, unknown>).managedOSVersionName).toBe('base-v2.2.0-3.9-os');
  });

  it('refuses when the pin moved since the dialog', () => {
    expect(planPoolWrite(pool(), approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.8-os'), VERSIONS, NOW)).toEqual({ ok: false, reason: { key: 'osUpgrades.pool.refusal.pinChanged', values: { expected: 'base-v2.2.0-3.8-os', actual: 'base-v2.2.0-3.9-os' } } });
  });

  it('refuses when the selector now picks another version, and shows the new resolution', () => {
    const plan = planPoolWrite(pool(), approve('base-v2.2.0-3.8-os'), VERSIONS, NOW);

    expect(refusal(plan)).toBe('selectionChanged');
    expect(!plan.ok && plan.resolution?.chosen?.name).toBe('base-v2.2.0-3.12-os');
    // A newer image synced after the dialog opened: what the person saw is no longer the pick.
    const newer = {
      ...VERSIONS[0],
      metadata: { ...(VERSIONS[0].metadata as object), name: 'base-v2.2.0-3.13-os' },
      spec:     {
        ...(VERSIONS[0].spec as object), version: 'v2.2.0-3.13', metadata: { created: NOW - 10 }
      }
    };

    expect(refusal(planPoolWrite(pool(), approve('base-v2.2.0-3.12-os'), [...VERSIONS, newer], NOW))).toBe('selectionChanged');
  });

  it('approves any container version of a pool without selector, and moves off a raw osImage', () => {
    const current = pool({ annotations: {} });

    (current.spec as Record<string, unknown>).osImage = 'registry/x:1';
    const object = written(planPoolWrite(current, approve('base-v2.2.0-3.8-os'), VERSIONS, NOW));

    expect(object.spec.managedOSVersionName).toBe('base-v2.2.0-3.8-os');
    expect('osImage' in object.spec).toBe(false);
  });

  it.each([
    [{
      kind: 'approve', versionName: 'base-v2.2.0-3.12-os', expectedPin: 'base-v2.2.0-3.9-os', approvedBy: ''
    }, NOW, 'approverRequired'],
    [{
      kind: 'approve', versionName: 'base-v2.2.0-3.12-os', expectedPin: 'base-v2.2.0-3.9-os', approvedBy: 'a'
    }, Number.NaN, 'invalidTime'],
    [{
      kind: 'approve', versionName: 'base-v2.2.0-3.9-os', expectedPin: 'base-v2.2.0-3.9-os', approvedBy: 'a'
    }, NOW, 'alreadyPinned'],
    [{
      kind: 'approve', versionName: 'gone', expectedPin: 'base-v2.2.0-3.9-os', approvedBy: 'a'
    }, NOW, 'versionNotFound'],
  ])('refuses %j', (intent, now, expected) => {
    expect(refusal(planPoolWrite(pool(), intent as PoolIntent, VERSIONS, now))).toBe(expected);
  });

  it('refuses when the stored selector cannot be read', () => {
    expect(refusal(planPoolWrite(pool({ annotations: { [SELECTOR_ANNOTATION]: '{oops' } }), approve('base-v2.2.0-3.12-os'), VERSIONS, NOW))).toBe('selectorUnreadable');
  });
});

describe('planPoolWrite: rollback', () => {
  const rolledForward = () => written(planPoolWrite(pool(), {
    kind: 'approve', versionName: 'base-v2.2.0-3.12-os', expectedPin: 'base-v2.2.0-3.9-os', approvedBy: 'alice'
  }, VERSIONS, NOW));

  it('goes back to the previous version with the approver annotations', () => {
    const object = written(planPoolWrite(deepFreeze(rolledForward()), { kind: 'rollback', approvedBy: 'bob' }, VERSIONS, NOW + 60));

    expect(object.spec.managedOSVersionName).toBe('base-v2.2.0-3.9-os');
    expect(object.metadata.annotations[PREVIOUS_VERSION_ANNOTATION]).toBe('base-v2.2.0-3.12-os');
    expect(object.metadata.annotations[APPROVED_BY_ANNOTATION]).toBe('bob');
    expect(object.metadata.annotations[APPROVED_AT_ANNOTATION]).toBe('2025-10-09T08:54:20.000Z');
    expect(object.metadata.annotations[SELECTOR_ANNOTATION]).toBe(SELECTOR_TEXT);
  });

  it('refuses without a previous version, when the pin moved, or when the previous image is gone', () => {
    expect(refusal(planPoolWrite(pool(), { kind: 'rollback', approvedBy: 'bob' }, VERSIONS, NOW))).toBe('noPreviousVersion');
    expect(refusal(planPoolWrite(rolledForward(), {
      kind: 'rollback', approvedBy: 'bob', expectedPin: 'x'
    }, VERSIONS, NOW))).toBe('pinChanged');
    expect(refusal(planPoolWrite(rolledForward(), { kind: 'rollback', approvedBy: 'bob' }, VERSIONS.filter((v) => (v.metadata as { name: string }).name !== 'base-v2.2.0-3.9-os'), NOW))).toBe('versionNotFound');
  });
});

describe('readPool and checkPoolUpgrade', () => {
  it('reads what the UI shows', () => {
    expect(readPool(pool())).toEqual({
      name: 'pool-a', namespace: 'fleet-default', resourceVersion: '4711', pin: 'base-v2.2.0-3.9-os', selector: { channel: 'sl-micro-6.1-base' }, selectorText: SELECTOR_TEXT, selectorErrors: [],
    });
  });

  it('is tolerant of garbage', () => {
    expect(readPool(null)).toEqual({
      name: '', namespace: '', selectorErrors: []
    });
    const broken = readPool({ metadata: { annotations: { [SELECTOR_ANNOTATION]: '{"colour":"red"}' } }, spec: { managedOSVersionName: 7 } });

    expect(broken.selector).toBeUndefined();
    expect(broken.selectorErrors.map((error) => error.key)).toEqual(['osUpgrades.selector.error.unknownKey']);
    expect(broken.pin).toBe('7');
  });

  it('says when the selector would now pick another image', () => {
    expect(checkPoolUpgrade(pool(), VERSIONS, NOW).upgrade?.name).toBe('base-v2.2.0-3.12-os');
    expect(checkPoolUpgrade(pool({ pin: 'base-v2.2.0-3.12-os' }), VERSIONS, NOW).upgrade).toBeUndefined();
    expect(checkPoolUpgrade(pool({ annotations: {} }), VERSIONS, NOW)).toEqual({});
  });
});

describe('planPoolWrite properties (rule "Pool writes")', () => {
  const names = ['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.7-iso', 'base-v2.3.0-6.1-os', 'unstable-os', 'gone'];
  const specField = fc.constantFrom('managedOSVersionName', 'osImage', 'concurrency', 'cordon', 'drain', 'clusterTargets', 'nodeSelector');
  const annotationKey = fc.constantFrom(SELECTOR_ANNOTATION, PREVIOUS_VERSION_ANNOTATION, APPROVED_BY_ANNOTATION, APPROVED_AT_ANNOTATION, 'note', 'other');
  const selector = fc.oneof(
    fc.constant(null),
    fc.record({ channel: fc.constantFrom('sl-micro-6.1-base', 'sl-micro-6.2-base', 'unstable', 'nope') }),
    fc.record({ version: fc.constantFrom('~2.2', '^2', 'banana') }),
    fc.string({ maxLength: 10 }),
  );
  const intent = fc.oneof(
    fc.record({
      kind: fc.constant('edit'), spec: fc.dictionary(specField, fc.jsonValue({ maxDepth: 2 })), annotations: fc.dictionary(annotationKey, fc.option(fc.string({ maxLength: 5 })))
    }),
    fc.record({ kind: fc.constant('change-selector'), selector }),
    fc.record({
      kind: fc.constant('approve'), versionName: fc.constantFrom(...names), expectedPin: fc.option(fc.constantFrom(...names), { nil: undefined }), approvedBy: fc.constantFrom('alice', 'alice', 'alice', ''),
    }),
    fc.record({
      kind: fc.constant('rollback'), approvedBy: fc.constantFrom('bob', ''), expectedPin: fc.option(fc.constantFrom(...names), { nil: undefined })
    }),
  ) as fc.Arbitrary<PoolIntent>;
  // Most approvals carry the pin the dialog really showed, so that some of them succeed.
  const step = fc.tuple(intent, fc.constantFrom(true, true, true, false)).map(([raw, honest]) => ({ raw, honest }));

  it('moves the pin only on approve (to exactly the approved version) or rollback (to the previous one)', () => {
    let moves = 0;

    fc.assert(fc.property(fc.array(step, { maxLength: 12 }), fc.constantFrom(undefined, SELECTOR_TEXT, '{"version":"^2"}'), (steps, selectorText) => {
      let current: KubeObject = deepFreeze(pool({ annotations: selectorText ? { [SELECTOR_ANNOTATION]: selectorText } : {} }));

      for (const { raw, honest } of steps) {
        const before = readPool(current);
        const step = honest && (raw.kind === 'approve' || raw.kind === 'rollback') ? { ...raw, expectedPin: before.pin } : raw;
        const plan = planPoolWrite(current, step, VERSIONS, NOW);

        if (!plan.ok) {
          continue;
        }
        const after = readPool(plan.object);

        if (step.kind === 'approve') {
          expect(after.pin).toBe(step.versionName);
          expect(after.previousVersion).toBe(before.pin);
          moves++;
        } else if (step.kind === 'rollback') {
          expect(after.pin).toBe(before.previousVersion);
          moves++;
        } else {
          expect(after.pin).toBe(before.pin);
          expect(after.previousVersion).toBe(before.previousVersion);
          expect(after.approvedBy).toBe(before.approvedBy);
        }
        if (step.kind !== 'change-selector') {
          expect(after.selectorText).toBe(before.selectorText);
        }
        current = deepFreeze(plan.object);
      }
    }), { numRuns: 300 });
    // The generators must actually reach approvals, or this property proves nothing.
    expect(moves).toBeGreaterThan(10);
  });
});
