import fc from 'fast-check';
import { changedSpec, formFromPool, formProblems } from '../pool-form';
import {
  newRolloutForm, RolloutForm, rolloutFormFromPool, rolloutFormProblems, strategyFromRolloutForm
} from '../rollout-form';

const pool = (clusterRolloutStrategy?: unknown) => ({ metadata: { name: 'p', namespace: 'fleet-default' }, spec: { clusterTargets: [{ clusterGroup: 'edge' }], clusterRolloutStrategy } });

describe('the Rollout tab ↔ spec.clusterRolloutStrategy', () => {
  it('reads named stages, keeping one the form cannot edit', () => {
    const kept = {
      name: 'mixed', clusterGroup: 'edge', clusterSelector: { matchLabels: { ring: '1' } }
    };
    const form = rolloutFormFromPool(pool({
      maxUnavailable: '10%',
      partitions:     [{
        name: 'canary', clusterName: 'edge-1', maxUnavailable: 0
      }, { name: 'site a', clusterSelector: { matchLabels: { site: 'a' } } }, kept]
    }));

    expect(form.mode).toBe('stages');
    expect(form.maxUnavailable).toBe('10%');
    expect(form.stages).toEqual([
      {
        name: 'canary', kind: 'clusterName', value: 'edge-1', maxUnavailable: '0'
      },
      {
        name: 'site a', kind: 'clusterSelector', value: 'site=a', maxUnavailable: ''
      },
      {
        name: 'mixed', kind: 'kept', value: '', maxUnavailable: '', kept
      },
    ]);
    expect(strategyFromRolloutForm(form)).toEqual({
      maxUnavailable: '10%',
      partitions:     [{
        name: 'canary', clusterName: 'edge-1', maxUnavailable: 0
      }, { name: 'site a', clusterSelector: { matchLabels: { site: 'a' } } }, kept]
    });
  });

  it('writes no strategy for "all at once", and the automatic size as typed', () => {
    expect(strategyFromRolloutForm(newRolloutForm())).toBeUndefined();
    expect(strategyFromRolloutForm({
      ...newRolloutForm(), mode: 'automatic', autoSize: '20'
    })).toEqual({ autoPartitionSize: 20 });
    expect(strategyFromRolloutForm({
      ...newRolloutForm(), mode: 'automatic', maxUnavailable: '1'
    })).toEqual({ maxUnavailable: 1, autoPartitionSize: '25%' });
  });

  it('leaves the strategy out of an edit that does not touch the tab, and writes it when it does', () => {
    const original = pool({ maxUnavailable: '1' });
    const initial = formFromPool(original);

    expect(changedSpec(initial, initial, original)).toEqual({});
    const staged: RolloutForm = {
      ...initial.rollout,
      mode:   'stages',
      stages: [{
        name: 'canary', kind: 'clusterName', value: 'edge-1', maxUnavailable: '1'
      }]
    };

    expect(changedSpec({ ...initial, rollout: staged }, initial, original)).toEqual({
      clusterRolloutStrategy: {
        maxUnavailable: 1,
        partitions:     [{
          name: 'canary', clusterName: 'edge-1', maxUnavailable: 1
        }]
      }
    });
  });

  it('names each field that keeps the tab from being saved', () => {
    const form: RolloutForm = {
      mode:                     'stages',
      autoSize:                 '',
      maxUnavailable:           '0',
      maxUnavailablePartitions: 'x',
      stages:                   [
        {
          name: 'a', kind: 'clusterName', value: '', maxUnavailable: '150%'
        },
        {
          name: 'a', kind: 'clusterSelector', value: 'not labels', maxUnavailable: '0'
        },
        {
          name: '', kind: 'clusterGroup', value: 'g', maxUnavailable: ''
        },
      ],
    };

    expect(rolloutFormProblems(form).map((p) => p.field)).toEqual([
      'rollout.maxUnavailable', 'rollout.maxUnavailablePartitions', 'rollout.stage.0.value', 'rollout.stage.0.max', 'rollout.stage.1.name', 'rollout.stage.1.value', 'rollout.stage.1.max', 'rollout.stage.2.name',
    ]);
    expect(formProblems({ ...formFromPool(pool()), rollout: form }).some((p) => p.field === 'rollout.stage.0.value')).toBe(true);
    expect(rolloutFormProblems({
      ...form, mode: 'stages', stages: []
    }).map((p) => p.field)).toContain('rollout.stages');
  });

  it('reads back what it writes (property)', () => {
    const count = fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 50 }).map(String), fc.integer({ min: 1, max: 100 }).map((n) => `${ n }%`));
    const row = fc.record({
      name:           fc.stringMatching(/^[a-z][a-z0-9 -]{0,10}$/),
      kind:           fc.constantFrom('clusterName' as const, 'clusterGroup' as const),
      value:          fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
      maxUnavailable: count,
    });
    const form = fc.record({
      mode: fc.constantFrom('stages' as const), autoSize: fc.constant(''), maxUnavailable: count, maxUnavailablePartitions: count, stages: fc.array(row, { minLength: 1, maxLength: 5 })
    });

    fc.assert(fc.property(form, (typed) => {
      const read = rolloutFormFromPool(pool(strategyFromRolloutForm(typed)));

      expect(strategyFromRolloutForm(read)).toEqual(strategyFromRolloutForm(typed));
    }));
  });
});
