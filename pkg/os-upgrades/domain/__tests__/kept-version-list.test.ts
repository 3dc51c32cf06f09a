import { keptListHolds, KeptVersionList, toOSVersion } from '..';

function kept(revision: string, names: string[]): KeptVersionList {
  return {
    revision,
    versions: names.map((name, i) => ({ resourceVersion: String(i + 1), version: toOSVersion({ metadata: { name, namespace: 'ns' } }) })),
  };
}

describe('rule "Kept version list"', () => {
  it('holds while the list has the revision it was read at and as many versions', () => {
    expect(keptListHolds(kept('41', ['a', 'b']), { revision: '41', count: 2 })).toBe(true);
  });

  it('does not hold once any version of the type was written (the revision moved)', () => {
    expect(keptListHolds(kept('41', ['a', 'b']), { revision: '42', count: 2 })).toBe(false);
  });

  it('does not hold when the count differs, nor without a revision or a kept list', () => {
    expect(keptListHolds(kept('41', ['a', 'b']), { revision: '41', count: 3 })).toBe(false);
    expect(keptListHolds(kept('', ['a']), { revision: '', count: 1 })).toBe(false);
    expect(keptListHolds(kept('41', ['a']), { count: 1 })).toBe(false);
    expect(keptListHolds(undefined, { revision: '41', count: 0 })).toBe(false);
  });
});
