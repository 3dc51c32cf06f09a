import { poolsPinnedTo } from '..';

const pool = (namespace: string, name: string, spec: Record<string, unknown>) => ({ metadata: { namespace, name }, spec });

describe('which pools run an image', () => {
  it('names the pools of the image\'s namespace pinned to it, sorted', () => {
    const pools = [
      pool('fleet-default', 'edge-munich', { managedOSVersionName: 'v1' }),
      pool('fleet-default', 'edge-berlin', { managedOSVersionName: 'v1' }),
      pool('other', 'elsewhere', { managedOSVersionName: 'v1' }),
      pool('fleet-default', 'newer', { managedOSVersionName: 'v2' }),
    ];

    expect(poolsPinnedTo(pools, 'fleet-default', 'v1')).toEqual(['edge-berlin', 'edge-munich']);
    expect(poolsPinnedTo(pools, 'fleet-default', 'v3')).toEqual([]);
  });

  it('does not count a pool whose raw osImage wins over its pin', () => {
    expect(poolsPinnedTo([pool('ns', 'raw', { managedOSVersionName: 'v1', osImage: 'registry/x:1' })], 'ns', 'v1')).toEqual([]);
  });
});
