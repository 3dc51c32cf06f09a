import { overlapsByPool, toFleetCluster, unconfirmedOverlaps } from '..';
import { poolObject } from './pool-test-data';

const CLUSTERS = ['a', 'b', 'c'].map((name) => toFleetCluster({
  metadata: {
    name, namespace: 'fleet-default', labels: { site: name === 'c' ? 'far' : 'near' }
  }
}));

describe('overlapping pools', () => {
  it('needs a confirmation naming each overlapping pool', () => {
    const overlaps = [{ pool: 'p1', clusters: ['a'] }, { pool: 'p2', clusters: ['b'] }];

    expect(unconfirmedOverlaps(overlaps, [])).toEqual(overlaps);
    expect(unconfirmedOverlaps(overlaps, ['p1'])).toEqual([{ pool: 'p2', clusters: ['b'] }]);
    expect(unconfirmedOverlaps(overlaps, ['p1', 'p2'])).toEqual([]);
    expect(unconfirmedOverlaps([], [])).toEqual([]);
  });

  it('marks pools whose targets reach the same clusters, by name or by labels', () => {
    const pools = [
      poolObject({ name: 'by-name', spec: { clusterTargets: [{ clusterName: 'a' }] } }),
      poolObject({ name: 'by-label', spec: { clusterTargets: [{ clusterSelector: { matchLabels: { site: 'near' } } }] } }),
      poolObject({ name: 'far', spec: { clusterTargets: [{ clusterName: 'c' }] } }),
      poolObject({ name: 'other-nodes', spec: { clusterTargets: [{ clusterName: 'a' }], nodeSelector: { matchLabels: { role: 'db' } } } }),
      poolObject({ name: 'web-nodes', spec: { clusterTargets: [{ clusterName: 'a' }], nodeSelector: { matchLabels: { role: 'web' } } } }),
    ];
    const marks = overlapsByPool(pools, CLUSTERS, []);

    expect(marks.get('fleet-default/by-name')).toEqual(['by-label', 'other-nodes', 'web-nodes']);
    expect(marks.get('fleet-default/by-label')).toEqual(['by-name', 'other-nodes', 'web-nodes']);
    expect(marks.has('fleet-default/far')).toBe(false);
    // Node selectors requiring different values of one label never select the same node.
    expect(marks.get('fleet-default/other-nodes')).toEqual(['by-name', 'by-label']);
  });
});
