/* global jest */
// The shared synthetic data (tests/support/synthetic.ts) must stay deterministic and in the
// fixture formats: the emulator and the benchmark rely on it.
import { readChannelFile, toManagedOSVersion } from '../../../../tests/support/fixtures';
import {
  seededRandom, syntheticChannelEntries, syntheticPackageList, syntheticUpdateLog, syntheticUpgrades
} from '../../../../tests/support/synthetic';
import {
  advisoryDelivery, diffPackages, orderChannel, parsePackageList, parseUpdateLog, previousVersion, toOSVersion
} from '../index';

describe('synthetic data', () => {
  it('is deterministic', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);

    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(seededRandom(43)()).not.toBe(seededRandom(42)());
    expect(syntheticPackageList(50, 's', 3)).toBe(syntheticPackageList(50, 's', 3));
    expect(syntheticUpdateLog('v', {
      count: 5, seed: 1, after: 0, before: 100
    })).toBe(syntheticUpdateLog('v', {
      count: 5, seed: 1, after: 0, before: 100
    }));
  });

  it('gives each image the same packages whichever image was asked for first', () => {
    // Images are replayed from kept copies every few images (the emulator serves a 500-image
    // channel's files in constant time): a fresh module asked far images first must agree.
    type Synthetic = typeof import('../../../../tests/support/synthetic');
    const fresh = (): Synthetic => {
      let module: Synthetic | undefined;

      jest.isolateModules(() => {
        module = jest.requireActual<Synthetic>('../../../../tests/support/synthetic');
      });

      return module as Synthetic;
    };
    const images = (synthetic: Synthetic, order: number[]) => new Map(order.map((variant) => [variant, [
      synthetic.syntheticPackageList(40, 'replay', variant), JSON.stringify(synthetic.syntheticUpgrades(40, 'replay', variant))
    ]]));
    const ascending = Array.from({ length: 70 }, (_, i) => i);
    const scrambled = [69, 3, 48, 16, 15, 17, 33, 0, 64, 31, 32, ...ascending];

    expect(images(fresh(), scrambled)).toEqual(images(fresh(), ascending));
  });

  it('writes channel entries in the fixture format, newest first', () => {
    const entries = syntheticChannelEntries({
      count: 3, prefix: 'base', startCreated: 1000, stepSeconds: 10, displayName: 'SL Micro'
    });
    const real = readChannelFile('sl-micro-6.1-base')[0];

    expect(Object.keys(entries[0].spec.metadata).sort()).toEqual(Object.keys(real.spec.metadata).sort());
    expect(entries.map((e) => [e.metadata.name, e.spec.version, e.spec.metadata.created])).toEqual([
      ['base-v2.2.0-3.3-os', 'v2.2.0-3.3', 1020], ['base-v2.2.0-3.2-os', 'v2.2.0-3.2', 1010], ['base-v2.2.0-3.1-os', 'v2.2.0-3.1', 1000],
    ]);
    const versions = entries.map((entry) => toOSVersion(toManagedOSVersion(entry, { channel: 'c' })));

    expect(orderChannel([...versions].reverse()).map((v) => v.name)).toEqual(entries.map((e) => e.metadata.name));
    expect(previousVersion(versions, 'base-v2.2.0-3.3-os')?.name).toBe('base-v2.2.0-3.2-os');
  });

  it('writes package lists that differ a little between consecutive images', () => {
    const first = parsePackageList(syntheticPackageList(300, 'p', 0));
    const next = parsePackageList(syntheticPackageList(300, 'p', 1));
    const far = parsePackageList(syntheticPackageList(300, 'p', 40));

    expect(first).toHaveLength(300);
    const near = diffPackages(first, next);
    const distant = diffPackages(first, far);
    const changes = (d: typeof near) => d.added.length + d.removed.length + d.upgraded.length + d.downgraded.length;

    expect(changes(near)).toBeGreaterThan(0);
    expect(changes(near)).toBeLessThanOrEqual(6);
    expect(changes(distant)).toBeGreaterThan(changes(near));
    expect(near.downgraded).toEqual([]);
  });

  it('writes update logs in the updateinfo format', () => {
    const advisories = parseUpdateLog(syntheticUpdateLog('base-v2.2.0-3.12-os', {
      count: 30, seed: 3, after: 1732636077, before: 1732723652
    }));
    const security = advisories.filter((a) => a.type === 'security');

    expect(security.length).toBeGreaterThan(0);
    expect(security.every((a) => a.references.every((r) => /^https:\/\/www\.suse\.com\/security\/cve\/CVE-\d{4}-\d+\/$/.test(r.href)))).toBe(true);
    expect(advisories.every((a) => a.description.includes('\n- '))).toBe(true);
    expect(new Set(advisories.map((a) => a.id)).size).toBe(30);
  });

  it('writes update logs whose advisories the package lists prove, when given the image\'s upgrades', () => {
    const older = parsePackageList(syntheticPackageList(120, 'u', 6));
    const newer = parsePackageList(syntheticPackageList(120, 'u', 7));
    const fixes = syntheticUpgrades(120, 'u', 7);
    const advisories = parseUpdateLog(syntheticUpdateLog('v7', {
      count: 5, seed: 'u', after: 0, before: 100, fixes
    }));

    expect(fixes.length).toBeGreaterThan(0);
    expect(advisories.map((a) => advisoryDelivery(a, older, newer).delivered)).toEqual(advisories.map(() => true));
    expect(advisories.map((a) => advisoryDelivery(a, newer, newer).alreadyHad)).toEqual(advisories.map(() => true));
  });
});
