// What the pool form and pool page specs seed through the API (support/seed.ts): a run-unique copy of
// the sl-micro-6.1-base channel, pools of it on a Fleet cluster of TEST_NAMESPACE, and what a
// cluster's nodes really are, so that a spec waits for node rows only where nodes can roll out.

import { expect, test } from '@playwright/test';
import { field } from './api';
import { NEWEST_SEEDED } from './channels';
import { TEST_NAMESPACE } from './env';
import { POOL_TYPE } from './names';
import { fixtureEntries, Seed, SeededChannel } from './seed';

const FIXTURE = 'sl-micro-6.1-base';

/** An image older than NEWEST_SEEDED in the fixture channel: a pool pinned to it has an upgrade to approve. */
export const OLDER_IMAGE = 'base-v2.2.0-3.9-os';
export const SELECTOR_ANNOTATION = 'os-upgrades.cattle.io/image-selector';
/** The label an Elemental host puts on its node at boot (rancher/elemental framework/files/usr/sbin/elemental-populate-node-labels). */
const ELEMENTAL_IMAGE_LABEL = 'elemental.cattle.io/image';
/** A Fleet cluster's Rancher cluster id (rancher/rancher pkg/controllers/provisioningv2/fleetcluster/fleetcluster.go). */
const CLUSTER_ID_LABEL = 'management.cattle.io/cluster-name';

export interface PoolWorld {
  channel: SeededChannel;
  /** A Fleet cluster of TEST_NAMESPACE the spec's pools target. */
  cluster: string;
}

/** The channel, and the first Fleet cluster of TEST_NAMESPACE (any cluster will do). */
export async function seedPoolWorld(seed: Seed): Promise<PoolWorld> {
  const [cluster] = await seed.clusters();

  expect(cluster, `a Fleet cluster in ${ TEST_NAMESPACE } for the pools to target`).toBeTruthy();

  return { channel: await seed.channel({ fixture: FIXTURE }), cluster };
}

/** A pool pinned to the channel's newest image on the world's cluster (the demo's edge-munich). */
export function pinnedPool(world: PoolWorld, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    managedOSVersionName: world.channel.version(NEWEST_SEEDED),
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
export async function elementalNodes(seed: Seed, cluster: string, namespace = TEST_NAMESPACE): Promise<string[]> {
  const fleetCluster = await seed.get('fleet.cattle.io.cluster', cluster, namespace);
  const id = ((fleetCluster?.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {})[CLUSTER_ID_LABEL];

  if (!id) {
    return [];
  }
  const answer = await seed.api.get(`/k8s/clusters/${ encodeURIComponent(id) }/v1/nodes`);

  if (answer.status !== 200 || !Array.isArray(answer.body.data)) {
    return [];
  }

  return (answer.body.data as { metadata: { name: string; labels?: Record<string, string> } }[])
    .filter((node) => node.metadata.labels?.[ELEMENTAL_IMAGE_LABEL])
    .map((node) => node.metadata.name);
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
