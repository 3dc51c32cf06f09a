import { nodeImage, nodeImageTag, planTagOnNode } from '../node-report';

const PLAN = { metadata: { name: 'os-upgrader-pool' }, status: { latestHash: 'abc123', latestVersion: '2.2.0-3.12' } };

function node(labels: Record<string, string>) {
  return { metadata: { name: 'n1', labels } };
}

describe('nodeImage (the image a node runs)', () => {
  it('reads the tag label when the Plan does not contradict it', () => {
    const n = node({ 'elemental.cattle.io/tag': '2.2.0-3.12', 'plan.upgrade.cattle.io/os-upgrader-pool': 'abc123' });

    expect(nodeImage(n, PLAN)).toEqual({ kind: 'label', tag: '2.2.0-3.12' });
    expect(nodeImageTag(n)).toBe('2.2.0-3.12');
  });

  it('reads the tag label alone when no Plan is known', () => {
    expect(nodeImage(node({ 'elemental.cattle.io/tag': '2.2.0-3.8' }))).toEqual({ kind: 'label', tag: '2.2.0-3.8' });
  });

  it('says the label is stale when the node finished the Plan for another tag', () => {
    // The 64-character image label was refused, so the tag label kept the tag of the older boot.
    const n = node({ 'elemental.cattle.io/tag': '2.2.0-3.8', 'plan.upgrade.cattle.io/os-upgrader-pool': 'abc123' });

    expect(nodeImage(n, PLAN)).toEqual({
      kind: 'stale', label: '2.2.0-3.8', plan: '2.2.0-3.12'
    });
  });

  it("does not take an older Plan hash as evidence of the Plan's current version", () => {
    const n = node({ 'elemental.cattle.io/tag': '2.2.0-3.8', 'plan.upgrade.cattle.io/os-upgrader-pool': 'old-hash' });

    expect(planTagOnNode(n, PLAN)).toBeUndefined();
    expect(nodeImage(n, PLAN)).toEqual({ kind: 'label', tag: '2.2.0-3.8' });
  });

  it('keeps a higher tag label: suc-upgrade completes without upgrading a host on a higher tag', () => {
    const n = node({ 'elemental.cattle.io/tag': '2.2.0-3.13', 'plan.upgrade.cattle.io/os-upgrader-pool': 'abc123' });

    expect(nodeImage(n, PLAN)).toEqual({ kind: 'label', tag: '2.2.0-3.13' });
  });

  it("does not take the Plan's version for a node without a tag label (the job may have skipped the upgrade)", () => {
    expect(planTagOnNode(node({ 'plan.upgrade.cattle.io/os-upgrader-pool': 'abc123' }), PLAN)).toBe('2.2.0-3.12');
    expect(nodeImage(node({ 'plan.upgrade.cattle.io/os-upgrader-pool': 'abc123' }), PLAN)).toEqual({ kind: 'none' });
  });

  it('knows nothing without either', () => {
    expect(nodeImage(node({}), PLAN)).toEqual({ kind: 'none' });
  });
});
