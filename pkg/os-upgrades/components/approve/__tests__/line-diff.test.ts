import { diffLines, poolYamlLines } from '../line-diff';

describe('line diff', () => {
  it('marks a changed line as removed then added, and keeps the rest', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diffLines([], ['a'])).toEqual([{ kind: 'added', text: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ kind: 'removed', text: 'a' }]);
  });

  it('shows the annotations and spec of a pool, not its status', () => {
    const lines = poolYamlLines({
      metadata: { name: 'p', annotations: { a: '1' } }, spec: { managedOSVersionName: 'v1' }, status: { x: 1 }
    });

    expect(lines).toEqual(['metadata:', '  annotations:', '    a: \'1\'', 'spec:', '  managedOSVersionName: v1']);
  });
});
