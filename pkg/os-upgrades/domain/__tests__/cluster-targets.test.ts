import {
  matchesSelector, nodeSelectorsMayOverlap, overlappingPools, targetedClusters, toFleetCluster, toFleetGroup
} from '../cluster-targets';

const cluster = (name: string, labels: Record<string, string>) => toFleetCluster({
  metadata: {
    name, namespace: 'fleet-default', labels
  }
});
const CLUSTERS = [cluster('edge-1', { env: 'prod', site: 'a' }), cluster('edge-2', { env: 'prod', site: 'b' }), cluster('lab', { env: 'dev' })];
const GROUPS = [toFleetGroup({ metadata: { name: 'site-a', namespace: 'fleet-default' }, spec: { selector: { matchLabels: { site: 'a' } } } })];
const pool = (name: string, clusterTargets: unknown[], nodeSelector?: unknown) => ({ metadata: { name, namespace: 'fleet-default' }, spec: { clusterTargets, nodeSelector } });

describe('cluster targets', () => {
  it('matches label selectors like Kubernetes', () => {
    expect(matchesSelector({ matchLabels: { env: 'prod' } }, { env: 'prod' })).toBe(true);
    expect(matchesSelector({
      matchExpressions: [{
        key: 'env', operator: 'NotIn', values: ['prod']
      }]
    }, { env: 'dev' })).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'env', operator: 'Exists' }] }, {})).toBe(false);
    expect(matchesSelector({}, { any: 'thing' })).toBe(true);
    expect(matchesSelector(undefined, {})).toBe(false);
  });

  it('resolves names, groups and selectors to clusters', () => {
    expect(targetedClusters('fleet-default', [{ clusterName: 'lab' }], CLUSTERS, GROUPS)).toEqual(['lab']);
    expect(targetedClusters('fleet-default', [{ clusterGroup: 'site-a' }], CLUSTERS, GROUPS)).toEqual(['edge-1']);
    expect(targetedClusters('fleet-default', [{ clusterSelector: { matchLabels: { env: 'prod' } } }], CLUSTERS, GROUPS)).toEqual(['edge-1', 'edge-2']);
    expect(targetedClusters('fleet-default', [{}], CLUSTERS, GROUPS)).toEqual([]);
  });

  it('finds another pool that targets the same clusters', () => {
    const pools = [pool('prod', [{ clusterSelector: { matchLabels: { env: 'prod' } } }]), pool('lab', [{ clusterName: 'lab' }])];
    const draft = {
      name: 'new', namespace: 'fleet-default', targets: [{ clusterGroup: 'site-a' }], nodeSelector: undefined
    };

    expect(overlappingPools(draft, pools, CLUSTERS, GROUPS)).toEqual([{ pool: 'prod', clusters: ['edge-1'] }]);
  });

  it('does not count the pool being edited, nor pools whose node selectors exclude each other', () => {
    const pools = [pool('prod', [{ clusterName: 'edge-1' }], { matchLabels: { role: 'control' } })];

    expect(overlappingPools({
      name: 'prod', namespace: 'fleet-default', targets: [{ clusterName: 'edge-1' }], nodeSelector: undefined
    }, pools, CLUSTERS, GROUPS)).toEqual([]);
    expect(overlappingPools({
      name: 'workers', namespace: 'fleet-default', targets: [{ clusterName: 'edge-1' }], nodeSelector: { matchLabels: { role: 'worker' } }
    }, pools, CLUSTERS, GROUPS)).toEqual([]);
    expect(nodeSelectorsMayOverlap({ matchLabels: { role: 'worker' } }, { matchLabels: { zone: 'x' } })).toBe(true);
  });
});
