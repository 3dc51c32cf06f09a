import { mount } from '@vue/test-utils';
import type { NodeRolloutSummary, RolloutVerdict } from '../../../domain';
import RolloutBadge from '../RolloutBadge.vue';
import { mountGlobals } from '../../common/__tests__/helpers';

const DONE = { phase: 'done' as const, message: '' };

function nodes(verdict: RolloutVerdict): NodeRolloutSummary {
  return { verdict } as NodeRolloutSummary;
}

function shown(props: Record<string, unknown>) {
  const wrapper = mount(RolloutBadge, { props: { rollout: DONE, ...props }, global: mountGlobals() });

  return { phase: wrapper.attributes('data-phase'), message: wrapper.find('[data-testid="pool-rollout-message"]').exists() };
}

describe('RolloutBadge', () => {
  it('says the operator has not caught up after a write, until every node runs the pin', () => {
    expect(shown({ operator: { kind: 'waiting' } })).toEqual({ phase: 'waiting', message: true });
    expect(shown({ operator: { kind: 'waiting' }, nodes: nodes('progressing') })).toEqual({ phase: 'waiting', message: true });
    // The operator missed Fleet's not-Ready and its copied Ready never moved: the nodes decide.
    expect(shown({ operator: { kind: 'waiting' }, nodes: nodes('rolledOut') })).toEqual({ phase: 'done', message: false });
    // No node can be read, but the pool's Bundle shows the pin's Plan delivered.
    expect(shown({
      operator: { kind: 'waiting' }, nodes: nodes('noNodes'), delivered: true
    })).toEqual({ phase: 'done', message: false });
  });

  it('keeps a refused pin refused whatever the nodes report', () => {
    const refused = { kind: 'refused', reason: { key: 'osUpgrades.pool.operator.missing', values: { name: 'gone' } } };

    expect(shown({ operator: refused, nodes: nodes('rolledOut') })).toEqual({ phase: 'refused', message: true });
  });
});
