import { poolsRevisionKey } from '../index';

const pool = (name: string, resourceVersion: string, namespace = 'fleet-default') => ({
  metadata: {
    name, namespace, resourceVersion
  }
});

describe('poolsRevisionKey', () => {
  it('changes when a pool is added, removed or written, and not otherwise', () => {
    const pools = [pool('a', '1'), pool('b', '2')];
    const key = poolsRevisionKey(pools);

    expect(poolsRevisionKey([pool('a', '1'), pool('b', '2')])).toBe(key);
    expect(poolsRevisionKey([...pools, pool('c', '3')])).not.toBe(key);
    expect(poolsRevisionKey([pools[0]])).not.toBe(key);
    expect(poolsRevisionKey([pool('a', '1'), pool('b', '5')])).not.toBe(key);
    expect(poolsRevisionKey([pool('a', '1'), pool('b', '2', 'fleet-local')])).not.toBe(key);
  });

  it('takes anything without failing', () => {
    expect(poolsRevisionKey([null, 'x', { metadata: 3 }])).toBe('/@,/@,/@');
  });
});
