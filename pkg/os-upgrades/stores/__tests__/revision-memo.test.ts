import { reactive, isProxy } from 'vue';
import { ObjectMemo, RecentValues, revisionKey } from '../revision-memo';

const object = (name: string, resourceVersion?: string) => ({
  metadata: {
    name, namespace: 'fleet-default', ...(resourceVersion ? { resourceVersion } : {})
  },
  spec: { n: 1 }
});

describe('ObjectMemo', () => {
  it('works a value out once per object, revision and inputs, from the raw object', () => {
    const memo = new ObjectMemo<number>();
    const live = reactive(object('p', '1'));
    const inputs = [['c1']];
    const seen: unknown[] = [];
    const compute = (obj: unknown) => {
      seen.push(obj);

      return (obj as { spec: { n: number } }).spec.n * 10;
    };

    expect(memo.get(live, inputs, compute)).toBe(10);
    expect(memo.get(live, inputs, compute)).toBe(10);
    expect(seen).toHaveLength(1);
    expect(isProxy(seen[0])).toBe(false);

    live.spec.n = 2;
    live.metadata.resourceVersion = '2';
    expect(memo.get(live, inputs, compute)).toBe(20);
    // Another input (by identity) works it out again.
    expect(memo.get(live, [['c1']], compute)).toBe(20);
    expect(seen).toHaveLength(3);
  });

  it('works the value out each time for an object without a resourceVersion', () => {
    const memo = new ObjectMemo<number>();
    const plain = object('p');
    let calls = 0;
    const compute = (obj: unknown) => {
      calls++;

      return (obj as { spec: { n: number } }).spec.n;
    };

    expect(memo.get(plain, [], compute)).toBe(1);
    plain.spec.n = 3;
    expect(memo.get(plain, [], compute)).toBe(3);
    expect(calls).toBe(2);
  });
});

describe('revisionKey', () => {
  it('changes when an object is written, added or removed, and is undefined when one has no resourceVersion', () => {
    const a = object('a', '1');
    const b = object('b', '5');
    const before = revisionKey([a, b]);

    expect(revisionKey([a, b])).toBe(before);
    expect(revisionKey([a, object('b', '6')])).not.toBe(before);
    expect(revisionKey([a])).not.toBe(before);
    expect(revisionKey([a, b, object('c', '1')])).not.toBe(before);
    expect(revisionKey([a, object('b')])).toBeUndefined();
  });
});

describe('RecentValues', () => {
  it('keeps the values of the most recent keys, and nothing without a key', () => {
    const recent = new RecentValues<string[]>(2);
    let calls = 0;
    const compute = () => {
      calls++;

      return [`v${ calls }`];
    };

    const first = recent.get('k1', compute);

    expect(recent.get('k1', compute)).toBe(first);
    expect(recent.get('k2', compute)).toEqual(['v2']);
    // k1 was kept beside k2; k3 then pushes out k2, the least recent.
    expect(recent.get('k1', compute)).toBe(first);
    expect(recent.get('k3', compute)).toEqual(['v3']);
    expect(recent.get('k2', compute)).toEqual(['v4']);
    expect(recent.get(undefined, compute)).toEqual(['v5']);
    expect(recent.get(undefined, compute)).toEqual(['v6']);
    expect(calls).toBe(6);
  });
});
