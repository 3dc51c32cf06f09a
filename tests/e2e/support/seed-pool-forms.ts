// What the pool form and pool page specs seed through the API (support/seed.ts): a run-unique copy of
// the sl-micro-6.1-base channel, pools of it on a Fleet cluster of TEST_NAMESPACE, and what a
// cluster's nodes really are, so that a spec waits for node rows only where nodes can roll out.

import { expect, test } from '@playwright/test';
import { field } from './api';
import { TEST_NAMESPACE } from './env';
import { POOL_TYPE, SELECTOR_ANNOTATION } from './names';
import { elementalNodes as elementalNodesOf } from './rollout-reach';
import { fixtureEntries, rollableEntries, Seed, SeededChannel } from './seed';

// Shared with the specs that import them from here.
export { SELECTOR_ANNOTATION };

export const FIXTURE = 'sl-micro-6.1-base';

/**
 * The channel's newest image and an older one: a pool pinned to the older has an upgrade to approve.
 * 3.9 and 3.8: the channel ends at 3.9, since a node that boots the fixture's 3.12 never rejoins
 * (its image label is 64 characters; support/seed.ts rollableEntries).
 */
export const NEWEST_IMAGE = 'base-v2.2.0-3.9-os';
export const OLDER_IMAGE = 'base-v2.2.0-3.8-os';

export interface PoolWorld {
  channel: SeededChannel;
  /** A Fleet cluster of TEST_NAMESPACE the spec's pools target. */
  cluster: string;
}

/** The channel, and the first Fleet cluster of TEST_NAMESPACE (any cluster will do). */
export async function seedPoolWorld(seed: Seed): Promise<PoolWorld> {
  const [cluster] = await seed.clusters();

  expect(cluster, `a Fleet cluster in ${ TEST_NAMESPACE } for the pools to target`).toBeTruthy();

  return { channel: await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) }), cluster };
}

/** A pool pinned to the channel's newest image on the world's cluster (the demo's edge-munich). */
export function pinnedPool(world: PoolWorld, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    managedOSVersionName: world.channel.version(NEWEST_IMAGE),
    concurrency:          1,
    clusterTargets:       [{ clusterName: world.cluster }],
    ...extra,
  };
}

/** The annotation of a pool following the channel by the selector `~2.2`. */
export function followsChannel(world: PoolWorld): Record<string, string> {
  return { [SELECTOR_ANNOTATION]: JSON.stringify({ channel: world.channel.name, version: '~2.2' }) };
}

/**
 * The names of the nodes an Elemental agent manages in the Fleet cluster `cluster`, read through
 * the cluster's own Steve (/k8s/clusters/<id>/v1/nodes) as the page reads them; [] when it has
 * none or cannot be read (a Rancher whose target cluster runs no Elemental nodes).
 */
export async function elementalNodes(seed: Seed, cluster: string): Promise<string[]> {
  return (await elementalNodesOf(seed, [cluster])).map((node) => node.name);
}

/** Notes in the report that a test stopped before the nodes, at `where`, and why. */
export function noteStoppedBeforeNodes(cluster: string, where: string): void {
  test.info().annotations.push({
    type:        'stopped before the nodes',
    description: `cluster ${ cluster } runs no Elemental nodes: the test stops at ${ where }`,
  });
}

/**
 * What a person's write to the stored pool `name` changes, to compare before and after: the operator
 * keeps writing the pool's status and finalizers (its resourceVersion moves after the pool is
 * created), never these. Fails the test when the pool is not stored.
 */
export async function writtenFields(seed: Seed, name: string, namespace = TEST_NAMESPACE): Promise<unknown[]> {
  const stored = await seed.get(POOL_TYPE, name, namespace);

  expect(stored, `pool ${ name } is stored`).toBeTruthy();

  return [field(stored, 'metadata.labels'), field(stored, 'metadata.annotations'), stored?.spec];
}

export const BUNDLE_TYPE = 'fleet.cattle.io.bundle';

/** The upgrade image of a fixture entry of the channel (what the operator's Plan runs on the nodes). */
export function upgradeImageOf(fixtureName: string): string {
  const entry = fixtureEntries(FIXTURE).find((e) => e.metadata.name === fixtureName);

  expect(entry, `${ fixtureName } in the fixture ${ FIXTURE }`).toBeTruthy();

  return String(entry?.spec.metadata.upgradeImage);
}
