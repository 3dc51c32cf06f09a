import NodeRolloutTable from '../NodeRolloutTable.vue';
import type { NodeRolloutRow } from '../../../domain';
import { t } from '../../common/__tests__/helpers';

type Message = (this: unknown, row: NodeRolloutRow) => string;
const { messageOf, stateMessageOf } = (NodeRolloutTable as unknown as { methods: { messageOf: Message; stateMessageOf: Message } }).methods;

function message(row: Partial<NodeRolloutRow>): string {
  const full: NodeRolloutRow = {
    id: 'c/n', cluster: 'c', clusterId: 'c', node: 'n', image: '', state: 'unknown', message: '', ...row
  };

  const $store = { getters: { 'prefs/get': (key: string) => ({ 'date-format': 'YYYY-MM-DD', 'time-format': 'HH:mm:ss' } as Record<string, string>)[key] } };

  const component = {
    t, isHidden: () => false, $store, stateMessageOf: (r: NodeRolloutRow) => stateMessageOf.call(component, r)
  };

  return messageOf.call(component, full);
}

describe('NodeRolloutTable messages', () => {
  it('explains a node that is not Ready because its pool\'s image gives it a label the kubelet refuses, not "unknown"', () => {
    expect(message({ labelRefused: { key: 'elemental.cattle.io/image', length: 64 } })).toBe('osUpgrades.nodes.labelRefused {"key":"elemental.cattle.io/image","length":64}');
  });

  it('keeps the stale label and the Job\'s failure beside that explanation', () => {
    const refused = { key: 'elemental.cattle.io/image', length: 64 };
    const stale = message({ labelRefused: refused, staleLabel: { label: '2.2.0-3.9', plan: '2.2.0-3.12' } });
    const failed = message({
      labelRefused: refused, state: 'failed', message: 'Job was active longer than specified deadline'
    });

    expect(stale).toMatch(/^osUpgrades\.nodes\.labelRefused .* osUpgrades\.nodes\.staleLabel /);
    expect(failed).toMatch(/^osUpgrades\.nodes\.labelRefused .* Job was active longer than specified deadline$/);
  });

  it('says after the row\'s own message that a node no Job of the pool runs on stays cordoned', () => {
    expect(message({ state: 'updated', cordoned: true })).toBe('osUpgrades.nodes.cordoned');
    expect(message({ state: 'other', cordoned: true })).toBe('osUpgrades.nodes.otherImage osUpgrades.nodes.cordoned');
    expect(message({ state: 'updated' })).toBe('');
  });

  it('keeps the stale-label and unknown messages for other nodes', () => {
    expect(message({ staleLabel: { label: '2.2.0-3.9', plan: '2.2.0-3.12' } })).toContain('osUpgrades.nodes.staleLabel');
    expect(message({})).toBe('osUpgrades.nodes.noTag');
  });

  it('says a node waits on a kept Job with when it finished and when the controller marks the node, in the person\'s formats', () => {
    const finished = Date.UTC(2024, 4, 1, 8, 0, 0) / 1000;
    const text = message({
      state:   'waiting',
      keptJob: {
        finished, until: finished + 900, planName: 'os-upgrader-edge'
      }
    });

    expect(text).toMatch(/^osUpgrades\.nodes\.keptJob /);
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({
      finished: expect.stringMatching(/^2024-05-01 \d\d:00:00$/), until: expect.stringMatching(/^2024-05-01 \d\d:15:00$/), planName: 'os-upgrader-edge'
    });
    expect(message({ state: 'waiting', keptJob: { finished, planName: 'p' } })).toMatch(/^osUpgrades\.nodes\.keptJobNoTtl /);
  });

  it('says a node marked without an upgrade runs its label\'s tag, before the generic "another image"', () => {
    expect(message({
      state:             'other',
      tag:               '2.2.0-3.9',
      markedNotUpgraded: {
        label: '2.2.0-3.9', plan: '2.2.1-1.1', planName: 'os-upgrader-edge'
      }
    })).toBe('osUpgrades.nodes.markedNotUpgraded {"label":"2.2.0-3.9","plan":"2.2.1-1.1","planName":"os-upgrader-edge"}');
  });
});
