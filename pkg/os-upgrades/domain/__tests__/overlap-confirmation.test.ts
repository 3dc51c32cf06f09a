import fc from 'fast-check';
import {
  overlappingPools, overlapsByPool, readPool, specOf, targetsOf, toFleetCluster, unconfirmedOverlaps
} from '..';
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

  it('marks each pool with exactly what overlappingPools finds for it', () => {
    const targetArb = fc.oneof(
      fc.constantFrom('a', 'b', 'c', 'x').map((clusterName) => ({ clusterName })),
      fc.constantFrom('near', 'far').map((site) => ({ clusterSelector: { matchLabels: { site } } })),
      fc.constant({}),
    );
    const poolArb = fc.record({
      name:      fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5'),
      namespace: fc.constantFrom('fleet-default', 'fleet-other'),
      targets:   fc.array(targetArb, { maxLength: 3 }),
      role:      fc.constantFrom(undefined, 'db', 'web'),
    });

    fc.assert(fc.property(fc.array(poolArb, { maxLength: 8 }), (drafts) => {
      const pools = drafts.map((d) => {
        const pool = poolObject({ name: d.name, spec: { clusterTargets: d.targets, ...(d.role ? { nodeSelector: { matchLabels: { role: d.role } } } : {}) } });

        return { ...pool, metadata: { ...(pool.metadata as object), namespace: d.namespace } };
      });
      const expected = new Map<string, string[]>();

      for (const pool of pools) {
        const { name, namespace } = readPool(pool);
        const found = overlappingPools({
          name, namespace, targets: targetsOf(pool), nodeSelector: specOf(pool).nodeSelector
        }, pools, CLUSTERS, []);

        if (found.length) {
          expected.set(`${ namespace }/${ name }`, found.map((o) => o.pool));
        }
      }
      expect(overlapsByPool(pools, CLUSTERS, [])).toEqual(expected);
    }), { numRuns: 300 });
  });
});
