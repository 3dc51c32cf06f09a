import type { ClusterRollout } from '../node-rollout';
import type { PartitionPlan } from '../partition-plan';
import { bundleOfPool, fleetPartitions, stagedRolloutProgress } from '../partition-progress';

const PLAN: PartitionPlan = {
  mode:   'stages',
  stages: [{
    name: 'canary', clusters: ['edge-1'], maxUnavailable: 0, holdsBack: true
  }, {
    name: 'rest', clusters: ['edge-2', 'edge-3'], maxUnavailable: 1, holdsBack: true
  }],
  unstaged:                 [],
  overlaps:                 [],
  autoBelowMinimum:         false,
  maxUnavailablePartitions: 0,
  maxUnavailable:           3,
};

const partition = (name: string, count: number, maxUnavailable: number, unavailable: number, nonReadyResources: unknown[] = [], outOfSync = 0) => ({
  name, count, maxUnavailable, unavailable, summary: { nonReadyResources, outOfSync }
});
const bundle = (partitions: unknown[], maxUnavailablePartitions = 0) => ({ metadata: { name: 'mos-pool', namespace: 'fleet-default' }, status: { partitions, maxUnavailablePartitions } });
const nodes = (cluster: string, updated: number, total: number, failed = 0): ClusterRollout => ({
  cluster,
  clusterId: cluster,
  reading:   'read',
  counts:    {
    updated, total, failed, waiting: total - updated - failed, draining: 0, upgrading: 0, rebooting: 0, other: 0, unknown: 0
  },
  failures: [],
  message:  { key: 'x' },
});

describe('stagedRolloutProgress', () => {
  it('runs the first stage and keeps the next waiting while the first is over its limit', () => {
    const progress = stagedRolloutProgress(PLAN, bundle([partition('canary', 1, 0, 1), partition('rest', 2, 1, 2)]), [nodes('edge-1', 0, 3)]);

    expect(progress.stages.map((s) => s.state)).toEqual(['running', 'waiting']);
    expect(progress.halt).toBeUndefined();
    expect(progress.message).toEqual({ key: 'osUpgrades.stages.progress.running', values: { stage: 'canary', waiting: 1 } });
  });

  it('says a stage halted when Fleet reports its clusters in error past the limit', () => {
    const failing = [{
      kind: 'Cluster', name: 'fleet-default/edge-1', bundleState: 'ErrApplied', message: 'agent cannot apply'
    }];
    const progress = stagedRolloutProgress(PLAN, bundle([partition('canary', 1, 0, 1, failing), partition('rest', 2, 1, 2)]), []);

    expect(progress.stages.map((s) => s.state)).toEqual(['halted', 'waiting']);
    expect(progress.halt).toEqual({
      limit:          'stage',
      stage:          'canary',
      unavailable:    1,
      maxUnavailable: 0,
      failing:        [{
        cluster: 'fleet-default/edge-1', state: 'ErrApplied', message: 'agent cannot apply'
      }]
    });
    expect(progress.message.key).toBe('osUpgrades.stages.progress.halted.stage');
  });

  it('says the rollout halted when failing clusters take the whole pool limit, every stage within its own', () => {
    const failing = [{
      name: 'fleet-default/edge-2', bundleState: 'ErrApplied', message: 'cannot apply'
    }];
    const settledCanary = partition('canary', 1, 1, 0);
    const stuck = bundle([settledCanary, partition('rest', 2, 2, 2, failing, 1)]);

    (stuck.status as Record<string, unknown>).maxUnavailable = 1;
    const progress = stagedRolloutProgress(PLAN, stuck, []);

    expect(progress.halt).toMatchObject({
      stage: 'rest', limit: 'pool', maxUnavailable: 1
    });
    expect(progress.stages.map((s) => s.state)).toEqual(['running', 'halted']);
    // With room under the pool limit the other cluster goes on: no halt.
    (stuck.status as Record<string, unknown>).maxUnavailable = 3;
    expect(stagedRolloutProgress(PLAN, stuck, []).halt).toBeUndefined();
  });

  it('keeps a stage waiting while none of its clusters started, though no stage is over its limit', () => {
    const progress = stagedRolloutProgress(PLAN, bundle([partition('canary', 1, 1, 1), partition('rest', 2, 2, 2, [], 2)]), []);

    expect(progress.stages.map((s) => s.state)).toEqual(['running', 'waiting']);
  });

  it('lets the next stage start when maxUnavailablePartitions allows one stage over its limit', () => {
    const failing = [{ name: 'fleet-default/edge-1', bundleState: 'ErrApplied' }];
    const progress = stagedRolloutProgress(PLAN, bundle([partition('canary', 1, 0, 1, failing), partition('rest', 2, 1, 1)], 1), []);

    expect(progress.stages.map((s) => s.state)).toEqual(['running', 'running']);
    expect(progress.halt).toBeUndefined();
  });

  it('counts a stage done when Fleet has it available and its nodes run the image', () => {
    const settled = bundle([partition('canary', 1, 0, 0), partition('rest', 2, 1, 0)]);
    const progress = stagedRolloutProgress(PLAN, settled, [nodes('edge-1', 3, 3), nodes('edge-2', 2, 2), nodes('edge-3', 1, 2, 1)]);

    expect(progress.stages.map((s) => [s.state, s.nodes])).toEqual([['done', {
      updated: 3, total: 3, failed: 0
    }], ['running', {
      updated: 3, total: 4, failed: 1
    }]]);
    const all = stagedRolloutProgress(PLAN, settled, [nodes('edge-1', 3, 3), nodes('edge-2', 2, 2), nodes('edge-3', 2, 2)]);

    expect(all.message).toEqual({ key: 'osUpgrades.stages.progress.done', values: { count: 2 } });
  });

  it('counts a stage whose read clusters run no node of the Plan done once Fleet applied it, and says it has no nodes', () => {
    const settled = bundle([partition('canary', 1, 0, 0), partition('rest', 2, 1, 0)]);
    const progress = stagedRolloutProgress(PLAN, settled, [nodes('edge-1', 0, 0), nodes('edge-2', 1, 1), nodes('edge-3', 0, 0)]);

    expect(progress.stages.map((s) => [s.state, s.noNodes])).toEqual([['done', true], ['done', false]]);
    expect(progress.message).toEqual({ key: 'osUpgrades.stages.progress.done', values: { count: 2 } });

    const applying = stagedRolloutProgress(PLAN, bundle([partition('canary', 1, 0, 1), partition('rest', 2, 1, 0, [], 2)]), [nodes('edge-1', 0, 0)]);

    expect(applying.stages[0].state).toBe('running');
  });

  it('keeps a stage without nodes running while one of its clusters could not be read', () => {
    const settled = bundle([partition('canary', 1, 0, 0), partition('rest', 2, 1, 0)]);
    const unreadable: ClusterRollout = { ...nodes('edge-3', 0, 0), reading: 'unreachable' };
    const progress = stagedRolloutProgress(PLAN, settled, [nodes('edge-1', 1, 1), nodes('edge-2', 0, 0), unreadable]);

    expect(progress.stages.map((s) => [s.state, s.noNodes])).toEqual([['done', false], ['running', false]]);
  });

  it('does not take a pending cluster for a failing one', () => {
    const pending = [{ name: 'fleet-default/edge-1', bundleState: 'WaitApplied' }];

    expect(fleetPartitions(bundle([partition('canary', 1, 0, 1, pending)]))[0].failing).toEqual([]);
  });

  it('finds the operator bundle of a pool', () => {
    const pool = { metadata: { name: 'pool', namespace: 'fleet-default' } };

    expect(bundleOfPool(pool, [{ metadata: { name: 'mos-other', namespace: 'fleet-default' } }, bundle([])])).toEqual(bundle([]));
    expect(bundleOfPool(pool, [{ metadata: { name: 'mos-pool', namespace: 'fleet-local' } }])).toBeUndefined();
  });
});
