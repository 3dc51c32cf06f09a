import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import {
  APPROVED_IMAGE_ANNOTATION, approvedImage, asOSVersions, imageDrift, KubeObject, OSVersion, planPoolWrite, PREVIOUS_VERSION_ANNOTATION, runImage, versionImageKey
} from '../index';

const VERSIONS = asOSVersions(channelVersions('sl-micro-6.1-base'));
const NOW = 1760000000;
const PIN = 'base-v2.2.0-3.9-os';
const TARGET = 'base-v2.2.0-3.12-os';

function pool(annotations: Record<string, string> = {}, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name: 'pool-a', namespace: 'fleet-default', resourceVersion: '1', annotations
    },
    spec: { managedOSVersionName: PIN, ...spec },
  };
}

const version = (name: string, versions: OSVersion[] = VERSIONS) => versions.find((v) => v.name === name) as OSVersion;

/** The channel synced again: `name` now stands for `image` (and maybe another upgrade container). */
function resynced(name: string, image: string, upgradeContainer?: Record<string, unknown>): OSVersion[] {
  return VERSIONS.map((v) => (v.name === name ? {
    ...v, image, ...(upgradeContainer ? { upgradeContainer } : {})
  } : v));
}

function approve(current: KubeObject, versions: OSVersion[], versionName: string, expectedImage?: string) {
  return planPoolWrite(current, {
    kind: 'approve', versionName, expectedPin: PIN, approvedBy: 'alice', ...(expectedImage === undefined ? {} : { expectedImage })
  }, versions, NOW);
}

describe('the image an approval approved', () => {
  it('is what the operator gives the nodes: the pool\'s container image, else its osImage, else the version\'s container or upgradeImage', () => {
    const v = { ...version(TARGET), upgradeContainer: { image: 'registry/upgrader:1' } };

    expect(runImage(pool(), version(TARGET))).toBe(version(TARGET).image);
    expect(runImage(pool(), v)).toBe('registry/upgrader:1');
    expect(runImage(pool({}, { upgradeContainer: { image: 'registry/own:2' } }), v)).toBe('registry/own:2');
    // The pool's container without an image: the image comes from osImage or the version, not the version's container.
    expect(runImage(pool({}, { upgradeContainer: { envs: [] } }), v)).toBe(version(TARGET).image);
    expect(runImage(pool({}, { osImage: 'registry/raw:3' }), version(TARGET))).toBe('registry/raw:3');
  });

  it('is recorded by an approval, beside approved-by', () => {
    const plan = approve(pool(), VERSIONS, TARGET, versionImageKey(version(TARGET)));

    expect(plan.ok && approvedImage(plan.object)).toBe(version(TARGET).image);
  });

  it('refuses an approval when the version\'s image or upgrade container changed since the dialog showed it, naming the new image', () => {
    const shown = versionImageKey(version(TARGET));

    expect(approve(pool(), resynced(TARGET, 'registry.evil.example/other-image:6.6.6'), TARGET, shown)).toEqual({ ok: false, reason: { key: 'osUpgrades.pool.refusal.imageChanged', values: { name: TARGET, image: 'registry.evil.example/other-image:6.6.6' } } });
    const withContainer = resynced(TARGET, version(TARGET).image, { image: 'registry.evil.example/upgrader:1', command: ['/bin/sh'] });

    expect(approve(pool(), withContainer, TARGET, shown)).toMatchObject({ ok: false, reason: { key: 'osUpgrades.pool.refusal.imageChanged' } });
    expect(approve(pool(), VERSIONS, TARGET, shown).ok).toBe(true);
  });

  it('a pool whose pin now names another image than approved says so, and approving the pin again records the new image', () => {
    const approved = approve(pool(), VERSIONS, TARGET);

    if (!approved.ok) {
      throw new Error(approved.reason.key);
    }
    const before = approved.object;
    const swapped = resynced(TARGET, 'registry.evil.example/other-image:6.6.6');

    expect(imageDrift(before, version(TARGET))).toBeUndefined();
    expect(imageDrift(before, version(TARGET, swapped))).toEqual({
      versionName: TARGET, approved: version(TARGET).image, image: 'registry.evil.example/other-image:6.6.6'
    });

    const again = planPoolWrite(before, {
      kind: 'approve', versionName: TARGET, expectedPin: TARGET, approvedBy: 'bob', expectedImage: versionImageKey(version(TARGET, swapped))
    }, swapped, NOW);

    expect(again.ok).toBe(true);
    if (again.ok) {
      expect(imageDrift(again.object, version(TARGET, swapped))).toBeUndefined();
      expect(again.forced).toBe(false);
      expect((again.object.metadata as { annotations: Record<string, string> }).annotations[PREVIOUS_VERSION_ANNOTATION]).toBe(PIN);
    }
    // Without a change of image, approving the pin again is still refused.
    expect(planPoolWrite(before, {
      kind: 'approve', versionName: TARGET, expectedPin: TARGET, approvedBy: 'bob'
    }, VERSIONS, NOW)).toMatchObject({ ok: false, reason: { key: 'osUpgrades.pool.refusal.alreadyPinned' } });
  });

  it('a pool approved before the record existed is not flagged', () => {
    expect(imageDrift(pool(), version(PIN))).toBeUndefined();
    expect(imageDrift(pool({ [APPROVED_IMAGE_ANNOTATION]: 'x' }), undefined)).toBeUndefined();
  });

  it('property: an approval writes only when the image shown is the image now, and records exactly what the nodes are given', () => {
    fc.assert(fc.property(fc.constantFrom(...VERSIONS.filter((v) => v.name !== PIN && v.type === 'container').map((v) => v.name)), fc.option(fc.constantFrom('registry/a:1', 'registry/b:2'), { nil: undefined }), (name, swap) => {
      const shown = versionImageKey(version(name));
      const versions = swap ? resynced(name, swap) : VERSIONS;
      const plan = approve(pool(), versions, name, shown);

      if (plan.ok) {
        expect(versionImageKey(version(name, versions))).toBe(shown);
        expect(approvedImage(plan.object)).toBe(runImage(plan.object, version(name, versions)));
      } else if (swap && swap !== version(name).image) {
        expect(plan.reason.key).toBe('osUpgrades.pool.refusal.imageChanged');
      }
    }));
  });
});
