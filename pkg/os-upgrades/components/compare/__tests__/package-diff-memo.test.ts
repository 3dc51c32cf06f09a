import { Package } from '../../../domain';
import { packageDiffOf } from '../package-diff-memo';

function pkg(name: string, version: string): Package {
  return {
    name, epoch: 0, version, release: '1', arch: 'x86_64', disturl: '', license: ''
  };
}

describe('packageDiffOf', () => {
  it('works out the diff of a pair of lists once, and another pair anew', () => {
    const older = [pkg('bash', '5.1')];
    const newer = [pkg('bash', '5.2')];
    const first = packageDiffOf(older, newer);

    expect(first.rows.map((row) => row.new)).toEqual(['bash.x86_64  5.2-1']);
    expect(packageDiffOf(older, newer)).toBe(first);
    expect(packageDiffOf(newer, older).rows.map((row) => row.change)).toEqual(['downgraded']);
    expect(packageDiffOf(older, [pkg('bash', '5.1')]).rows).toEqual([]);
  });
});
