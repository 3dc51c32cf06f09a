// What the pool specs (pools, write-readback, pool-faults, approve-impact, readable-state) seed
// through the API (support/seed.ts), and the few things they do to a session or a channel that a
// real Rancher allows: end the page's session on the server, publish a channel file the operator
// cannot read, find out whether a cluster runs Elemental nodes at all.

import { Page, request as playwrightRequest, Route } from '@playwright/test';
import { field, requestApi } from './api';
import { TEST_NAMESPACE } from './env';
import { POOLS, SELECTOR_ANNOTATION, WITHDRAWN_ANNOTATION } from './names';
import { elementalNodes as elementalNodesOf } from './rollout-reach';
import { ChannelEntry } from './emulator';
import { Seed, SeededChannel } from './seed';
import { withdraw } from './seed-pages';

// Shared with the specs that import them from here.
export { SELECTOR_ANNOTATION, WITHDRAWN_ANNOTATION };

export const BASE_FIXTURE = 'sl-micro-6.1-base';
/** The base fixture's images a pool is pinned to: 3.9 has the newer 3.12 to approve (support/channels.ts NEWEST_SEEDED). */
export const B39 = 'base-v2.2.0-3.9-os';
export const B38 = 'base-v2.2.0-3.8-os';

const FLEET_CLUSTER_TYPE = 'fleet.cattle.io.cluster';

/**
 * The base fixture's channel (or `entries` of it, such as its rollableEntries), with 3.8 withdrawn as the demo withdraws it (the record lives on the
 * channel: tests/emulator/rancher/seed.ts SEED_WITHDRAWALS), so no selector picks it.
 */
export async function seedBaseChannel(seed: Seed, entries?: ChannelEntry[]): Promise<SeededChannel> {
  const channel = await seed.channel({ fixture: BASE_FIXTURE, entries });

  // The version names are known once the channel is (its tag): the record is added after.
  await withdraw(seed, channel, B38, 'Boot loop on nodes with Secure Boot enabled');

  return channel;
}

/** The selector annotation as the extension writes it: `{"channel":…,"version":…}`. */
export function selectorAnnotation(channel: SeededChannel, version?: string): Record<string, string> {
  return { [SELECTOR_ANNOTATION]: JSON.stringify(version ? { channel: channel.name, version } : { channel: channel.name }) };
}

/** Targets of the first Fleet cluster of the test namespace (any Rancher has one). */
export async function firstClusterTargets(seed: Seed): Promise<{ clusterName: string }[]> {
  const [cluster] = await seed.clusters();

  return [{ clusterName: cluster }];
}

/**
 * Targets that match no cluster, for a pool whose approval is what a test is about: a node that boots
 * the base channel's 3.12 never rejoins (its image label is 64 characters, domain rule "Node labels
 * of an image"), so approving it must not reach the nodes other tests use.
 */
export const NO_CLUSTER_TARGETS = [{ clusterSelector: { matchLabels: { 'os-upgrades.cattle.io/e2e': 'no-such-cluster' } } }];

/**
 * A pool following the channel by the selector `~2.2` and pinned to 3.9: the channel's 3.12 is its
 * upgrade to approve. It targets no cluster unless `spec` says (NO_CLUSTER_TARGETS).
 */
export async function seedUpgradablePool(seed: Seed, channel: SeededChannel, name: string, spec: Record<string, unknown> = {}): Promise<string> {
  return seed.pool(name, {
    managedOSVersionName: channel.version(B39), clusterTargets: NO_CLUSTER_TARGETS, ...spec
  }, selectorAnnotation(channel, '~2.2'));
}

/** The pages of a seeded pool and channel. */
export function poolEditPath(name: string): string {
  return `${ POOLS }/${ TEST_NAMESPACE }/${ name }/edit`;
}

/** An annotation of a stored object (its key has dots: `field` cannot name it). */
export function annotation(object: unknown, key: string): string | undefined {
  return (field(object, 'metadata.annotations') as Record<string, string> | undefined)?.[key];
}

/**
 * Ends the page's session on the server and leaves its cookie in the browser, as an expired or
 * revoked token does: the page's next call answers 401. Logs out with a copy of the page's cookies:
 * `/v1/logout` (what shell/store/auth.js `logout` posts since shell 3.0.8; Rancher 2.13) or Rancher
 * 2.12's `/v3/tokens?action=logout` (rancher/rancher pkg/auth/tokens/manager.go `logout`), both
 * deleting the token the cookie names.
 */
export async function endSession(page: Page): Promise<void> {
  const baseURL = new URL(page.url()).origin;
  const context = await playwrightRequest.newContext({
    baseURL, ignoreHTTPSErrors: true, storageState: { cookies: await page.context().cookies(), origins: [] }
  });
  const api = requestApi(context);

  try {
    for (const path of ['/v1/logout', '/v3/tokens?action=logout']) {
      const answer = await api.post(path, {});

      if (answer.status < 300 && typeof answer.body.text !== 'string') {
        return;
      }
    }
    throw new Error('neither /v1/logout nor /v3/tokens?action=logout ended the session');
  } finally {
    await context.dispose();
  }
}

export interface ClusterSize {
  name: string;
  /** The nodes Fleet's agent reports (`status.display.readyNodes`, "ready/total"); undefined when unknown. */
  nodes?: number;
}

/** The Fleet clusters of the test namespace with their size, by name. */
export async function clusterSizes(seed: Seed): Promise<ClusterSize[]> {
  const clusters = await seed.list(FLEET_CLUSTER_TYPE, TEST_NAMESPACE);

  return clusters.map((cluster) => {
    const total = /\/\s*(\d+)\s*$/.exec(String(field(cluster, 'status.display.readyNodes') ?? ''));

    return { name: String(field(cluster, 'metadata.name')), nodes: total ? Number(total[1]) : undefined };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * How many nodes of the Fleet cluster run Elemental (the label elemental-populate-node-labels
 * writes at boot, rancher/elemental framework/files/usr/sbin/elemental-populate-node-labels), read
 * through the cluster's own API (/k8s/clusters/<management id>/v1/nodes). 0 when there are none or
 * the cluster cannot be read: then an approval is delivered (Fleet's bundle) but no node upgrades.
 */
export async function elementalNodes(seed: Seed, cluster: string): Promise<number> {
  return (await elementalNodesOf(seed, [cluster])).length;
}

/** The cluster a rollout is quickest on: the one with the fewest Elemental nodes (any), else the first. */
export async function rolloutCluster(seed: Seed): Promise<{ name: string; elementalNodes: number }> {
  const names = await seed.clusters();
  const counted = await Promise.all(names.map(async(name) => ({ name, elementalNodes: await elementalNodes(seed, name) })));
  const withNodes = counted.filter((c) => c.elementalNodes > 0).sort((a, b) => a.elementalNodes - b.elementalNodes);

  return withNodes[0] ?? counted[0];
}

// Faults of the browser's own network (Playwright's routes), which a real Rancher's users meet too:
// an answer lost after the server applied the write (a connection reset between the browser and
// Rancher), a proxy's 503 in front of it, a slow link. The server itself is never told.

/** Handles the page's next `method` request to `path` with `handle`; every other request passes. */
async function onNextRequest(page: Page, method: string, path: string, handle: (route: Route) => Promise<void>): Promise<void> {
  const matches = (url: URL) => url.pathname === path;
  const handler = async(route: Route) => {
    if (route.request().method() !== method) {
      return route.fallback();
    }
    await page.unroute(matches, handler);
    await handle(route);
  };

  await page.route(matches, handler);
}

/** The next `method` to `path` reaches the server and is applied; its answer is cut off on the way back. */
export function loseNextAnswer(page: Page, method: string, path: string): Promise<void> {
  return onNextRequest(page, method, path, async(route) => {
    await route.fetch();
    await route.abort('connectionreset');
  });
}

/** The next `method` to `path` is answered 503 by a proxy in front of Rancher: the server never sees it. */
export function proxyUnavailableNext(page: Page, method: string, path: string): Promise<void> {
  return onNextRequest(page, method, path, (route) => route.fulfill({
    status: 503, contentType: 'text/plain', body: 'Service Unavailable'
  }));
}

/** The next `method` to `path` is sent `ms` late; not at all when the page gave up on it meanwhile. */
export function delayNextRequest(page: Page, method: string, path: string, ms: number): Promise<void> {
  return onNextRequest(page, method, path, async(route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue().catch(() => undefined);
  });
}
