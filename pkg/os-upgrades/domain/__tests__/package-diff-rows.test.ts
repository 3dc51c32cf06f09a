import fc from 'fast-check';
import { readPackageFile } from '../../../../tests/support/fixtures';
import {
  diffPackages, Package, packageDiffRows, packageDiffToUnified, parsePackageList
} from '../index';

const list = (name: Parameters<typeof readPackageFile>[0]) => parsePackageList(readPackageFile(name));

function pkg(name: string, version: string, release = '1', arch = 'x86_64'): Package {
  return {
    name, epoch: 0, version, release, arch, disturl: '', license: ''
  };
}

describe('packageDiffRows', () => {
  it('puts each changed package of the real images on one row, old beside new', () => {
    const rows = packageDiffRows(diffPackages(list('base-v2.2.0-3.8-os'), list('base-v2.2.0-3.12-os')));

    expect(rows[0]).toEqual({
      key: '0', change: 'upgraded', old: 'SL-Micro-release.x86_64  6.1-slfo.1.10.1', new: 'SL-Micro-release.x86_64  6.1-slfo.1.10.2'
    });
    expect(rows).toContainEqual(expect.objectContaining({
      change: 'upgraded', old: 'kernel-default.x86_64  6.4.0-1.2', new: 'kernel-default.x86_64  6.4.0-1.3'
    }));
  });

  it('leaves the missing side empty and orders rows by name, arch and version', () => {
    const rows = packageDiffRows(diffPackages(
      [pkg('zlib', '1.3'), pkg('bash', '5.2'), pkg('curl', '8.6', '1', 'noarch'), pkg('curl', '8.6')],
      [pkg('zlib', '1.2'), pkg('attr', '2.5'), pkg('curl', '8.7'), pkg('curl', '8.6', '1', 'noarch')],
    ));

    expect(rows.map((row) => [row.change, row.old, row.new])).toEqual([
      ['added', '', 'attr.x86_64  2.5-1'],
      ['removed', 'bash.x86_64  5.2-1', ''],
      ['upgraded', 'curl.x86_64  8.6-1', 'curl.x86_64  8.7-1'],
      ['downgraded', 'zlib.x86_64  1.3-1', 'zlib.x86_64  1.2-1'],
    ]);
  });

  it('keeps every line on one row', () => {
    const [row] = packageDiffRows(diffPackages([], [pkg('evil\nname', '1\r')]));

    expect(row.new).toBe('evil name.x86_64  1 -1');
  });

  it('holds exactly the changed lines of the unified diff, with unique keys', () => {
    const packageArb = fc.record({
      name:    fc.constantFrom('a', 'b', 'kernel', 'zz'),
      epoch:   fc.constant(0),
      version: fc.constantFrom('1', '2', '3'),
      release: fc.constantFrom('1', '2'),
      arch:    fc.constantFrom('x86_64', 'noarch'),
      disturl: fc.constant(''),
      license: fc.constant(''),
    });

    fc.assert(fc.property(fc.array(packageArb, { maxLength: 12 }), fc.array(packageArb, { maxLength: 12 }), (older, newer) => {
      const diff = diffPackages(older, newer);
      const rows = packageDiffRows(diff);
      const unified = packageDiffToUnified(diff, 'old', 'new').split('\n').slice(2);
      const lines = (mark: string) => unified.filter((line) => line.startsWith(mark)).map((line) => line.slice(1)).sort();

      expect(rows.filter((row) => row.old).map((row) => row.old).sort()).toEqual(lines('-'));
      expect(rows.filter((row) => row.new).map((row) => row.new).sort()).toEqual(lines('+'));
      expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
    }), { numRuns: 300 });
  });
});
