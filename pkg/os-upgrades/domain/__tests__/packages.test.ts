import { parse as parseDiff } from 'diff2html';
import fc from 'fast-check';
import { readPackageFile } from '../../../../tests/support/fixtures';
import { seededRandom, shuffled, syntheticPackageList } from '../../../../tests/support/synthetic';
import {
  applyPackageDiff, comparePackages, comparePackageVersions, diffPackages, formatPackageVersion, MAX_PACKAGE_LIST_ENTRIES, Package,
  PackageListFormatError, packageDiffToUnified, parsePackageList, rpmvercmp
} from '../index';

const list = (name: Parameters<typeof readPackageFile>[0]) => parsePackageList(readPackageFile(name));
const evr = (pkg: Package) => formatPackageVersion(pkg);

function pkg(name: string, version: string, release = '1', epoch = 0, arch = 'x86_64'): Package {
  return {
    name, epoch, version, release, arch, disturl: '', license: ''
  };
}

/** Same packages by (name, arch) and RPM-equal versions, whatever the order. */
function expectSameLists(actual: Package[], expected: Package[]): void {
  const a = actual.slice().sort(comparePackages);
  const b = expected.slice().sort(comparePackages);

  expect(a.map((p) => `${ p.name }.${ p.arch }`)).toEqual(b.map((p) => `${ p.name }.${ p.arch }`));
  a.forEach((p, i) => expect(comparePackageVersions(p, b[i])).toBe(0));
}

describe('parsePackageList', () => {
  it('reads the real package lists', () => {
    const packages = list('base-v2.2.0-3.8-os');

    expect(packages).toHaveLength(248);
    expect(packages.find((pkg) => pkg.name === 'aaa_base')).toEqual({
      name:    'aaa_base',
      epoch:   0,
      version: '84.87+git20240906.742565b',
      release: 'slfo.1.1_1.2',
      arch:    'x86_64',
      disturl: 'obs://build.suse.de/SUSE:SLFO:1.1:Build/standard/d86221d86f148859bebf93dfe6b23e26-aaa_base',
      license: 'GPL-2.0-or-later',
    });
    expect(list('base-v2.3.0-6.1-os')).toHaveLength(262);
  });

  it('gives the packages sorted by name, lines of one name in their file order', () => {
    const packages = parsePackageList('zlib|(none)|1|1|x86_64||\nkernel|(none)|6.4|2|x86_64||\nNetworkManager|(none)|1|1|x86_64||\nkernel|(none)|6.4|1|x86_64||\n');

    expect(packages.map((pkg) => `${ pkg.name }-${ pkg.release }`)).toEqual(['NetworkManager-1', 'kernel-2', 'kernel-1', 'zlib-1']);
    const real = list('base-v2.2.0-3.8-os').map((pkg) => pkg.name);

    expect(real).toEqual(real.slice().sort());
  });

  it('reads epochs, CRLF and blank lines', () => {
    expect(parsePackageList('a|2|1.0|1|noarch|u|MIT\r\n\n  \nb|(none)|1|1|x86_64||\n')).toEqual([
      {
        name: 'a', epoch: 2, version: '1.0', release: '1', arch: 'noarch', disturl: 'u', license: 'MIT'
      },
      {
        name: 'b', epoch: 0, version: '1', release: '1', arch: 'x86_64', disturl: '', license: ''
      },
    ]);
    expect(parsePackageList('')).toEqual([]);
  });

  it.each([
    ['a|b|c', 'badLine'],
    ['a|(none)|1|1|x86_64|u|MIT|extra', 'badLine'],
    ['|(none)|1|1|x86_64|u|MIT', 'badLine'],
    ['a|x|1|1|x86_64|u|MIT', 'badEpoch'],
    ['a|-1|1|1|x86_64|u|MIT', 'badEpoch'],
  ])('refuses %j (%s) with the line number', (text, reason) => {
    expect(() => parsePackageList(`ok|(none)|1|1|x86_64|u|MIT\n${ text }`)).toThrow(PackageListFormatError);
    try {
      parsePackageList(`ok|(none)|1|1|x86_64|u|MIT\n${ text }`);
    } catch (e) {
      expect(e).toMatchObject({
        reason, values: { line: 2 }, key: `osUpgrades.changelog.packageListError.${ reason }`
      });
    }
  });

  it('enforces its limits', () => {
    expect(() => parsePackageList(42)).toThrow(PackageListFormatError);
    expect(() => parsePackageList(`${ 'a|(none)|1|1|x|u|M\n'.repeat(MAX_PACKAGE_LIST_ENTRIES + 1) }`)).toThrow(/over 50000 packages/);
    expect(() => parsePackageList('x'.repeat(6 * 1024 * 1024))).toThrow(/bytes/);
  });

  it('throws nothing but PackageListFormatError on random input', () => {
    const line = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('(none)', '1', '')), { minLength: 5, maxLength: 8 }).map((fields) => fields.join('|'));

    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(line).map((lines) => lines.join('\n')), fc.anything()), (input) => {
      try {
        parsePackageList(input).forEach((p) => expect(Number.isInteger(p.epoch)).toBe(true));
      } catch (e) {
        expect(e).toBeInstanceOf(PackageListFormatError);
      }
    }), { numRuns: 500 });
  });
});

describe('rpmvercmp', () => {
  // Vectors from rpm's own test suite (tests/rpmvercmp.at).
  it.each([
    ['1.0', '1.0', 0], ['1.0', '2.0', -1], ['2.0', '1.0', 1], ['2.0.1', '2.0.1', 0], ['2.0', '2.0.1', -1], ['2.0.1', '2.0', 1],
    ['2.0.1a', '2.0.1a', 0], ['2.0.1a', '2.0.1', 1], ['2.0.1', '2.0.1a', -1], ['5.5p1', '5.5p1', 0], ['5.5p1', '5.5p2', -1],
    ['5.5p2', '5.5p1', 1], ['5.5p10', '5.5p10', 0], ['5.5p1', '5.5p10', -1], ['5.5p10', '5.5p1', 1], ['10xyz', '10.1xyz', -1],
    ['10.1xyz', '10xyz', 1], ['xyz10', 'xyz10', 0], ['xyz10', 'xyz10.1', -1], ['xyz10.1', 'xyz10', 1], ['xyz.4', 'xyz.4', 0],
    ['xyz.4', '8', -1], ['8', 'xyz.4', 1], ['xyz.4', '2', -1], ['2', 'xyz.4', 1], ['5.5p2', '5.6p1', -1], ['5.6p1', '5.5p2', 1],
    ['5.6p1', '6.5p1', -1], ['6.5p1', '5.6p1', 1], ['6.0.rc1', '6.0', 1], ['6.0', '6.0.rc1', -1], ['10b2', '10a1', 1],
    ['10a2', '10b2', -1], ['1.0aa', '1.0aa', 0], ['1.0a', '1.0aa', -1], ['1.0aa', '1.0a', 1], ['10.0001', '10.0001', 0],
    ['10.0001', '10.1', 0], ['10.1', '10.0001', 0], ['10.0001', '10.0039', -1], ['10.0039', '10.0001', 1], ['4.999.9', '5.0', -1],
    ['5.0', '4.999.9', 1], ['20101121', '20101121', 0], ['20101121', '20101122', -1], ['20101122', '20101121', 1], ['2_0', '2_0', 0],
    ['2.0', '2_0', 0], ['2_0', '2.0', 0], ['a', 'a', 0], ['a+', 'a+', 0], ['a+', 'a_', 0], ['a_', 'a+', 0], ['+a', '+a', 0],
    ['+a', '_a', 0], ['_a', '+a', 0], ['+_', '+_', 0], ['_+', '+_', 0], ['_+', '_', 0], ['+', '_', 0], ['_', '+', 0],
    ['1.0~rc1', '1.0~rc1', 0], ['1.0~rc1', '1.0', -1], ['1.0', '1.0~rc1', 1], ['1.0~rc1', '1.0~rc2', -1], ['1.0~rc2', '1.0~rc1', 1],
    ['1.0~rc1~git123', '1.0~rc1~git123', 0], ['1.0~rc1~git123', '1.0~rc1', -1], ['1.0~rc1', '1.0~rc1~git123', 1],
    ['1.0^', '1.0^', 0], ['1.0^', '1.0', 1], ['1.0', '1.0^', -1], ['1.0^git1', '1.0^git1', 0], ['1.0^git1', '1.0', 1],
    ['1.0', '1.0^git1', -1], ['1.0^git1', '1.0^git2', -1], ['1.0^git2', '1.0^git1', 1], ['1.0^git1', '1.01', -1], ['1.01', '1.0^git1', 1],
    ['1.0^20160101', '1.0^20160101', 0], ['1.0^20160101', '1.0.1', -1], ['1.0.1', '1.0^20160101', 1],
    ['1.0^20160101^git1', '1.0^20160101^git1', 0], ['1.0^20160102', '1.0^20160101^git1', 1], ['1.0^20160101^git1', '1.0^20160102', -1],
    ['1.0~rc1^git1', '1.0~rc1^git1', 0], ['1.0~rc1^git1', '1.0~rc1', 1], ['1.0~rc1', '1.0~rc1^git1', -1],
    ['1.0^git1~pre', '1.0^git1~pre', 0], ['1.0^git1', '1.0^git1~pre', 1], ['1.0^git1~pre', '1.0^git1', -1],
    ['1b.fc17', '1b.fc17', 0], ['1b.fc17', '1.fc17', -1], ['1.fc17', '1b.fc17', 1], ['1g.fc17', '1g.fc17', 0], ['1g.fc17', '1.fc17', 1],
    ['1.fc17', '1g.fc17', -1],
  ])('%s vs %s = %i', (a, b, expected) => {
    expect(rpmvercmp(a as string, b as string)).toBe(expected);
  });

  it('orders the SUSE releases seen in the fixtures', () => {
    expect(rpmvercmp('slfo.1.10.1', 'slfo.1.10.2')).toBe(-1);
    expect(rpmvercmp('slfo.1.1_1.2', '160000.2.2')).toBe(-1);
    expect(rpmvercmp('1.2', '1.3')).toBe(-1);
  });

  it('is antisymmetric on random strings', () => {
    const text = fc.string({ unit: fc.constantFrom(...'019az.~^_+-'.split('')), maxLength: 8 });

    fc.assert(fc.property(text, text, (a, b) => {
      expect(rpmvercmp(a, b) + rpmvercmp(b, a)).toBe(0);
    }), { numRuns: 2000 });
  });
});

describe('comparePackageVersions', () => {
  it('compares epoch, then version, then release', () => {
    expect(comparePackageVersions({
      epoch: 1, version: '1.0', release: '1'
    }, {
      epoch: 0, version: '9.9', release: '9'
    })).toBe(1);
    expect(comparePackageVersions({ version: '1.0', release: '2' }, {
      epoch: 0, version: '1.0', release: '10'
    })).toBe(-1);
    expect(comparePackageVersions({ version: '1.1', release: '1' }, { version: '1.0', release: '99' })).toBe(1);
    expect(comparePackageVersions({ version: '1.0', release: '1' }, { version: '1.0', release: '1' })).toBe(0);
  });
});

describe('diffPackages (rule "Package diff")', () => {
  it('finds exactly the two upgrades from 3.8 to 3.12 although the lines moved', () => {
    const diff = diffPackages(list('base-v2.2.0-3.8-os'), list('base-v2.2.0-3.12-os'));

    expect(diff.upgraded.map((change) => [change.name, change.arch, change.from.release, change.to.release])).toEqual([
      ['SL-Micro-release', 'x86_64', 'slfo.1.10.1', 'slfo.1.10.2'],
      ['kernel-default', 'x86_64', '1.2', '1.3'],
    ]);
    expect(diff).toMatchObject({
      added: [], removed: [], downgraded: [], unchanged: 246
    });
  });

  it('counts the 6.1 → 6.2 jump: 31 added, 17 removed, 231 changed', () => {
    const diff = diffPackages(list('base-v2.2.0-3.12-os'), list('base-v2.3.0-6.1-os'));

    expect(diff.added).toHaveLength(31);
    expect(diff.removed).toHaveLength(17);
    expect(diff.upgraded.length + diff.downgraded.length).toBe(231);
    expect(diff.downgraded).toHaveLength(0);
    expect(diff.unchanged).toBe(0);
    expect(diff.added.map((p) => p.name)).toContain('audit-rules');
  });

  it('reverses: downgrades are the upgrades the other way round', () => {
    const diff = diffPackages(list('base-v2.2.0-3.12-os'), list('base-v2.2.0-3.8-os'));

    expect(diff.downgraded.map((change) => change.name)).toEqual(['SL-Micro-release', 'kernel-default']);
    expect(diff.upgraded).toEqual([]);
  });

  it('keys by (name, arch) and sorts every list by name then arch', () => {
    const diff = diffPackages(
      [pkg('b', '1'), pkg('a', '1', '1', 0, 'x86_64'), pkg('a', '1', '1', 0, 'noarch')],
      [pkg('a', '2', '1', 0, 'x86_64'), pkg('a', '1', '1', 0, 'aarch64'), pkg('c', '1'), pkg('a', '1', '1', 1, 'noarch')],
    );

    expect(diff.added.map((p) => `${ p.name }.${ p.arch }`)).toEqual(['a.aarch64', 'c.x86_64']);
    expect(diff.removed.map((p) => `${ p.name }.${ p.arch }`)).toEqual(['b.x86_64']);
    expect(diff.upgraded.map((c) => `${ c.name }.${ c.arch } ${ evr(c.from) } → ${ evr(c.to) }`)).toEqual(['a.noarch 1-1 → 1:1-1', 'a.x86_64 1-1 → 2-1']);
  });

  it('matches a package installed in several versions (kernels) version by version', () => {
    const diff = diffPackages(
      [pkg('kernel-default', '6.4.0', '1.2'), pkg('kernel-default', '6.4.0', '1.3')],
      [pkg('kernel-default', '6.4.0', '1.3'), pkg('kernel-default', '6.4.0', '1.4')],
    );

    expect(diff.unchanged).toBe(1);
    expect(diff.upgraded.map((c) => `${ evr(c.from) } → ${ evr(c.to) }`)).toEqual(['6.4.0-1.2 → 6.4.0-1.4']);
  });

  const packageArb = fc.record({
    name:    fc.constantFrom('a', 'b', 'c', 'kernel', 'SL-Micro-release', 'zz'),
    epoch:   fc.constantFrom(0, 0, 0, 1),
    version: fc.string({
      unit: fc.constantFrom(...'0129az.~^_'.split('')), minLength: 1, maxLength: 5
    }),
    release: fc.string({ unit: fc.constantFrom(...'019z._'.split('')), maxLength: 4 }),
    arch:    fc.constantFrom('x86_64', 'noarch'),
    disturl: fc.constant('obs://x'),
    license: fc.constant('MIT'),
  });

  it('gives the newer list when applied to the older one', () => {
    fc.assert(fc.property(fc.array(packageArb, { maxLength: 20 }), fc.array(packageArb, { maxLength: 20 }), (older, newer) => {
      const diff = diffPackages(older, newer);

      expectSameLists(applyPackageDiff(older, diff), newer);
      expect(diff.added.length + diff.upgraded.length + diff.downgraded.length + diff.unchanged).toBe(newer.length);
      expect(diff.removed.length + diff.upgraded.length + diff.downgraded.length + diff.unchanged).toBe(older.length);
      diff.upgraded.forEach((c) => expect(comparePackageVersions(c.to, c.from)).toBe(1));
      diff.downgraded.forEach((c) => expect(comparePackageVersions(c.to, c.from)).toBe(-1));
    }), { numRuns: 500 });
  });

  it('gives the same diff whatever the line order', () => {
    fc.assert(fc.property(fc.array(packageArb, { maxLength: 15 }), fc.array(packageArb, { maxLength: 15 }), fc.integer(), (older, newer, seed) => {
      const random = seededRandom(seed);

      expect(diffPackages(shuffled(random, older), shuffled(random, newer))).toEqual(diffPackages(older, newer));
    }));
  });

  it('works on synthetic lists', () => {
    const older = parsePackageList(syntheticPackageList(500, 'bench', 10));
    const newer = parsePackageList(syntheticPackageList(500, 'bench', 11));
    const diff = diffPackages(older, newer);

    expectSameLists(applyPackageDiff(older, diff), newer);
    expect(diff.unchanged).toBeGreaterThan(480);
    expect(diff.upgraded.length + diff.added.length + diff.removed.length).toBeGreaterThan(0);
  });
});

/** Checks a unified diff's structure: header counts match the lines, hunks follow each other. */
function checkUnified(text: string): { minus: string[]; plus: string[]; hunks: number } {
  const lines = text.split('\n');
  const minus: string[] = [];
  const plus: string[] = [];
  let hunks = 0;
  let lastOldEnd = 0;
  let i = 2;

  expect(lines[0]).toMatch(/^--- a\//);
  expect(lines[1]).toMatch(/^\+\+\+ b\//);
  expect(lines[lines.length - 1]).toBe('');
  while (i < lines.length - 1) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[i]);

    expect(header).not.toBeNull();
    const [oldStart, oldCount] = [Number(header![1]), Number(header![2])];
    let oldSeen = 0;
    let newSeen = 0;

    expect(oldStart).toBeGreaterThanOrEqual(lastOldEnd);
    hunks++;
    i++;
    while (i < lines.length - 1 && !lines[i].startsWith('@@')) {
      const mark = lines[i][0];

      expect([' ', '-', '+']).toContain(mark);
      oldSeen += mark === '+' ? 0 : 1;
      newSeen += mark === '-' ? 0 : 1;
      (mark === '-' ? minus : mark === '+' ? plus : []).push(lines[i].slice(1));
      i++;
    }
    expect(oldSeen).toBe(oldCount);
    expect(newSeen).toBe(Number(header![4]));
    lastOldEnd = oldStart + oldCount;
  }

  return {
    minus, plus, hunks
  };
}

describe('packageDiffToUnified', () => {
  it('shows only the changed packages, with context, as diff2html reads it', () => {
    const diff = diffPackages(list('base-v2.2.0-3.8-os'), list('base-v2.2.0-3.12-os'));
    const text = packageDiffToUnified(diff, 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os');

    expect(text).toBe([
      '--- a/base-v2.2.0-3.8-os',
      '+++ b/base-v2.2.0-3.12-os',
      '@@ -1,6 +1,6 @@',
      ' NetworkManager.x86_64  1.42.6-slfo.1.1_1.2',
      ' NetworkManager-branding-SLE.noarch  42.1-slfo.1.1_1.2',
      '-SL-Micro-release.x86_64  6.1-slfo.1.10.1',
      '+SL-Micro-release.x86_64  6.1-slfo.1.10.2',
      ' aaa_base.x86_64  84.87+git20240906.742565b-slfo.1.1_1.2',
      ' alts.x86_64  1.2+30.a5431e9-slfo.1.1_1.3',
      ' audit.x86_64  3.1.1-slfo.1.1_1.2',
      '@@ -58,7 +58,7 @@',
      ' iproute2.x86_64  6.3-slfo.1.1_1.2',
      ' iputils.x86_64  20221126-slfo.1.1_1.2',
      ' kbd.x86_64  2.6.4-slfo.1.1_1.3',
      '-kernel-default.x86_64  6.4.0-1.2',
      '+kernel-default.x86_64  6.4.0-1.3',
      ' kmod.x86_64  32-slfo.1.1_1.2',
      ' krb5.x86_64  1.21.3-slfo.1.1_1.2',
      ' libacl1.x86_64  2.3.1-slfo.1.1_1.3',
      '',
    ].join('\n'));
    const [file] = parseDiff(text);

    expect(file).toMatchObject({
      oldName: 'base-v2.2.0-3.8-os', newName: 'base-v2.2.0-3.12-os', addedLines: 2, deletedLines: 2
    });
    expect(file.blocks).toHaveLength(2);
  });

  it('covers every change of the 6.1 → 6.2 jump', () => {
    const diff = diffPackages(list('base-v2.2.0-3.12-os'), list('base-v2.3.0-6.1-os'));
    const { minus, plus } = checkUnified(packageDiffToUnified(diff, 'a', 'b'));

    expect(minus).toHaveLength(17 + 231);
    expect(plus).toHaveLength(31 + 231);
  });

  it('shows the epoch, has no hunk when nothing changed, and keeps labels on one line', () => {
    const diff = diffPackages([pkg('a', '1.0', '1', 0)], [pkg('a', '1.0', '1', 2)]);

    expect(packageDiffToUnified(diff, 'x', 'y')).toBe('--- a/x\n+++ b/y\n@@ -1,1 +1,1 @@\n-a.x86_64  1.0-1\n+a.x86_64  2:1.0-1\n');
    expect(packageDiffToUnified(diffPackages([pkg('a', '1')], [pkg('a', '1')]), 'x', 'y')).toBe('--- a/x\n+++ b/y\n');
    expect(packageDiffToUnified(diffPackages([], []), 'evil\n+++ b/z', 'y').split('\n')[0]).toBe('--- a/evil +++ b/z');
  });

  it('is a well-formed diff of exactly the changes for any pair of lists', () => {
    const name = fc.constantFrom(...'abcdefghijklmnop'.split(''));
    const listArb = fc.uniqueArray(fc.record({ name, version: fc.constantFrom('1', '2', '3') }), { selector: (p) => p.name, maxLength: 16 })
      .map((items) => items.map((item) => pkg(item.name, item.version)));

    fc.assert(fc.property(listArb, listArb, fc.integer({ min: 0, max: 4 }), (older, newer, context) => {
      const diff = diffPackages(older, newer);
      const { minus, plus } = checkUnified(packageDiffToUnified(diff, 'old', 'new', context));

      expect(minus).toHaveLength(diff.removed.length + diff.upgraded.length + diff.downgraded.length);
      expect(plus).toHaveLength(diff.added.length + diff.upgraded.length + diff.downgraded.length);
    }), { numRuns: 300 });
  });
});
