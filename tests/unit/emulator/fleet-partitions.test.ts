/** @jest-environment node */
// The emulated Fleet's staged rollout (tests/emulator/fleet/fleet-partitions.ts) against Fleet's
// partition walk (rancher/fleet internal/cmd/controller/target/partition.go, rollout.go, status.go).

import { PartitionedRollout, applyFailures, partitionsOf } from '../../emulator/fleet/fleet-partitions';
import { JsonObject } from '../../emulator/core/json';
import { KubeObject } from '../../emulator/kube/store';

const cluster = (name: string, labels: Record<string, string> = {}) => ({
  metadata: {
    name, namespace: 'fleet-default', labels
  }
}) as unknown as KubeObject;
const CLUSTERS = [cluster('canary-1', { ring: '0' }), cluster('edge-1', { ring: '1' }), cluster('edge-2', { ring: '1' }), cluster('edge-3', { ring: '1' })];
const STAGES: JsonObject = {
  partitions: [
    {
      name: 'canary', clusterSelector: { matchLabels: { ring: '0' } }, maxUnavailable: 0
    },
    {
      name: 'rest', clusterSelector: { matchLabels: { ring: '1' } }, maxUnavailable: 1
    },
  ]
};

function partitionStates(rollout: PartitionedRollout): [string, number][] {
  return (rollout.status().partitions as JsonObject[]).map((p) => [String(p.name), Number(p.unavailable)]);
}

describe('the emulated Fleet rolls out by partitions', () => {
  afterEach(() => applyFailures.clear());

  it('cuts named partitions and keeps one partition "All" below 200 clusters', () => {
    expect(partitionsOf(STAGES, CLUSTERS, []).map((p) => [p.name, p.clusters.length, p.maxUnavailable])).toEqual([['canary', 1, 0], ['rest', 3, 1]]);
    expect(partitionsOf({ autoPartitionSize: '25%' }, CLUSTERS, []).map((p) => p.name)).toEqual(['All']);
  });

  it('starts the next partition only once the one before has no more than its limit out of date', () => {
    const applied: string[] = [];
    const apply = (c: string) => applied.push(c);
    const clusters = [cluster('canary-2', { ring: '0' }), ...CLUSTERS];
    const rollout = new PartitionedRollout({ partitions: [{ ...(STAGES.partitions as JsonObject[])[0], maxUnavailable: 1 }, (STAGES.partitions as JsonObject[])[1]] }, clusters, []);

    // One canary starts (its limit); two out of date > 1: "rest" waits.
    rollout.step(apply);
    expect(partitionStates(rollout)).toEqual([['canary', 2], ['rest', 3]]);
    expect(rollout.status().unavailablePartitions).toBe(1);
    // The first canary applied, the second starts: one out of date is within the limit, so "rest" starts one.
    rollout.step(apply);
    expect(applied).toEqual(['fleet-default/canary-2']);
    expect(partitionStates(rollout)).toEqual([['canary', 1], ['rest', 3]]);
    expect(rollout.readyMessage()).toBe('WaitApplied(2) [Cluster fleet-default/canary-1]; OutOfSync(2) [Cluster fleet-default/edge-2]');
    for (let i = 0; i < 6; i++) {
      rollout.step(apply);
    }
    expect(rollout.done()).toBe(true);
    expect(applied).toHaveLength(5);
    expect(rollout.readyMessage()).toBe('');
  });

  it('halts at a partition whose cluster fails to apply, and goes on when it applies', () => {
    const rollout = new PartitionedRollout({ partitions: [{ name: 'canary', clusterName: 'canary-1' }, { name: 'rest', clusterSelector: { matchLabels: { ring: '1' } } }] }, CLUSTERS, []);

    applyFailures.set('fleet-default/canary-1', 'cannot apply');
    for (let i = 0; i < 5; i++) {
      rollout.step(() => undefined);
    }
    // The canary has 1 unavailable of 100% = 1: within its limit, so "rest" is not held back by it.
    expect(partitionStates(rollout)).toEqual([['canary', 1], ['rest', 0]]);

    const strict = new PartitionedRollout({
      maxUnavailable: 1,
      partitions:     [{
        name: 'canary', clusterName: 'canary-1', maxUnavailable: 1
      }, { name: 'rest', clusterSelector: { matchLabels: { ring: '1' } } }]
    }, CLUSTERS, []);

    for (let i = 0; i < 5; i++) {
      strict.step(() => undefined);
    }
    // The bundle's maxUnavailable 1 is taken by the failing canary: no other cluster starts.
    expect(partitionStates(strict)).toEqual([['canary', 1], ['rest', 3]]);
    expect(strict.readyMessage()).toBe('ErrApplied(1) [Cluster fleet-default/canary-1: cannot apply]; OutOfSync(3) [Cluster fleet-default/edge-1]');
    applyFailures.delete('fleet-default/canary-1');
    for (let i = 0; i < 10; i++) {
      strict.step(() => undefined);
    }
    expect(strict.done()).toBe(true);
  });

  it('stops at a partition over its limit unless maxUnavailablePartitions allows it', () => {
    const two = (allowed: number) => new PartitionedRollout({
      maxUnavailablePartitions: allowed,
      partitions:               [{
        name: 'canary', clusterName: 'canary-1', maxUnavailable: 0
      }, { name: 'rest', clusterSelector: { matchLabels: { ring: '1' } } }]
    }, CLUSTERS, []);
    const held = two(0);
    const let1 = two(1);

    held.step(() => undefined);
    let1.step(() => undefined);
    // maxUnavailable 0: the canary never starts and stays over its limit (1 > 0).
    expect(partitionStates(held)).toEqual([['canary', 1], ['rest', 3]]);
    expect(held.status().unavailablePartitions).toBe(1);
    expect(partitionStates(let1)).toEqual([['canary', 1], ['rest', 3]]);
    let1.step(() => undefined);
    expect(partitionStates(let1)).toEqual([['canary', 1], ['rest', 0]]);
    held.step(() => undefined);
    expect(partitionStates(held)).toEqual([['canary', 1], ['rest', 3]]);
  });
});
