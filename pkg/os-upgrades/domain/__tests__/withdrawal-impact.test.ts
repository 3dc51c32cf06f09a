import { PREVIOUS_VERSION_ANNOTATION, SELECTOR_ANNOTATION, withdrawalImpact } from '../index';

function pool(name: string, pin: string, annotations: Record<string, string> = {}, spec: Record<string, unknown> = {}, namespace = 'fleet-default') {
  return {
    metadata: {
      name, namespace, annotations
    },
    spec: { managedOSVersionName: pin, ...spec }
  };
}

const v = (name: string, created: number, channel = 'ch') => ({
  name, namespace: 'fleet-default', channel, type: 'container', version: name, created, inSync: true, image: `registry.example/os:${ name }`
});
const VERSIONS = [v('v1', 1), v('v2', 2), v('v3', 3), v('other', 4, 'other-ch')];
const onChannel = (channel: string) => ({ [SELECTOR_ANNOTATION]: JSON.stringify({ channel }) });

describe('withdrawalImpact', () => {
  it('lists the pools pinned to the image with the way out each will be offered', () => {
    const pools = [pool('zeta', 'v3'), pool('alpha', 'v3', { [PREVIOUS_VERSION_ANNOTATION]: 'v2' }), pool('beta', 'v2')];

    expect(withdrawalImpact(pools, VERSIONS, 'fleet-default', 'v3', 10)).toEqual([
      {
        namespace: 'fleet-default', name: 'alpha', effect: { kind: 'pinned', wayOut: { kind: 'rollback', versionName: 'v2' } }
      },
      {
        namespace: 'fleet-default', name: 'zeta', effect: { kind: 'pinned', wayOut: { kind: 'approve', versionName: 'v2' } }
      },
    ]);
  });

  it('lists the pools whose selector picks the image now, with what it picks afterwards', () => {
    const pools = [pool('picks', 'v1', onChannel('ch')), pool('elsewhere', 'other', onChannel('other-ch'))];

    expect(withdrawalImpact(pools, VERSIONS, 'fleet-default', 'v3', 10)).toEqual([
      {
        namespace: 'fleet-default', name: 'picks', effect: { kind: 'selected', versionName: 'v2' }
      },
    ]);
    // Nothing else to pick: the selector picks no image afterwards.
    expect(withdrawalImpact([pool('picks', 'v1', onChannel('ch'))], [v('v3', 3)], 'fleet-default', 'v3', 10)).toEqual([
      {
        namespace: 'fleet-default', name: 'picks', effect: { kind: 'selected' }
      },
    ]);
  });

  it('leaves out pools of other namespaces, pools running a raw osImage and pools not running it', () => {
    const pools = [pool('other-ns', 'v3', {}, {}, 'fleet-local'), pool('raw', 'v3', {}, { osImage: 'registry.example/os:custom' }), pool('older', 'v1')];

    expect(withdrawalImpact(pools, VERSIONS, 'fleet-default', 'v3', 10)).toEqual([]);
  });

  it('offers no way out to a pool when every other image of its channel is withdrawn', () => {
    const withdrawn = {
      reason: 'r', by: 'a', at: '2025-01-01T00:00:00Z'
    };
    const versions = [{ ...v('v1', 1), withdrawn }, { ...v('v2', 2), withdrawn }, v('v3', 3)];

    expect(withdrawalImpact([pool('p', 'v3')], versions, 'fleet-default', 'v3', 10)).toEqual([
      {
        namespace: 'fleet-default', name: 'p', effect: { kind: 'pinned' }
      },
    ]);
  });
});
