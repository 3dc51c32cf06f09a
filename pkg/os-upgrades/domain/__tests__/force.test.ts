import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import {
  compareSortV, FORCED_ANNOTATION, FORCED_CONTAINER_ANNOTATION, forceValue, imageParts, isHigherImage, KubeObject, planPoolWrite, repositoryPath,
  PoolWritePlan, PREVIOUS_VERSION_ANNOTATION, resolveSelector, toOSVersion
} from '../index';

const NOW = 1760000000;
const BASE = channelVersions('sl-micro-6.1-base');
const RECOVERY = { image: 'registry.example.com/recovery:1', envs: [{ name: 'RECOVERY', value: 'yes' }] };

/** The 6.1 channel, with the channel's upgradeContainer on every version (as versionSpec copies it). */
function versions(withContainer = false): Record<string, unknown>[] {
  return BASE.map((v) => (withContainer ? { ...v, spec: { ...(v.spec as object), upgradeContainer: RECOVERY } } : v));
}

function pool(pin: string, extra: { previous?: string; spec?: Record<string, unknown>; annotations?: Record<string, string> } = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name: 'p', namespace: 'fleet-default', resourceVersion: '1', annotations: { ...(extra.previous ? { [PREVIOUS_VERSION_ANNOTATION]: extra.previous } : {}), ...extra.annotations }
    },
    spec: {
      managedOSVersionName: pin, clusterTargets: [{ clusterName: 'c' }], ...extra.spec
    },
  };
}

function object(plan: PoolWritePlan): { metadata: { annotations: Record<string, string> }; spec: Record<string, unknown> } {
  if (!plan.ok) {
    throw new Error(`refused: ${ plan.reason.key }`);
  }

  return plan.object as never;
}

const approve = (name: string, expectedPin: string) => ({
  kind: 'approve' as const, versionName: name, expectedPin, approvedBy: 'admin'
});

describe('image tags as getImageVersion and suc-upgrade read them', () => {
  it('splits repository and tag, with latest as the default and the registry port kept', () => {
    expect(imageParts('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12')).toEqual({ repo: 'registry.suse.com/suse/sl-micro/6.1/base-os-container', tag: '2.2.0-3.12' });
    expect(imageParts('localhost:5000/os')).toEqual({ repo: 'localhost:5000/os', tag: 'latest' });
    expect(imageParts('os:1.0')).toEqual({ repo: 'os', tag: '1.0' });
  });

  it('orders tags as sort -V does', () => {
    const sorted = ['2.2.0-3.12', '2.2.0-3.9', '2.10', '2.2.0', '2.2.0-3.8', '1.0~rc1', '1.0'].sort(compareSortV);

    expect(sorted).toEqual(['1.0~rc1', '1.0', '2.2.0', '2.2.0-3.8', '2.2.0-3.9', '2.2.0-3.12', '2.10']);
  });

  it('is a total order that agrees with equality', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-z.~-]{0,8}$/), fc.stringMatching(/^[0-9a-z.~-]{0,8}$/), (a, b) => {
      expect(Math.sign(compareSortV(a, b)) + Math.sign(compareSortV(b, a))).toBe(0);
      expect(compareSortV(a, b) === 0).toBe(a === b);
    }));
  });

  it('decides higher as isHigherVersion does: other repositories always, equal tags never', () => {
    expect(isHigherImage({ repo: 'a', tag: '2' }, { repo: 'b', tag: '1' })).toBe(true);
    expect(isHigherImage({ repo: 'a', tag: '' }, { repo: 'a', tag: '1' })).toBe(true);
    expect(isHigherImage({ repo: 'a', tag: '2' }, { repo: 'a', tag: '2' })).toBe(false);
    expect(isHigherImage({ repo: 'a', tag: '2.2.0-3.9' }, { repo: 'a', tag: '2.2.0-3.12' })).toBe(true);
  });

  it('compares the repository without its registry, as the images\' os-release carries it', () => {
    const suse = imageParts('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9');
    const mirror = imageParts('mirror.example.com:5000/suse/sl-micro/6.1/base-os-container:2.2.0-3.12');
    const proxy = imageParts('harbor.example.com/suse-proxy/suse/sl-micro/6.1/base-os-container:2.2.0-3.12');

    expect(isHigherImage(mirror, suse)).toBe(false);
    expect(isHigherImage(proxy, suse)).toBe(false);
    expect(isHigherImage(suse, mirror)).toBe(true);
    expect(isHigherImage(mirror, imageParts('registry.suse.com/suse/sl-micro/6.1/kvm-os-container:2.2.0-3.9'))).toBe(true);
    expect(repositoryPath('localhost/os')).toBe('os');
    expect(repositoryPath('suse/os')).toBe('suse/os');
  });

  it('a roll back to an image from another registry is forced', () => {
    const onMirror = (v: Record<string, unknown>) => {
      const spec = v.spec as { metadata: { upgradeImage: string } };

      return { ...v, spec: { ...spec, metadata: { ...spec.metadata, upgradeImage: spec.metadata.upgradeImage.replace(/^[^/]+/, 'mirror.example.com') } } };
    };
    const list = versions().map((v) => ((v.metadata as { name: string }).name === 'base-v2.2.0-3.12-os' ? onMirror(v) : v));
    const plan = planPoolWrite(pool('base-v2.2.0-3.12-os', { previous: 'base-v2.2.0-3.9-os' }), { kind: 'rollback', approvedBy: 'admin' }, list, NOW);

    expect(plan.ok && plan.forced).toBe(true);
  });
});

describe('forced downgrades', () => {
  it('a rollback writes the target version\'s upgradeContainer with FORCE=true and marks it', () => {
    const plan = planPoolWrite(pool('base-v2.2.0-3.12-os', { previous: 'base-v2.2.0-3.9-os' }), { kind: 'rollback', approvedBy: 'admin' }, versions(true), NOW);
    const written = object(plan);

    expect(plan.ok && plan.forced).toBe(true);
    expect(written.spec.upgradeContainer).toEqual({ image: RECOVERY.image, envs: [{ name: 'RECOVERY', value: 'yes' }, { name: 'FORCE', value: 'true' }] });
    expect(written.metadata.annotations[FORCED_ANNOTATION]).toBe('true');
    expect(written.metadata.annotations[FORCED_CONTAINER_ANNOTATION]).toBe('true');
  });

  it('a rollback without any container creates one holding only FORCE', () => {
    const written = object(planPoolWrite(pool('base-v2.2.0-3.12-os', { previous: 'base-v2.2.0-3.9-os' }), { kind: 'rollback', approvedBy: 'admin' }, versions(), NOW));

    expect(written.spec.upgradeContainer).toEqual({ envs: [{ name: 'FORCE', value: 'true' }] });
  });

  it('an approve to an older image forces too, starting from the pool\'s own container', () => {
    const own = { image: 'my/upgrader:1', envs: [{ name: 'X', value: '1' }] };
    const plan = planPoolWrite(pool('base-v2.2.0-3.12-os', { spec: { upgradeContainer: own } }), approve('base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os'), versions(true), NOW);
    const written = object(plan);

    expect(written.spec.upgradeContainer).toEqual({ image: 'my/upgrader:1', envs: [{ name: 'X', value: '1' }, { name: 'FORCE', value: 'true' }] });
    expect(written.metadata.annotations[FORCED_ANNOTATION]).toBe('true');
    expect(written.metadata.annotations[FORCED_CONTAINER_ANNOTATION]).toBeUndefined();
  });

  it('the next forward approve removes the whole container the extension created', () => {
    const down = object(planPoolWrite(pool('base-v2.2.0-3.12-os', { previous: 'base-v2.2.0-3.9-os' }), { kind: 'rollback', approvedBy: 'admin' }, versions(true), NOW));
    const plan = planPoolWrite(down as never, approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), versions(true), NOW);
    const up = object(plan);

    expect(plan.ok && plan.forced).toBe(false);
    expect(up.spec.upgradeContainer).toBeUndefined();
    expect(up.metadata.annotations[FORCED_ANNOTATION]).toBeUndefined();
    expect(up.metadata.annotations[FORCED_CONTAINER_ANNOTATION]).toBeUndefined();
  });

  it('the next forward approve removes only FORCE from a person\'s container', () => {
    const own = { image: 'my/upgrader:1', envs: [{ name: 'X', value: '1' }] };
    const down = object(planPoolWrite(pool('base-v2.2.0-3.12-os', { spec: { upgradeContainer: own } }), approve('base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os'), versions(), NOW));
    const up = object(planPoolWrite(down as never, approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.8-os'), versions(), NOW));

    expect(up.spec.upgradeContainer).toEqual(own);
  });

  it('leaves a FORCE a person wrote untouched, on the way down and on the way up', () => {
    const own = { envs: [{ name: 'FORCE', value: 'true' }] };
    const down = object(planPoolWrite(pool('base-v2.2.0-3.12-os', { spec: { upgradeContainer: own }, previous: 'base-v2.2.0-3.9-os' }), { kind: 'rollback', approvedBy: 'admin' }, versions(), NOW));

    expect(down.spec.upgradeContainer).toEqual(own);
    expect(down.metadata.annotations[FORCED_ANNOTATION]).toBeUndefined();
    const up = object(planPoolWrite(down as never, approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), versions(), NOW));

    expect(up.spec.upgradeContainer).toEqual(own);
  });

  it('does not force a forward approve, nor a rollback to a newer image', () => {
    const forward = planPoolWrite(pool('base-v2.2.0-3.9-os'), approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), versions(), NOW);

    expect(forward.ok && forward.forced).toBe(false);
    expect(object(forward).spec.upgradeContainer).toBeUndefined();
    const back = planPoolWrite(pool('base-v2.2.0-3.9-os', { previous: 'base-v2.2.0-3.12-os' }), { kind: 'rollback', approvedBy: 'admin' }, versions(), NOW);

    expect(back.ok && back.forced).toBe(false);
  });

  it('property: no plan ever leaves an extension-added FORCE on a forward upgrade, and a person\'s FORCE is never removed', () => {
    const names = ['base-v2.2.0-3.8-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.12-os'];
    const step = fc.oneof(fc.record({ kind: fc.constant('approve' as const), index: fc.nat(2) }), fc.record({ kind: fc.constant('rollback' as const) }));

    fc.assert(fc.property(fc.nat(2), fc.boolean(), fc.boolean(), fc.array(step, { maxLength: 10 }), (start, personForce, channelContainer, steps) => {
      const list = versions(channelContainer);
      let current: KubeObject = pool(names[start], personForce ? { spec: { upgradeContainer: { envs: [{ name: 'FORCE', value: 'true' }] } } } : {});

      for (const s of steps) {
        const pin = (current.spec as { managedOSVersionName: string }).managedOSVersionName;
        const plan = s.kind === 'rollback' ? planPoolWrite(current, { kind: 'rollback', approvedBy: 'a' }, list, NOW) : planPoolWrite(current, approve(names[s.index], pin), list, NOW);

        if (!plan.ok) {
          continue;
        }
        const next = object(plan);
        const target = (next.spec.managedOSVersionName as string);
        const forward = names.indexOf(target) > names.indexOf(pin);

        if (personForce) {
          expect(forceValue(next.spec.upgradeContainer)).toBe('true');
          expect(next.metadata.annotations[FORCED_ANNOTATION]).toBeUndefined();
        } else if (forward) {
          expect(forceValue(next.spec.upgradeContainer)).toBe('');
          expect(next.metadata.annotations[FORCED_ANNOTATION]).toBeUndefined();
          expect(next.spec.upgradeContainer).toBeUndefined();
        } else {
          expect(forceValue(next.spec.upgradeContainer)).toBe('true');
          expect(next.metadata.annotations[FORCED_ANNOTATION]).toBe('true');
        }
        current = next as unknown as KubeObject;
      }
    }));
  });
});

describe('same tag', () => {
  const flavours = [
    ...BASE,
    {
      metadata: {
        name: 'kvm-v2.2.0-3.12-os', namespace: 'fleet-default', labels: { 'elemental.cattle.io/channel': 'sl-micro-6.1-kvm' }
      },
      spec: {
        version: 'v2.2.0-3.12', type: 'container', metadata: { upgradeImage: 'registry.suse.com/suse/sl-micro/6.1/kvm-os-container:2.2.0-3.12', created: 1732723652 }
      },
    },
  ];

  it('reports sameTag when the target shares the pin\'s tag, and not otherwise', () => {
    const same = planPoolWrite(pool('base-v2.2.0-3.12-os'), approve('kvm-v2.2.0-3.12-os', 'base-v2.2.0-3.12-os'), flavours, NOW);
    const other = planPoolWrite(pool('base-v2.2.0-3.9-os'), approve('kvm-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), flavours, NOW);

    expect(same.ok && same.sameTag).toBe(true);
    // Another repository: suc-upgrade skips its version check, so no FORCE is needed.
    expect(same.ok && same.forced).toBe(false);
    expect(other.ok && other.sameTag).toBe(false);
  });
});

describe('terminating and case-insensitive types', () => {
  const deleting = BASE.map((v) => ((v.metadata as { name: string }).name === 'base-v2.2.0-3.12-os' ? {
    ...v,
    metadata: {
      ...(v.metadata as object), deletionTimestamp: '2025-10-01T00:00:00Z', finalizers: ['managedosversion.elemental.cattle.io']
    }
  } : v));

  it('toOSVersion says terminating', () => {
    const read = deleting.map(toOSVersion);

    expect(read.filter((v) => v.terminating).map((v) => v.name)).toEqual(['base-v2.2.0-3.12-os']);
    expect(read.find((v) => v.name === 'base-v2.2.0-3.9-os')?.terminating).toBe(false);
  });

  it('resolveSelector rejects a terminating version with its own reason', () => {
    const resolution = resolveSelector({ channel: 'sl-micro-6.1-base' }, deleting, NOW);

    expect(resolution.chosen?.name).toBe('base-v2.2.0-3.9-os');
    expect(resolution.rejected.find((r) => r.version.name === 'base-v2.2.0-3.12-os')?.reasons.map((r) => r.key)).toEqual(['osUpgrades.selector.reason.terminating']);
  });

  it('a terminating version cannot be approved or rolled back to', () => {
    const plan = planPoolWrite(pool('base-v2.2.0-3.9-os'), approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), deleting, NOW);

    expect(plan.ok ? '' : plan.reason.key).toBe('osUpgrades.pool.refusal.terminating');
    const back = planPoolWrite(pool('base-v2.2.0-3.9-os', { previous: 'base-v2.2.0-3.12-os' }), { kind: 'rollback', approvedBy: 'a' }, deleting, NOW);

    expect(back.ok ? '' : back.reason.key).toBe('osUpgrades.pool.refusal.terminating');
  });

  it('property: a terminating version is never a candidate', () => {
    fc.assert(fc.property(fc.array(fc.boolean(), { minLength: BASE.length, maxLength: BASE.length }), (flags) => {
      const list = BASE.map((v, i) => (flags[i] ? { ...v, metadata: { ...(v.metadata as object), deletionTimestamp: '2025-01-01T00:00:00Z' } } : v));
      const resolution = resolveSelector({}, list, NOW);

      expect(resolution.candidates.every((v) => !v.terminating)).toBe(true);
      expect(resolution.candidates.length).toBe(list.map(toOSVersion).filter((v) => v.type === 'container' && !v.terminating).length);
    }));
  });

  it('compares the type case-insensitively, as the operator does', () => {
    const upper = BASE.map((v) => ({ ...v, spec: { ...(v.spec as object), type: 'Container' } }));

    expect(resolveSelector({}, upper, NOW).chosen?.name).toBe('base-v2.2.0-3.12-os');
    expect(planPoolWrite(pool('base-v2.2.0-3.9-os'), approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), upper, NOW).ok).toBe(true);
    const iso = BASE.map((v) => ({ ...v, spec: { ...(v.spec as object), type: 'ISO' } }));

    expect(planPoolWrite(pool('base-v2.2.0-3.9-os'), approve('base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os'), iso, NOW).ok).toBe(false);
  });
});
