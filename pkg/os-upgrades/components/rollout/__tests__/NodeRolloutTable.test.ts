import NodeRolloutTable from '../NodeRolloutTable.vue';
import type { NodeRolloutRow } from '../../../domain';
import { t } from '../../common/__tests__/helpers';

const messageOf = (NodeRolloutTable as unknown as { methods: { messageOf(this: unknown, row: NodeRolloutRow): string } }).methods.messageOf;

function message(row: Partial<NodeRolloutRow>): string {
  const full: NodeRolloutRow = {
    id: 'c/n', cluster: 'c', clusterId: 'c', node: 'n', image: '', state: 'unknown', message: '', ...row
  };

  return messageOf.call({ t, isHidden: () => false }, full);
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

  it('keeps the stale-label and unknown messages for other nodes', () => {
    expect(message({ staleLabel: { label: '2.2.0-3.9', plan: '2.2.0-3.12' } })).toContain('osUpgrades.nodes.staleLabel');
    expect(message({})).toBe('osUpgrades.nodes.noTag');
  });
});
