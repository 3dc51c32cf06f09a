// What the page-wide specs (layout, readable values, the package's pages, page queries) seed
// through the API: the base channel with a withdrawn image, pools on its images, and the cluster
// they target, preferring one whose nodes run Elemental. On a real Rancher whose clusters run no
// Elemental node, a pool's nodes never show: waitForNodes then stops at the node table and says so
// in the test's annotations (issue 32).

import { expect, Page, test } from '@playwright/test';
import { ChannelEntry } from './emulator';
import { TEST_NAMESPACE } from './env';
import { SELECTOR_ANNOTATION, WITHDRAWN_ANNOTATION } from './names';
import { elementalNodes } from './rollout-reach';
import {
  ChannelOptions, fixtureEntries, fixtureFile, Seed, SeededChannel
} from './seed';

// Shared with the specs that import them from here.
export { SELECTOR_ANNOTATION, WITHDRAWN_ANNOTATION };

/** The label Elemental's elemental-populate-node-labels puts on every node it runs (rancher/elemental). */
const CLUSTER_TYPE = 'fleet.cattle.io.cluster';

/** The base channel's images by their fixture names (tests/fixtures/elemental/channels/sl-micro-6.1-base.json). */
export const BASE = {
  newest: 'base-v2.2.0-3.12-os', middle: 'base-v2.2.0-3.9-os', oldest: 'base-v2.2.0-3.8-os'
};
export const WITHDRAWAL_REASON = 'Boot loop on nodes with Secure Boot enabled (bsc#1230000); move to base-v2.2.0-3.9-os or newer.';

/** Pool targets that match no cluster: the pool is listed and shown, and nothing rolls out. */
export const NO_CLUSTER = [{ clusterSelector: { matchLabels: { 'e2e-no-such-label': 'none' } } }];

export interface TargetCluster {
  /** The Fleet cluster's name in TEST_NAMESPACE ('' where there is none, as on a Rancher with the local cluster only). */
  name: string;
  /** The pool targets that pick it (NO_CLUSTER without one). */
  targets: Record<string, unknown>[];
  /** Its nodes that run Elemental (none on a Rancher whose clusters have no Elemental machines). */
  nodes: string[];
}

/**
 * The first Fleet cluster of TEST_NAMESPACE with Elemental nodes, else the first one, else none
 * (Rancher's own cluster is in fleet-local: a Rancher without downstream clusters has none here).
 */
export async function targetCluster(seed: Seed): Promise<TargetCluster> {
  const clusters = await seed.list(CLUSTER_TYPE, TEST_NAMESPACE);
  const named = (cluster: Record<string, unknown>, nodes: string[]) => {
    const name = String((cluster.metadata as { name: string }).name);

    return {
      name, nodes, targets: [{ clusterName: name }]
    };
  };

  for (const cluster of clusters) {
    const nodes = (await elementalNodes(seed, [String((cluster.metadata as { name: string }).name)])).map((node) => node.name);

    if (nodes.length) {
      return named(cluster, nodes);
    }
  }

  return clusters.length ? named(clusters[0], []) : {
    name: '', nodes: [], targets: NO_CLUSTER
  };
}

/** Records on the channel that its image `version` (a fixture name) is withdrawn, as the channel page does. */
export async function withdraw(seed: Seed, channel: SeededChannel, version: string, reason = WITHDRAWAL_REASON): Promise<void> {
  await seed.update('elemental.cattle.io.managedosversionchannel', channel.name, (object) => {
    const metadata = object.metadata as { annotations?: Record<string, string> };

    metadata.annotations = {
      ...metadata.annotations,
      [WITHDRAWN_ANNOTATION]: JSON.stringify({
        [channel.version(version)]: {
          reason, by: 'admin', at: '2025-03-03T09:00:00.000Z'
        }
      }),
    };
  }, channel.namespace);
}

/**
 * The base channel's entries without their `base-` prefix, with the fixtures' changelogs and package
 * lists under the new names. The seed adds the run's suffix (7 characters) to every version name:
 * so shortened, the names are about as long as Elemental's own, which the page layouts are made for.
 */
function shortNamedBase(): { entries: ChannelEntry[]; files: NonNullable<ChannelOptions['files']> } {
  const files: NonNullable<ChannelOptions['files']> = {};
  const entries = fixtureEntries('sl-micro-6.1-base').map((entry) => {
    const original = entry.metadata.name;
    const name = original.replace(/^base-/, '');

    files[name] = { log: fixtureFile(original, 'updates.log'), packages: fixtureFile(original, 'packages') };

    return { ...entry, metadata: { name } };
  });

  return { entries, files };
}

/** The pages' world: the base channel (its oldest image withdrawn) and two pools on one cluster. */
export interface PageWorld {
  channel: SeededChannel;
  /** The channel's container images (ManagedOSVersion names), newest first. */
  images: { newest: string; middle: string; oldest: string };
  cluster: TargetCluster;
  /** Pinned to the middle image by a selector of `~2.2`: the newest is its upgrade ("Behind by 1 image"). */
  behind: string;
  /** Pinned to the withdrawn image. */
  withdrawn: string;
}

export async function seedPageWorld(seed: Seed): Promise<PageWorld> {
  // Names as long as the demo's, the run's suffix included (see shortNamedBase).
  const channel = await seed.channel({ ...shortNamedBase(), name: 'sl-micro-6.1' });
  const short = (name: string) => name.replace(/^base-/, '');
  const images = {
    newest: channel.version(short(BASE.newest)), middle: channel.version(short(BASE.middle)), oldest: channel.version(short(BASE.oldest))
  };

  await withdraw(seed, channel, short(BASE.oldest));
  const cluster = await targetCluster(seed);
  const behind = await seed.pool('behind', { managedOSVersionName: images.middle, clusterTargets: cluster.targets }, { [SELECTOR_ANNOTATION]: JSON.stringify({ channel: channel.name, version: '~2.2' }) });
  // It targets no cluster, so that it neither overlaps the first pool nor rolls anything out.
  const withdrawn = await seed.pool('withdrawn', { managedOSVersionName: images.oldest, clusterTargets: NO_CLUSTER });

  return {
    channel, images, cluster, behind, withdrawn
  };
}

/**
 * Waits until the page's node table shows the cluster's first Elemental node; on a Rancher whose
 * cluster runs none, until the table is there, noting in the test's annotations that it stopped there.
 */
export async function waitForNodes(page: Page, cluster: TargetCluster, timeout = 40_000): Promise<void> {
  const table = page.getByTestId('node-rollout-table');

  await expect(table).toBeVisible({ timeout });
  if (cluster.nodes.length) {
    await expect(table.locator(`[data-testid="node-row"][data-node="${ cluster.nodes[0] }"]`)).toBeVisible({ timeout });

    return;
  }
  await expect(page.getByTestId('node-rollout-unreadable').filter({ hasText: /^\s*Reading / })).toHaveCount(0, { timeout });
  test.info().annotations.push({ type: 'stopped', description: `${ cluster.name ? `cluster ${ cluster.name } runs` : 'no cluster to target:' } no Elemental node: checked up to the (empty) node table` });
}
