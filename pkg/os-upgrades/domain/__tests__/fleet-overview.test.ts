import fc from 'fast-check';
import {
  applyWithdrawals, ClusterInput, HISTORY_ANNOTATION, imageTimeline, nodeRolloutRows, poolsByImage, PREVIOUS_VERSION_ANNOTATION, promotionChains, PROMOTE_FROM_ANNOTATION, RolloutTarget,
  planPoolWrite, SELECTOR_ANNOTATION, soakNodes, WITHDRAWN_ANNOTATION, withdrawnPin
} from '../index';

function pool(name: string, pin: string, annotations: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  return {
    metadata: {
      name, namespace: 'fleet-default', annotations, ...extra
    },
    spec: { managedOSVersionName: pin },
  };
}

const from = (source: string) => ({ [PROMOTE_FROM_ANNOTATION]: `fleet-default/${ source }` });

describe('promotionChains', () => {
  it('orders each chain from its first source to its last pool', () => {
    const pools = [pool('production', 'a', from('staging')), pool('canary', 'a'), pool('staging', 'a', from('canary')), pool('alone', 'a')];

    expect(promotionChains(pools)).toEqual([['fleet-default/canary', 'fleet-default/staging', 'fleet-default/production']]);
  });

  it('branches when two pools promote from one source, and ignores missing sources', () => {
    const pools = [pool('canary', 'a'), pool('b', 'a', from('canary')), pool('c', 'a', from('canary')), pool('d', 'a', from('gone'))];

    expect(promotionChains(pools)).toEqual([
      ['fleet-default/canary', 'fleet-default/b'],
      ['fleet-default/canary', 'fleet-default/c'],
    ]);
  });

  it('cuts a cycle where it closes, so it never loops', () => {
    const pools = [pool('a', 'x', from('b')), pool('b', 'x', from('a'))];

    expect(promotionChains(pools)).toEqual([['fleet-default/a', 'fleet-default/b']]);
  });

  it('property: every chain link is a promote-from of a listed pool, and no pool repeats in a chain', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.option(fc.integer({ min: 0, max: 5 }))), { maxLength: 8 }), (links) => {
      const byName = new Map<string, string | null>();

      links.forEach(([name, source]) => byName.set(`p${ name }`, source === null ? null : `p${ source }`));
      const pools = [...byName].map(([name, source]) => pool(name, 'x', source ? from(source) : {}));

      for (const chain of promotionChains(pools)) {
        expect(new Set(chain).size).toBe(chain.length);
        for (let i = 1; i < chain.length; i++) {
          expect(`fleet-default/${ byName.get(chain[i].split('/')[1]) }`).toBe(chain[i - 1]);
        }
      }
    }));
  });
});

describe('imageTimeline', () => {
  const history = JSON.stringify([
    {
      kind: 'approve', from: 'v1', to: 'v2', by: 'admin', at: '2025-01-02T00:00:00Z', comment: ''
    },
    {
      kind: 'rollback', from: 'v2', to: 'v1', by: 'admin', at: '2025-01-03T00:00:00Z', comment: ''
    },
  ]);
  const created = { creationTimestamp: '2025-01-01T00:00:00Z' };
  const t = (iso: string) => Date.parse(iso) / 1000;

  it('gives each image the pool was pinned to, from the creation to now', () => {
    expect(imageTimeline(pool('p', 'v1', { [HISTORY_ANNOTATION]: history }, created), t('2025-01-04T00:00:00Z'))).toEqual([
      {
        version: 'v1', from: t('2025-01-01T00:00:00Z'), to: t('2025-01-02T00:00:00Z')
      },
      {
        version: 'v2', from: t('2025-01-02T00:00:00Z'), to: t('2025-01-03T00:00:00Z'), kind: 'approve'
      },
      {
        version: 'v1', from: t('2025-01-03T00:00:00Z'), to: t('2025-01-04T00:00:00Z'), kind: 'rollback'
      },
    ]);
  });

  it('without a history, shows the current pin only; without a pin, nothing', () => {
    expect(imageTimeline(pool('p', 'v1', {}, created), t('2025-01-04T00:00:00Z'))).toEqual([{
      version: 'v1', from: t('2025-01-01T00:00:00Z'), to: t('2025-01-04T00:00:00Z')
    }]);
    expect(imageTimeline(pool('p', ''), 100)).toEqual([]);
  });

  it('never gives a negative span, whatever the times say', () => {
    const odd = JSON.stringify([{
      kind: 'approve', from: 'v1', to: 'v2', by: 'a', at: '2030-01-01T00:00:00Z', comment: ''
    }, {
      kind: 'approve', from: 'v2', to: 'v3', by: 'a', at: 'never', comment: ''
    }]);

    for (const span of imageTimeline(pool('p', 'v2', { [HISTORY_ANNOTATION]: odd }, created), t('2025-01-04T00:00:00Z'))) {
      expect(span.to).toBeGreaterThanOrEqual(span.from);
    }
  });
});

describe('poolsByImage', () => {
  it('counts the pools of each pinned image, most first, unpinned last', () => {
    expect(poolsByImage([pool('a', 'v1'), pool('b', 'v2'), pool('c', 'v2'), pool('d', '')])).toEqual([
      { version: 'v2', pools: ['fleet-default/b', 'fleet-default/c'] },
      { version: 'v1', pools: ['fleet-default/a'] },
      { version: '', pools: ['fleet-default/d'] },
    ]);
  });
});

describe('soakNodes', () => {
  const TARGET: RolloutTarget = {
    pool: 'canary', image: 'registry.example/os/base:2.2.0-3.12', tag: '2.2.0-3.12'
  };
  const READY = '2025-01-01T00:00:00Z';
  const readCluster = (nodes: unknown[]): ClusterInput => ({
    cluster:   'c',
    clusterId: 'c-1',
    reading:   {
      kind: 'read', plans: [], jobs: [], nodes
    }
  });
  // As a real node reports it: the distribution's name, and the tag Elemental's label gives.
  const node = (name: string, tag: string) => ({
    metadata: { name, labels: { 'elemental.cattle.io/tag': tag } },
    status:   {
      conditions: [{
        type: 'Ready', status: 'True', lastTransitionTime: READY
      }],
      nodeInfo: { osImage: 'SUSE Linux Micro 6.1' }
    },
  });

  it('counts an updated node as running its image since it last became Ready', () => {
    expect(nodeRolloutRows(TARGET, readCluster([node('n1', '2.2.0-3.12')]))[0].since).toBe(Date.parse(READY) / 1000);
    expect(soakNodes(TARGET, [readCluster([node('n1', '2.2.0-3.12'), node('n2', '2.2.0-3.9')])])).toEqual([
      {
        node: 'c-1/n1', image: '', state: 'updated', failed: false, since: Date.parse(READY) / 1000
      },
      {
        node: 'c-1/n2', image: '', state: 'waiting', failed: false
      },
    ]);
  });

  it('is unknown while a targeted cluster cannot be read', () => {
    expect(soakNodes(TARGET, [readCluster([]), {
      cluster: 'd', clusterId: 'd-1', reading: { kind: 'loading' }
    }])).toBeUndefined();
  });
});

describe('withdrawnPin', () => {
  const v = (name: string, created: number) => ({
    name, namespace: 'fleet-default', channel: 'ch', type: 'container', version: name, created, inSync: true, image: `registry.example/os:${ name }`
  });
  const channel = (withdrawn: Record<string, unknown>) => ({
    metadata: {
      name: 'ch', namespace: 'fleet-default', annotations: { [WITHDRAWN_ANNOTATION]: JSON.stringify(withdrawn) }
    }
  });
  const gone = {
    reason: 'boot loop', by: 'admin', at: '2025-01-01T00:00:00Z'
  };
  const versions = applyWithdrawals([v('v1', 1), v('v2', 2), v('v3', 3)], [channel({ v2: gone })]);

  it('offers the newest usable image of the channel to a pool pinned by name', () => {
    expect(withdrawnPin(pool('p', 'v2'), versions, 10)).toMatchObject({ version: { name: 'v2', withdrawn: gone }, wayOut: { kind: 'approve', versionName: 'v3' } });
  });

  it('offers the selector\'s pick, else a roll back to a usable previous pin, else an older image', () => {
    const selector = { [SELECTOR_ANNOTATION]: '{"channel":"ch"}' };

    expect(withdrawnPin(pool('p', 'v2', selector), versions, 10)?.wayOut).toEqual({ kind: 'approve', versionName: 'v3' });
    const onlyOld = applyWithdrawals([v('v1', 1), v('v2', 2), v('v3', 3)], [channel({ v2: gone, v3: gone })]);

    expect(withdrawnPin(pool('p', 'v2', { [PREVIOUS_VERSION_ANNOTATION]: 'v1' }), onlyOld, 10)?.wayOut).toEqual({ kind: 'rollback', versionName: 'v1' });
    expect(withdrawnPin(pool('p', 'v2'), onlyOld, 10)?.wayOut).toEqual({ kind: 'approve', versionName: 'v1' });
    // A selector that picks nothing: approving another image would be refused, so nothing is offered.
    expect(withdrawnPin(pool('p', 'v2', { [SELECTOR_ANNOTATION]: '{"channel":"ch","displayName":"none"}' }), onlyOld, 10)?.wayOut).toBeUndefined();
  });

  it('offers an older usable image of the channel when nothing newer is usable and there is no previous pin', () => {
    const newestGone = applyWithdrawals([v('v1', 1), v('v2', 2), v('v3', 3)], [channel({ v3: gone })]);

    expect(withdrawnPin(pool('p', 'v3'), newestGone, 10)?.wayOut).toEqual({ kind: 'approve', versionName: 'v2' });
    // A usable previous pin comes first: it ran on these machines.
    expect(withdrawnPin(pool('p', 'v3', { [PREVIOUS_VERSION_ANNOTATION]: 'v1' }), newestGone, 10)?.wayOut).toEqual({ kind: 'rollback', versionName: 'v1' });
    const allGone = applyWithdrawals([v('v1', 1), v('v2', 2), v('v3', 3)], [channel({
      v1: gone, v2: gone, v3: gone
    })]);

    expect(withdrawnPin(pool('p', 'v3'), allGone, 10)?.wayOut).toBeUndefined();
  });

  it('offers a way out that the approval accepts', () => {
    const newestGone = applyWithdrawals([v('v1', 1), v('v2', 2), v('v3', 3)], [channel({ v3: gone })]);
    const stuck = pool('p', 'v3');
    const wayOut = withdrawnPin(stuck, newestGone, 10)?.wayOut;
    const plan = planPoolWrite(stuck, {
      kind: 'approve', versionName: wayOut?.versionName ?? '', expectedPin: 'v3', approvedBy: 'admin'
    }, newestGone, 10);

    expect(plan.ok).toBe(true);
  });

  it('is undefined for a pool whose pin is not withdrawn', () => {
    expect(withdrawnPin(pool('p', 'v3'), versions, 10)).toBeUndefined();
  });
});
