import fc from 'fast-check';
import { toFleetCluster, toFleetGroup } from '../cluster-targets';
import type { FleetCluster } from '../cluster-targets';
import {
  fleetLimit, partitionPlan, rolloutModeOf, rolloutStrategyOf, rolloutStrategyProblems
} from '../partition-plan';
import type { RolloutStrategy } from '../partition-plan';

const cluster = (name: string, labels: Record<string, string> = {}) => toFleetCluster({
  metadata: {
    name, namespace: 'fleet-default', labels
  }
});
const GROUPS = [toFleetGroup({
  metadata: {
    name: 'canary', namespace: 'fleet-default', labels: { tier: 'early' }
  },
  spec: { selector: { matchLabels: { ring: '0' } } }
})];
const CLUSTERS = [
  cluster('edge-1', { ring: '0', site: 'a' }),
  cluster('edge-2', { ring: '1', site: 'a' }),
  cluster('edge-3', { ring: '1', site: 'b' }),
  cluster('edge-4', { ring: '2', site: 'b' }),
];

describe('fleetLimit, as Fleet sizes a limit', () => {
  it('takes an integer as is and a percentage of the count rounded down, at least 1', () => {
    expect(fleetLimit(10, 3)).toBe(3);
    expect(fleetLimit(10, '3')).toBe(3);
    expect(fleetLimit(10, '25%')).toBe(2);
    expect(fleetLimit(3, '10%')).toBe(1);
    expect(fleetLimit(10, '0%')).toBe(1);
  });

  it('uses the first value set, else 100%', () => {
    expect(fleetLimit(8, undefined, '50%')).toBe(4);
    expect(fleetLimit(8)).toBe(8);
  });

  it('refuses a text that is neither a number nor a percentage', () => {
    expect(fleetLimit(8, 'half')).toBeUndefined();
    expect(fleetLimit(8, '0')).toBeUndefined();
  });
});

describe('rolloutStrategyOf and the mode', () => {
  it('reads the pool spec and names the mode', () => {
    const pool = {
      spec: {
        clusterRolloutStrategy: {
          maxUnavailable: '10%',
          partitions:     [{
            name: 'canary', clusterName: 'edge-1', extra: 1
          }]
        }
      }
    };

    expect(rolloutStrategyOf(pool)).toEqual({ maxUnavailable: '10%', partitions: [{ name: 'canary', clusterName: 'edge-1' }] });
    expect(rolloutModeOf(rolloutStrategyOf(pool))).toBe('stages');
    expect(rolloutModeOf({ autoPartitionSize: '25%' })).toBe('automatic');
    expect(rolloutModeOf({ autoPartitionSize: 0 })).toBe('none');
    expect(rolloutModeOf(undefined)).toBe('none');
  });
});

describe('rolloutStrategyProblems', () => {
  it('names what Fleet refuses or never rolls out', () => {
    const problems = rolloutStrategyProblems({
      maxUnavailable: 'half',
      partitions:     [{ name: 'a', clusterName: 'x' }, { name: 'a' }, { clusterName: 'y', maxUnavailable: '120%' }, {
        name: 'z', clusterName: 'z', maxUnavailable: 0
      }],
    });

    expect(problems.map((p) => p.key.split('.').pop())).toEqual(['field', 'sameName', 'noClusters', 'noName', 'stageCount', 'zero']);
  });

  it('accepts counts and percentages', () => {
    expect(rolloutStrategyProblems({
      maxUnavailable:           2,
      autoPartitionSize:        '25%',
      maxUnavailablePartitions: 1,
      partitions:               [{
        name: 'canary', clusterGroup: 'canary', maxUnavailable: '50%'
      }]
    })).toEqual([]);
  });
});

describe('partitionPlan', () => {
  it('puts every cluster in one stage "All" without partitions', () => {
    const plan = partitionPlan(undefined, CLUSTERS, GROUPS);

    expect(plan.stages).toEqual([{
      name: 'All', clusters: ['edge-1', 'edge-2', 'edge-3', 'edge-4'], maxUnavailable: 4, holdsBack: false
    }]);
    expect(plan.maxUnavailablePartitions).toBe(0);
  });

  it('keeps one stage when automatic partitioning is asked for below 200 clusters', () => {
    const plan = partitionPlan({ autoPartitionSize: '25%' }, CLUSTERS, GROUPS);

    expect(plan.stages).toHaveLength(1);
    expect(plan.autoBelowMinimum).toBe(true);
  });

  it('cuts 200 clusters or more in slices of the automatic size', () => {
    const many = Array.from({ length: 250 }, (_, i) => cluster(`c${ i }`));
    const plan = partitionPlan({ autoPartitionSize: '25%', maxUnavailable: '10%' }, many, []);

    expect(plan.stages.map((s) => s.name)).toEqual(['Partition 0 - 62', 'Partition 62 - 124', 'Partition 124 - 186', 'Partition 186 - 248', 'Partition 248 - 250']);
    expect(plan.stages.map((s) => s.maxUnavailable)).toEqual([6, 6, 6, 6, 1]);
  });

  it('assigns named stages by cluster name, group and label selector, in the stage order', () => {
    const strategy: RolloutStrategy = {
      partitions: [
        {
          name: 'canary', clusterGroup: 'canary', maxUnavailable: 0
        },
        {
          name: 'site a', clusterSelector: { matchLabels: { site: 'a' } }, maxUnavailable: 1
        },
        {
          name:            'rest',
          clusterSelector: {
            matchExpressions: [{
              key: 'ring', operator: 'In', values: ['1']
            }]
          }
        },
      ]
    };
    const plan = partitionPlan(strategy, CLUSTERS, GROUPS);

    expect(plan.stages.map((s) => [s.name, s.clusters])).toEqual([['canary', ['edge-1']], ['site a', ['edge-2']], ['rest', ['edge-3']]]);
    expect(plan.unstaged).toEqual(['edge-4']);
    expect(plan.overlaps).toEqual([{ cluster: 'edge-1', stages: ['canary', 'site a'] }, { cluster: 'edge-2', stages: ['site a', 'rest'] }]);
    // Fleet counts a cluster in every partition that names it: "rest" sizes 100% of 2.
    expect(plan.stages[2].maxUnavailable).toBe(2);
    // A limit that covers every cluster of a stage never holds the next stage back.
    expect(plan.stages.map((s) => s.holdsBack)).toEqual([true, true, false]);
  });

  it('matches a group selector against the groups the cluster belongs to', () => {
    const plan = partitionPlan({ partitions: [{ name: 'early', clusterGroupSelector: { matchLabels: { tier: 'early' } } }] }, CLUSTERS, GROUPS);

    expect(plan.stages[0].clusters).toEqual(['edge-1']);
  });

  const labels = fc.record({ ring: fc.constantFrom('0', '1', '2'), site: fc.constantFrom('a', 'b') });
  const clusters = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), labels), { selector: ([name]) => name, maxLength: 30 })
    .map((list) => list.map(([name, l]) => cluster(name, l)));
  const partition = fc.oneof(
    fc.record({ clusterSelector: fc.record({ matchLabels: fc.record({ site: fc.constantFrom('a', 'b') }) }) }),
    fc.record({ clusterGroup: fc.constant('canary') }),
    fc.record({ clusterSelector: fc.record({ matchLabels: fc.record({ ring: fc.constantFrom('0', '1', '2') }) }) }),
  );
  const strategy = fc.oneof(
    fc.constant(undefined),
    fc.record({ autoPartitionSize: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.constantFrom('10%', '25%', '50%')) }),
    fc.array(partition, { minLength: 1, maxLength: 4 }).map((parts) => ({ partitions: parts.map((p, i) => ({ ...p, name: `s${ i }` })) })),
  );

  it('puts every targeted cluster in exactly one stage, or among the clusters no stage names', () => {
    fc.assert(fc.property(clusters, strategy, (targeted: FleetCluster[], rules) => {
      const plan = partitionPlan(rules, targeted, GROUPS);
      const placed = [...plan.stages.flatMap((s) => s.clusters), ...plan.unstaged];

      expect(placed.slice().sort()).toEqual(targeted.map((c) => c.name).sort());
      expect(new Set(placed).size).toBe(placed.length);
    }));
  });

  it('leaves no cluster out without named stages, and sizes every stage limit at least 1 from percentages', () => {
    const big = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}[0-9]{0,3}$/), { minLength: 200, maxLength: 320 }).map((names) => names.map((n) => cluster(n)));

    fc.assert(fc.property(big, fc.constantFrom('10%', '25%', '50%', 40), (targeted, size) => {
      const plan = partitionPlan({ autoPartitionSize: size, maxUnavailable: '5%' }, targeted, []);

      expect(plan.unstaged).toEqual([]);
      expect(plan.stages.flatMap((s) => s.clusters)).toEqual(targeted.map((c) => c.name));
      expect(plan.stages.every((s) => (s.maxUnavailable ?? 0) >= 1)).toBe(true);
    }), { numRuns: 20 });
  });
});
