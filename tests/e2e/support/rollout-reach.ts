// How far a pool's rollout can be followed on the Rancher the specs run against (issue 32). On the
// emulator, in either mode, every Fleet cluster has Elemental nodes that really upgrade (its
// system-upgrade-controller runs the bundle's Plan). On a real Rancher whose target clusters run no
// Elemental nodes, the Plan is delivered and no node ever upgrades: a spec then checks what is true
// there (the stored pool, the Plan in the bundle, "Delivered") and says where it stopped.
//
// Nodes are read through Rancher's proxy to the downstream cluster (/k8s/clusters/<id>/v1/nodes),
// as the extension reads them (api/downstream.ts). An Elemental node carries the labels
// elemental-populate-node-labels writes at every boot (rancher/elemental
// framework/files/usr/sbin/elemental-populate-node-labels): `elemental.cattle.io/image` and
// `elemental.cattle.io/tag` (IMAGE_TAG of its os-release).

import { expect, test } from '@playwright/test';
import { records } from './api';
import { ChannelEntry, EmulatorControl } from './emulator';
import { POOL_TYPE } from './names';
import { fixtureEntries, Seed, SeededChannel } from './seed';

const IMAGE_LABEL = 'elemental.cattle.io/image';
const TAG_LABEL = 'elemental.cattle.io/tag';
// Rancher sets it on a Fleet cluster it registered (rancher/rancher pkg/controllers/provisioningv2/fleetcluster/fleetcluster.go).
const CLUSTER_ID_LABEL = 'management.cattle.io/cluster-name';
// The Plan's node label the system-upgrade-controller sets to the Plan's hash once a node's job succeeded
// (rancher/system-upgrade-controller pkg/upgrade/plan/plan.go); the operator names the Plan
// os-upgrader-<pool> (rancher/elemental-operator controllers/managedosimage_controller.go).
const PLAN_LABEL_PREFIX = 'plan.upgrade.cattle.io/os-upgrader-';
const FORCE = { envs: [{ name: 'FORCE', value: 'true' }] };
const ROLLOUT_TIMEOUT_MS = 90_000;

export interface ElementalNode {
  cluster: string;
  name: string;
  /** IMAGE_TAG of what the node booted, e.g. `2.2.0-3.9`. */
  tag: string;
  /** Cordoned: the system-upgrade-controller's job runs on it (or it is drained by hand). */
  cordoned: boolean;
  /** Its Ready condition is not True: rebooting, or a kubelet that does not start (the image's labels do not fit). */
  notReady: boolean;
  labels: Record<string, string>;
}

/** The tag of a fixture entry's upgrade image (`…:2.2.0-3.9` → `2.2.0-3.9`): what a node runs after it. */
export function imageTag(fixtureName: string, fixture = 'sl-micro-6.1-base'): string {
  const entry = fixtureEntries(fixture).find((e: ChannelEntry) => e.metadata.name === fixtureName);
  const image = String(entry?.spec.metadata.upgradeImage ?? '');

  expect(image, `fixture ${ fixture } has ${ fixtureName }`).toContain(':');

  return image.slice(image.lastIndexOf(':') + 1);
}

/** The Elemental nodes of the Fleet clusters (in the seed's namespace), in the clusters' order and by name. */
export async function elementalNodes(seed: Seed, clusters: string[]): Promise<ElementalNode[]> {
  const found: ElementalNode[] = [];

  for (const cluster of clusters) {
    const fleetCluster = await seed.get('fleet.cattle.io.cluster', cluster);
    const id = (fleetCluster?.metadata as { labels?: Record<string, string> } | undefined)?.labels?.[CLUSTER_ID_LABEL];

    if (!id) {
      continue;
    }
    const answer = await seed.api.get(`/k8s/clusters/${ id }/v1/nodes`);

    if (answer.status !== 200) {
      continue;
    }
    for (const node of records(answer.body.data)) {
      const metadata = node.metadata as { name: string; labels?: Record<string, string> };
      const labels = metadata.labels ?? {};

      if (labels[IMAGE_LABEL]) {
        const conditions = records((node.status as { conditions?: unknown } | undefined)?.conditions);

        found.push({
          cluster,
          name:     metadata.name,
          tag:      labels[TAG_LABEL] ?? '',
          cordoned: !!(node.spec as { unschedulable?: boolean } | undefined)?.unschedulable,
          notReady: conditions.some((c) => c.type === 'Ready' && c.status !== 'True'),
          labels
        });
      }
    }
  }

  return found.sort((a, b) => a.cluster.localeCompare(b.cluster) || a.name.localeCompare(b.name));
}

/**
 * Whether the nodes of every cluster really upgrade here (there are clusters, each with Elemental
 * nodes). When they do not, the test is annotated with where it stops ("Delivered": the Plan is in the bundle) and false
 * is returned: the caller asserts no further.
 */
export async function nodesRollOut(seed: Seed, clusters: string[]): Promise<boolean> {
  const nodes = await elementalNodes(seed, clusters);
  const without = clusters.filter((cluster) => !nodes.some((node) => node.cluster === cluster));

  if (!clusters.length || without.length) {
    test.info().annotations.push({
      type:        'stops at Delivered',
      description: clusters.length ? `no Elemental nodes in ${ without.join(', ') }: the Plan is delivered, no node upgrades` : 'no Fleet cluster to target: no node upgrades',
    });
  }

  return clusters.length > 0 && without.length === 0;
}

/** `cluster/node tag` of every Elemental node, cordoned ones marked: a test's view of where the nodes are. */
export async function nodeTags(seed: Seed, clusters: string[]): Promise<string[]> {
  return (await elementalNodes(seed, clusters)).map((n) => `${ n.cluster }/${ n.name } ${ n.tag }${ n.cordoned ? ' cordoned' : '' }`);
}

/** `node tag`, with `cordoned` and `not ready` where they hold: what a failed wait prints. */
function nodeState(n: ElementalNode): string {
  return `${ n.name } ${ n.tag }${ n.cordoned ? ' cordoned' : '' }${ n.notReady ? ' not ready' : '' }`;
}

/**
 * Waits until every Elemental node of the clusters runs `tag` and none is cordoned; with `pool`, also
 * until each has run a job of the pool's Plan (its first job, on a pool just created).
 */
export async function expectNodesOn(seed: Seed, clusters: string[], tag: string, pool?: string, timeout = ROLLOUT_TIMEOUT_MS): Promise<void> {
  const ran = (n: ElementalNode) => !pool || !!n.labels[`${ PLAN_LABEL_PREFIX }${ pool }`];

  await expect.poll(async() => (await elementalNodes(seed, clusters)).filter((n) => n.tag !== tag || n.cordoned || !ran(n)).map(nodeState), {
    message: `every node of ${ clusters.join(', ') } on ${ tag }`, timeout, intervals: [300, 500, 1000]
  }).toEqual([]);
}

/**
 * Brings the clusters' Elemental nodes onto the channel's fixture image `fixtureName` before a test,
 * whatever an earlier test left them on: a pool of its own with FORCE (so an older image is
 * installed too), deleted once every node ran its job. Nothing is done when they run it already,
 * or when the clusters have no Elemental nodes.
 */
export async function startNodesOn(seed: Seed, channel: SeededChannel, fixtureName: string, clusters: string[]): Promise<void> {
  const tag = imageTag(fixtureName);
  const nodes = await elementalNodes(seed, clusters);

  if (!nodes.length || nodes.every((n) => n.tag === tag && !n.cordoned)) {
    return;
  }
  const pool = await seed.pool('e2e-reach', {
    managedOSVersionName: channel.version(fixtureName),
    clusterTargets:       clusters.map((clusterName) => ({ clusterName })),
    concurrency:          nodes.length,
    upgradeContainer:     FORCE,
  });
  const planLabel = `${ PLAN_LABEL_PREFIX }${ pool }`;

  await expect.poll(async() => (await elementalNodes(seed, clusters)).filter((n) => n.tag !== tag || n.cordoned || !n.labels[planLabel]).map(nodeState), {
    message: `the nodes of ${ clusters.join(', ') } start on ${ tag }`, timeout: ROLLOUT_TIMEOUT_MS, intervals: [500, 1000]
  }).toEqual([]);
  await seed.api.delete(`/v1/${ POOL_TYPE }s/${ channel.namespace }/${ pool }`);
  // Its bundle (and Plan) go with it (the operator's finalizer); a test's own pool then has the nodes alone.
  await expect.poll(async() => {
    const bundles = await seed.list('fleet.cattle.io.bundle', channel.namespace);

    return bundles.some((b) => (b.metadata as { name: string }).name === `mos-${ pool }`) || !!await seed.get(POOL_TYPE, pool, channel.namespace);
  }, { message: `pool ${ pool } and its bundle are deleted`, timeout: 30_000 }).toBe(false);
}

/** The Fleet bundle the operator wrote for a pool, and the upgrade Plan in it (or undefined). */
export async function poolBundle(seed: Seed, pool: string, namespace: string): Promise<{ bundle?: Record<string, unknown>; plan?: Record<string, unknown> }> {
  const bundle = await seed.get('fleet.cattle.io.bundle', `mos-${ pool }`, namespace);
  const resources = records((bundle?.spec as { resources?: unknown } | undefined)?.resources);
  const plans = resources.map((r) => {
    try {
      return JSON.parse(String(r.content)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }).filter((r): r is Record<string, unknown> => r?.kind === 'Plan');

  return { bundle, plan: plans[0] };
}

/** The clusters the spec needs by name, or a skip saying so (on a Rancher without the demo's clusters). */
export async function needClusters(seed: Seed, wanted: string[]): Promise<void> {
  const clusters = await seed.clusters();

  test.skip(!wanted.every((c) => clusters.includes(c)), 'needs the demo clusters (tests/fixtures/clusters)');
}

/**
 * For a test tagged @emulator that starts from the emulator's demo seed (its pools on the demo
 * clusters): resets the emulator, runs `act` with its control endpoints, disconnects.
 */
export async function withEmulator(act: (control: EmulatorControl) => Promise<void>): Promise<void> {
  const control = await EmulatorControl.connect();

  try {
    await control.reset();
    await act(control);
  } finally {
    await control.dispose();
  }
}
