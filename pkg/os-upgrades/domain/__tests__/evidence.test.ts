import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import fc from 'fast-check';
import { channelVersions, PACKAGE_FILES, readPackageFile } from '../../../../tests/support/fixtures';
import {
  Advisory, advisoryDelivery, aggregateChangelog, comparePackageVersions, describeImageMove, imageLine, imagesFixingCve,
  Package, PackageLists, parsePackageList, parseUpdateLog, searchImages, toOSVersion, UpdateLogs
} from '../index';

const CHANGELOGS = resolve(__dirname, '../../../../tests/fixtures/synthetic/changelogs');
const V61 = channelVersions('sl-micro-6.1-base');
const V62 = channelVersions('sl-micro-6.2-base');
const ALL = [...V61, ...V62];
const B38 = 'base-v2.2.0-3.8-os';
const B39 = 'base-v2.2.0-3.9-os';
const B312 = 'base-v2.2.0-3.12-os';
const B61 = 'base-v2.3.0-6.1-os';
const C39 = 1732636077;

/** The real package lists, and the synthetic logs of the fixtures (3.9 has none, on purpose). */
const PACKAGES: PackageLists = Object.fromEntries(PACKAGE_FILES.map((name) => [name, parsePackageList(readPackageFile(name))]));
const LOGS: UpdateLogs = Object.fromEntries([B38, B312, B61].map((name) => [name, parseUpdateLog(readFileSync(join(CHANGELOGS, `${ name }.updates.log`), 'utf8'))]));

const ids = (list: { id: string }[]) => list.map((a) => a.id);

function pkg(name: string, version: string, release: string, arch = 'x86_64'): Package {
  return {
    name, epoch: 0, version, release, arch, disturl: '', license: ''
  };
}

function advisory(id: string, date: number | undefined, packages: { name: string; version: string; release: string; arch?: string }[], cves: string[] = []): Advisory {
  return {
    id,
    type:        'security',
    title:       id,
    severity:    'important',
    date,
    description: '',
    packages:    packages.map((p) => ({ arch: 'x86_64', ...p })),
    references:  cves.map((cve) => ({
      href: '', id: cve, title: cve, type: 'cve'
    })),
  };
}

describe('aggregateChangelog with package evidence', () => {
  it('lists the kernel advisory dated before the old image, because the package diff delivers it (base 3.9 → 3.12)', () => {
    const byDate = aggregateChangelog(V61, B39, B312, LOGS);
    const byPackages = aggregateChangelog(V61, B39, B312, LOGS, PACKAGES);

    expect(byDate.evidence).toBe('date');
    expect(ids(byDate.advisories)).toEqual(['SUSE-SLE-Micro-6.1-2024-137']);
    expect(byDate.advisories[0].evidence).toBe('date');

    expect(byPackages.evidence).toBe('packages');
    expect(ids(byPackages.advisories)).toEqual(['SUSE-SLE-Micro-6.1-2024-130']);
    expect(byPackages.advisories[0].date).toBeLessThan(C39);
    expect(byPackages.advisories[0].evidence).toBe('packages');
    expect(byPackages.advisories[0].proof).toEqual([{
      name: 'kernel-default', arch: 'x86_64', fixedIn: '6.4.0-1.3', before: '6.4.0-1.2', after: '6.4.0-1.3'
    }]);
    expect(byPackages.cves).toEqual(['CVE-2024-50302', 'CVE-2024-53104']);
    // 3.9 already has SL-Micro-release 6.1-slfo.1.10.2: not a change, counted apart.
    expect(ids(byPackages.alreadyHad)).toEqual(['SUSE-SLE-Micro-6.1-2024-137']);
  });

  it('gives the mirror for the roll-back: what 3.12 → 3.9 takes away is the kernel fix', () => {
    const back = aggregateChangelog(V61, B312, B39, LOGS, PACKAGES);
    const forth = aggregateChangelog(V61, B39, B312, LOGS, PACKAGES);

    expect(back.direction).toBe('downgrade');
    expect(back.evidence).toBe('packages');
    expect(back.advisories).toEqual(forth.advisories);
    expect(back.alreadyHad).toEqual(forth.alreadyHad);
    expect(back.summary).toEqual(forth.summary);
  });

  it('uses the date rule when one package list is missing', () => {
    const changelog = aggregateChangelog(V61, B39, B312, LOGS, { [B312]: PACKAGES[B312] });

    expect(changelog.evidence).toBe('date');
    expect(ids(changelog.advisories)).toEqual(['SUSE-SLE-Micro-6.1-2024-137']);
    expect(changelog.alreadyHad).toEqual([]);
  });

  it('compares across channels with both lists: 6.1 3.12 → 6.2 6.1, every advisory of the 6.2 log is delivered', () => {
    const changelog = aggregateChangelog(ALL, B312, B61, LOGS, PACKAGES);

    expect(changelog.crossChannel).toBe(true);
    expect(changelog.direction).toBe('upgrade');
    expect(changelog.evidence).toBe('packages');
    expect(changelog.span).toEqual([B61]);
    expect(changelog.advisories.map((a) => a.id).sort()).toEqual(LOGS[B61]!.map((a) => a.id).sort());
    expect(changelog.advisories.every((a) => a.evidence === 'packages' && a.proof!.length > 0)).toBe(true);
    const expat = changelog.advisories.find((a) => a.id === 'SUSE-SLE-Micro-6.2-2025-295')!;

    expect(expat.proof).toEqual([{
      name: 'libexpat1', arch: 'x86_64', fixedIn: '2.7.1-160000.2.2', before: '2.5.0-slfo.1.1_1.4', after: '2.7.1-160000.2.2'
    }]);
    expect(changelog.problems).toEqual([]);
  });

  it('reports the advisories unknown across channels without both lists, never by dates', () => {
    const changelog = aggregateChangelog(ALL, B312, B61, LOGS, { [B61]: PACKAGES[B61] });

    expect(changelog.crossChannel).toBe(true);
    expect(changelog.evidence).toBe('none');
    expect(changelog.advisoriesUnknown).toBe(true);
    expect(changelog.advisories).toEqual([]);
    expect(changelog.summary.total).toBe(0);
  });

  it('keeps working without the fifth argument (existing callers)', () => {
    const changelog = aggregateChangelog(V61, B38, B312, LOGS);

    expect(changelog.evidence).toBe('date');
    expect(changelog.crossChannel).toBe(false);
    expect(changelog.span).toEqual([B312, B39]);
    expect(changelog.missing).toEqual([B39]);
  });

  it('says none for the same image and unknown versions', () => {
    expect(aggregateChangelog(V61, B39, B39, LOGS, PACKAGES).evidence).toBe('none');
    expect(aggregateChangelog(V61, 'nope', B39, LOGS, PACKAGES).evidence).toBe('none');
  });

  describe('on synthetic logs', () => {
    const versions = [
      {
        name: 'a', channel: 'c', type: 'container', created: 100
      },
      {
        name: 'b', channel: 'c', type: 'container', created: 200
      },
    ];
    const older = [pkg('openssl', '3.0', '1'), pkg('curl', '8.0', '2'), pkg('kernel', '6.4', '1'), pkg('kernel', '6.4', '2')];
    const newer = [pkg('openssl', '3.0', '2'), pkg('curl', '8.0', '2'), pkg('kernel', '6.4', '2'), pkg('kernel', '6.4', '3'), pkg('new', '1', '1')];
    const lists: PackageLists = { a: older, b: newer };

    it('lists an advisory dated long before the old image when the diff delivers it, not one the old image already had', () => {
      const logs: UpdateLogs = {
        b: [
          advisory('early', 1, [{
            name: 'openssl', version: '3.0', release: '2'
          }]),
          advisory('had', 300, [{
            name: 'curl', version: '8.0', release: '2'
          }]),
          advisory('absent', 300, [{
            name: 'zsh', version: '5', release: '1'
          }]),
          advisory('added', 1, [{
            name: 'new', version: '1', release: '1'
          }]),
          advisory('kernel', 1, [{
            name: 'kernel', version: '6.4', release: '3'
          }]),
          advisory('wrong-arch', 300, [{
            name: 'openssl', version: '3.0', release: '2', arch: 'aarch64'
          }]),
          advisory('no-packages', 300, []),
          advisory('partly', 1, [{
            name: 'curl', version: '8.0', release: '1'
          }, {
            name: 'openssl', version: '3.0', release: '2'
          }]),
        ],
      };
      const changelog = aggregateChangelog(versions, 'a', 'b', logs, lists);

      expect(ids(changelog.advisories).sort()).toEqual(['added', 'early', 'kernel', 'partly']);
      expect(changelog.advisories.find((a) => a.id === 'added')!.proof).toEqual([{
        name: 'new', arch: 'x86_64', fixedIn: '1-1', after: '1-1'
      }]);
      expect(changelog.advisories.find((a) => a.id === 'kernel')!.proof![0]).toMatchObject({ before: '6.4-2', after: '6.4-3' });
      expect(ids(changelog.alreadyHad)).toEqual(['had']);
      expect(ids(changelog.unprovable)).toEqual(['no-packages']);
      // By dates alone the picture is the opposite one.
      expect(ids(aggregateChangelog(versions, 'a', 'b', logs).advisories).sort()).toEqual(['absent', 'had', 'no-packages', 'wrong-arch']);
    });

    const versionArb = fc.record({ version: fc.constantFrom('1', '2', '3'), release: fc.constantFrom('1', '2', '3') });
    const listArb = fc.uniqueArray(fc.record({ name: fc.constantFrom('p', 'q', 'r', 's'), v: versionArb }), { selector: (p) => p.name, maxLength: 4 })
      .map((items) => items.map((item) => pkg(item.name, item.v.version, item.v.release)));
    const advisoryArb = fc.array(fc.record({ name: fc.constantFrom('p', 'q', 'r', 's'), v: versionArb }), { maxLength: 3 });

    it('lists exactly the advisories the package diff proves, whatever their dates; the reverse pair mirrors it', () => {
      fc.assert(fc.property(listArb, listArb, fc.array(fc.tuple(advisoryArb, fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined })), { maxLength: 6 }), (oldList, newList, raw) => {
        const log = raw.map(([packages, date], i) => advisory(`X-${ i }`, date, packages.map((p) => ({ name: p.name, ...p.v }))));
        const forth = aggregateChangelog(versions, 'a', 'b', { b: log }, { a: oldList, b: newList });
        const back = aggregateChangelog(versions, 'b', 'a', { b: log }, { a: oldList, b: newList });
        const proven = log.filter((a) => a.packages.some((p) => {
          const at = (list: Package[]) => list.some((installed) => installed.name === p.name &&
            comparePackageVersions({ version: installed.version, release: installed.release }, p) >= 0);

          return at(newList) && !at(oldList);
        }));

        expect(ids(forth.advisories).sort()).toEqual(ids(proven).sort());
        expect(forth.advisories).toEqual(back.advisories);
        expect(forth.alreadyHad.every((a) => !proven.includes(log.find((l) => l.id === a.id)!))).toBe(true);
      }), { numRuns: 300 });
    });
  });
});

describe('advisoryDelivery', () => {
  it('matches any arch when the advisory names none', () => {
    const delivery = advisoryDelivery(advisory('x', 1, [{
      name: 'a', version: '1', release: '2', arch: ''
    }]), [pkg('a', '1', '1', 'noarch')], [pkg('a', '1', '2', 'noarch')]);

    expect(delivery).toEqual({
      delivered:  true,
      alreadyHad: false,
      proof:      [{
        name: 'a', arch: 'noarch', fixedIn: '1-2', before: '1-1', after: '1-2'
      }]
    });
  });
});

describe('comparePackageVersions and the epoch', () => {
  it('reads a missing epoch as 0', () => {
    const base = { version: '1.0', release: '1' };

    expect(comparePackageVersions({ ...base, epoch: '0' }, { ...base, epoch: '(none)' })).toBe(0);
    expect(comparePackageVersions({ ...base, epoch: 0 }, { ...base, epoch: '' })).toBe(0);
    expect(comparePackageVersions({ ...base, epoch: undefined }, { ...base, epoch: '0' })).toBe(0);
    expect(comparePackageVersions({ ...base, epoch: null }, { ...base, epoch: 0 })).toBe(0);
    expect(comparePackageVersions({ ...base, epoch: '1' }, { ...base, epoch: '(none)' })).toBe(1);
    expect(comparePackageVersions({ ...base, epoch: '2' }, { ...base, epoch: 10 })).toBe(-1);
  });

  it('orders text epochs as their numbers', () => {
    const missing = fc.constantFrom<string | number | undefined>('(none)', '', undefined, 0, '0');

    fc.assert(fc.property(fc.nat(20), fc.nat(20), missing, (a, b, none) => {
      const v = { version: '1', release: '1' };

      expect(comparePackageVersions({ ...v, epoch: String(a) }, { ...v, epoch: b })).toBe(Math.sign(a - b));
      expect(comparePackageVersions({ ...v, epoch: none }, { ...v, epoch: a })).toBe(a === 0 ? 0 : -1);
    }));
  });
});

describe('searchImages', () => {
  const index = { packages: PACKAGES, logs: LOGS };

  it('finds an image by a package version, and says which package matched', () => {
    const hits = searchImages(ALL, 'kernel-default-6.4.0-1.3', index);

    expect(hits.map((hit) => hit.version.name)).toEqual([B312]);
    expect(hits[0].matches).toEqual([{ field: 'package', text: 'kernel-default-6.4.0-1.3' }]);
    expect(searchImages(ALL, 'kernel-default-6.4.0-1.2', index).map((hit) => hit.version.name)).toEqual([B39, B38]);
  });

  it('finds images by package name, version and release prefixes, case-insensitive', () => {
    expect(searchImages(ALL, 'KERNEL-DEFAULT', index).map((hit) => hit.version.name)).toEqual([B312, B39, B38, B61]);
    expect(searchImages(ALL, 'kernel-default-6.12', index).map((hit) => hit.version.name)).toEqual([B61]);
    expect(searchImages(ALL, 'kernel', index)).toEqual([]);
  });

  it('finds an image by a CVE of its log', () => {
    const hits = searchImages(ALL, ' cve-2024-50302 ', index);

    expect(hits.map((hit) => hit.version.name)).toEqual([B312]);
    expect(hits[0].matches).toEqual([{
      field: 'cve', text: 'CVE-2024-50302', advisoryId: 'SUSE-SLE-Micro-6.1-2024-130'
    }]);
  });

  it('finds images by name, version and display name', () => {
    expect(searchImages(ALL, '3.12', index).map((hit) => hit.version.name)).toEqual([B312]);
    expect(searchImages(ALL, '3.12', index)[0].matches.map((m) => m.field)).toEqual(['name', 'version']);
    expect(searchImages(ALL, 'base 6.2', index).map((hit) => hit.version.name)).toEqual(['base-v2.3.0-6.1-iso', B61]);
    expect(searchImages(ALL, '  ', index)).toEqual([]);
  });
});

describe('imagesFixingCve', () => {
  const index = { packages: PACKAGES, logs: LOGS };

  it('gives per channel the first image that delivers the fix and every later one', () => {
    expect(imagesFixingCve(ALL, 'CVE-2024-50302', index)).toEqual([{
      namespace: 'fleet-default', channel: 'sl-micro-6.1-base', first: B312, images: [B312], evidence: 'packages'
    }, {
      namespace: 'fleet-default', channel: 'sl-micro-6.2-base', first: B61, images: [B61], evidence: 'packages'
    }]);
  });

  it('finds the first image by packages, even when a later log lists the advisory', () => {
    // CVE-2024-9681 (curl 8.9.1-slfo.1.1_1.2) is listed in the 3.8 log; 3.8 is the oldest image and has it.
    expect(imagesFixingCve(ALL, 'CVE-2024-9681', index)[0]).toEqual({
      namespace: 'fleet-default', channel: 'sl-micro-6.1-base', first: B38, images: [B312, B39, B38], evidence: 'packages'
    });
  });

  it('falls back to the logs without package lists, and finds nothing for an unknown CVE', () => {
    expect(imagesFixingCve(ALL, 'CVE-2025-9230', { logs: LOGS })).toEqual([{
      namespace: 'fleet-default', channel: 'sl-micro-6.2-base', first: B61, images: [B61], evidence: 'date'
    }]);
    // By dates alone the kernel fix (dated before 3.9) is never delivered: the guess the lists correct.
    expect(imagesFixingCve(V61, 'CVE-2024-50302', { logs: LOGS })).toEqual([]);
    expect(imagesFixingCve(ALL, 'CVE-1999-0001', index)).toEqual([]);
  });
});

describe('describeImageMove', () => {
  const [b312, b61] = [B312, B61].map((name) => toOSVersion(ALL.find((v) => (v.metadata as { name: string }).name === name)));

  it('reads flavour and release from the image reference', () => {
    expect(imageLine(b312)).toEqual({ flavour: 'base', release: '6.1' });
    expect(imageLine({ image: 'registry.suse.com/suse/sl-micro/6.2/kvm-os-container:2.3.0-6.1', displayName: '' })).toEqual({ flavour: 'kvm', release: '6.2' });
    expect(imageLine({ image: '%%IMG_REPO%%/x', displayName: 'SL Micro 6.0' })).toEqual({ flavour: '', release: '6.0' });
    expect(imageLine({ image: 'registry.example/os:v2.2.2-1', displayName: 'OS v2.2.2-1' })).toEqual({ flavour: '', release: '' });
  });

  it('says when a move crosses channels, releases or flavours', () => {
    expect(describeImageMove(b312, b61)).toMatchObject({
      direction: 'upgrade', crossChannel: true, releaseMove: true, flavourSwitch: false
    });
    const kvm = {
      ...b312, image: 'registry.suse.com/suse/sl-micro/6.1/kvm-os-container:2.2.0-3.12', channel: 'sl-micro-6.1-kvm'
    };

    expect(describeImageMove(b312, kvm)).toMatchObject({
      crossChannel: true, flavourSwitch: true, releaseMove: false, from: { flavour: 'base' }, to: { flavour: 'kvm' }
    });
    expect(describeImageMove(b312, b312).direction).toBe('same');
  });
});
