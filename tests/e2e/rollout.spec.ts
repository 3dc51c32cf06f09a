// Issue 12: upgrades that really happen on the nodes, which run the bundle's Plan as the
// system-upgrade-controller and suc-upgrade do. Roll back after an upgrade runs the old image
// (FORCE), the next upgrade takes FORCE back; a person's own FORCE survives; a same-tag switch
// warns and runs nothing; a node failure is shown with its message; a pinned version that is
// deleted is shown Terminating and not offered; the operator's refusals and lag are said plainly.
// Seeds its channel and pools through the API (support/seed.ts), so it runs on a real Rancher too;
// where the target clusters have no Elemental nodes it stops at "Delivered" and says so
// (support/rollout-reach.ts). The node failure needs the emulator's control endpoints.

import { Locator, Page } from '@playwright/test';
import { field, steveUrl } from './support/api';
import { ChannelEntry, EMULATOR_TAG, requireEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS, VERSION_TYPE } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { rollableEntries, SeededChannel, useSeed } from './support/seed';
import {
  elementalNodes, expectNodesOn, imageTag, nodesRollOut, nodeTags, poolBundle, startNodesOn, withEmulator
} from './support/rollout-reach';
import { TEST_NAMESPACE } from './support/env';

const FIXTURE = 'sl-micro-6.1-base';
// 3.8 to 3.9: nodes booting the fixture's 3.12 never rejoin (its image label is 64 characters), so
// the channel here ends at 3.9 (support/seed.ts rollableEntries).
const OLD = 'base-v2.2.0-3.8-os';
const NEW = 'base-v2.2.0-3.9-os';
const KVM = 'kvm-v2.2.0-3.8-os';
const OLD_TAG = imageTag(OLD);
const NEW_TAG = imageTag(NEW);
const FORCED = 'os-upgrades.cattle.io/forced';
const SELECTOR = 'os-upgrades.cattle.io/image-selector';

const seed = useSeed();

interface World {
  channel: SeededChannel;
  clusters: string[];
  pool: string;
  /** The nodes of the clusters really upgrade (else the test stops at "Delivered"). */
  rollsOut: boolean;
}

/**
 * A channel and a pool pinned to OLD by a selector that offers NEW, on two clusters three nodes at a
 * time; the nodes start on OLD and have run the pool's first (empty) job. With `targets: false` the
 * pool targets no cluster, for a test about the pool alone (no node is left half upgraded after it).
 */
async function world(spec: Record<string, unknown> = {}, targets = true): Promise<World> {
  const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
  const clusters = targets ? (await seed.clusters()).slice(0, 2) : [];
  const rollsOut = targets && await nodesRollOut(seed, clusters);

  if (rollsOut) {
    await startNodesOn(seed, channel, OLD, clusters);
  }
  const pool = await seed.pool('e2e-rollout', {
    managedOSVersionName: channel.version(OLD),
    clusterTargets:       clusters.map((clusterName) => ({ clusterName })),
    concurrency:          3,
    ...spec,
  }, { [SELECTOR]: JSON.stringify({ channel: channel.name, version: '~2.2' }) });

  if (rollsOut) {
    await expectNodesOn(seed, clusters, OLD_TAG, pool);
  }

  return {
    channel, clusters, pool, rollsOut
  };
}

async function approveInDialog(page: Page, row: Locator, button: 'pool-approve' | 'pool-rollback'): Promise<Locator> {
  if (button === 'pool-rollback') {
    // Roll back is in the row's ⋮ menu, as Rancher's row actions are.
    await row.locator('[data-testid^="pool-menu-"]').click();
    await page.getByRole('menuitem', { name: 'Roll back' }).click();
  } else {
    await row.getByTestId(button).click();
  }
  const dialog = page.getByTestId('approve-dialog');

  await expect(dialog).toBeVisible();
  // Approve and roll back open on their title, not on the first control (the diff).
  await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused();

  return dialog;
}

/**
 * A move back to a hash whose Jobs the system-upgrade-controller still keeps (for their TTL, 900 s)
 * with the same pod template runs nothing (pkg/os-upgrades/domain/README.md, rule "Kept Jobs"):
 * the node table says so for every node, and they stay on `tag`.
 */
async function expectKeptJobs(page: Page, row: Locator, clusters: string[], tag: string): Promise<void> {
  const nodes = row.getByTestId('pool-nodes');

  await expect(nodes.getByTestId('pool-nodes-detail').filter({ hasText: 'kept from an earlier roll out of this image: nothing runs' })).toBeVisible({ timeout: 45_000 });
  await expect(nodes).not.toHaveAttribute('data-verdict', 'rolledOut');
  await nodes.getByTestId('pool-nodes-link').click();
  const rows = page.getByTestId('node-rollout-table').locator('[data-testid="node-row"]');
  const kept = page.getByTestId('node-rollout-table').getByTestId('node-row-message').filter({ hasText: 'still keeps this node\'s finished Job for this image' });

  await expect(kept.first()).toBeVisible({ timeout: 45_000 });
  await expect(kept).toHaveCount(await rows.count());
  expect((await elementalNodes(seed, clusters)).map((n) => n.tag)).toEqual(Array(await rows.count()).fill(tag));
}

/**
 * Every node's Job finished (the nodes carry the Plan's hash): a node's tag moves at its boot,
 * before its Job completes, and other pools' Jobs on the same nodes can hold it longer.
 */
async function rolledOut(row: Locator, rollsOut: boolean): Promise<void> {
  if (rollsOut) {
    await expect(row.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 60_000 });
  }
}

/** The Plan the operator wrote into the pool's bundle runs `tag` (what a real Rancher shows without nodes). */
async function expectPlanOf(pool: string, tag: string): Promise<void> {
  await expect.poll(async() => field((await poolBundle(seed, pool, TEST_NAMESPACE)).plan, 'spec.version'), { message: `the Plan of ${ pool } runs ${ tag }` }).toBe(tag);
}

test.describe('upgrades on the nodes', () => {
  test.setTimeout(180_000);

  test('upgrade, roll back (forced: the nodes run the old image), upgrade again (FORCE gone): the first Jobs, still kept, run nothing', async({ page, problems }) => {
    const {
      channel, clusters, pool, rollsOut
    } = await world();
    const reach = async(tag: string) => (rollsOut ? expectNodesOn(seed, clusters, tag) : expectPlanOf(pool, tag));

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);

    // The new pool delivered first: the badge below is then the one that follows the approval.
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 45_000 });
    let dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(NEW));
    await expect(dialog.getByTestId('approve-forced')).toHaveCount(0);
    // Every state the badge shows from now on (a MutationObserver misses none, however short).
    await row.getByTestId('pool-rollout').evaluate((badge) => {
      const seen: string[] = [];
      const record = () => {
        const text = `${ badge.getAttribute('data-phase') }: ${ badge.textContent?.trim().replace(/\s+/g, ' ') }`;

        if (seen[seen.length - 1] !== text) {
          seen.push(text);
        }
      };

      (window as unknown as { rolloutSeen: string[] }).rolloutSeen = seen;
      new MutationObserver(record).observe(badge, {
        attributes: true, childList: true, subtree: true, characterData: true
      });
    });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await reach(NEW_TAG);
    const badgeSeen = () => page.evaluate(() => (window as unknown as { rolloutSeen: string[] }).rolloutSeen);

    // The badge moved and settled on Delivered (the Plan may be in the bundle before the badge moves).
    await expect.poll(async() => (await badgeSeen()).slice(-1).join(''), { timeout: 30_000 }).toMatch(/^done: /);
    // The stored status is the old Ready until the operator copies Fleet's answer: the page says it
    // waits for the operator (or, when the operator answered before the write's reply, that it
    // delivers), never "Delivered" on the old Ready. Fleet's WaitApplied lasts one step before its
    // Ready (it judges the applied Plan, not the nodes), so the page may go from waiting to
    // Delivered directly; it never says failed.
    const seen = await badgeSeen();

    expect(seen[0], seen.join(' | ')).toMatch(/^(waiting: Waiting for the operator|progressing: )/);
    expect(seen.some((s) => s.startsWith('error')), seen.join(' | ')).toBe(false);

    dialog = await approveInDialog(page, row, 'pool-rollback');
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(OLD));
    await expect(dialog.getByTestId('approve-forced')).toContainText('Forced downgrade');
    await expect(dialog.getByTestId('approve-forced')).toContainText('every targeted node installs this older image and reboots');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('FORCE');
    // The pool's first Jobs on 3.8 are kept, but FORCE changes their pod template: they are replaced and run.
    await expect(dialog.getByTestId('approve-kept-jobs')).toHaveCount(0);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const rolledBack = await storedPool(seed, pool);

    expect(field(rolledBack, 'spec.upgradeContainer')).toEqual({ envs: [{ name: 'FORCE', value: 'true' }] });
    expect(field(rolledBack, 'metadata.annotations')).toMatchObject({ [FORCED]: 'true' });
    await reach(OLD_TAG);
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });
    await rolledOut(row, rollsOut);

    dialog = await approveInDialog(page, row, 'pool-approve');
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(NEW));
    await expect(dialog.getByTestId('approve-forceRemoved')).toBeVisible();
    if (rollsOut) {
      // Said before the click: the first approval's Jobs for 3.9 are kept with this very pod template.
      await expect(dialog.getByTestId('approve-kept-jobs')).toContainText('Nodes will not be upgraded before');
    }
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const forward = await storedPool(seed, pool);

    expect(field(forward, 'spec.upgradeContainer')).toBeUndefined();
    expect(field(forward, `metadata.annotations`)).not.toHaveProperty([FORCED]);
    // The first approval's Jobs for 3.9 are still kept, with this very pod template (no FORCE
    // again): the controller runs nothing now, and the page says so rather than "upgrading".
    await (rollsOut ? expectKeptJobs(page, row, clusters, OLD_TAG) : expectPlanOf(pool, NEW_TAG));
    expect(problems.pageErrors).toEqual([]);
  });

  test('a person\'s own FORCE survives an approval; a quick roll back meets the first Jobs, still kept, and runs nothing', async({ page }) => {
    const own = { envs: [{ name: 'FORCE', value: 'true' }, { name: 'MY_FLAG', value: '1' }] };
    const {
      channel, clusters, pool, rollsOut
    } = await world({ upgradeContainer: own });
    const reach = async(tag: string) => (rollsOut ? expectNodesOn(seed, clusters, tag) : expectPlanOf(pool, tag));

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const approved = await storedPool(seed, pool);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(channel.version(NEW));
    expect(field(approved, 'spec.upgradeContainer')).toEqual(own);
    expect(field(approved, 'metadata.annotations')).not.toHaveProperty([FORCED]);
    await reach(NEW_TAG);
    await rolledOut(row, rollsOut);

    // Rolling back with it: the dialog says the person's FORCE already allows the downgrade.
    const back = await approveInDialog(page, row, 'pool-rollback');

    await expect(back.getByTestId('approve-forceKept')).toBeVisible();
    if (rollsOut) {
      await expect(back.getByTestId('approve-kept-jobs')).toContainText('Nodes will not be upgraded before');
    }
    await back.getByTestId('approve-confirm-async-button').click();
    await expect(back).toHaveCount(0);
    expect(field(await storedPool(seed, pool), 'spec.upgradeContainer')).toEqual(own);
    // The pool's first Jobs on 3.8 are still kept with the same pod template (the person's FORCE
    // was in it then too): nothing runs until they go (rule "Kept Jobs").
    await (rollsOut ? expectKeptJobs(page, row, clusters, NEW_TAG) : expectPlanOf(pool, OLD_TAG));
  });

  test('a same-tag switch (another flavour of the build) warns that the nodes run nothing, and they do not', async({ page }) => {
    const { channel, clusters, pool } = await world();
    const entries: ChannelEntry[] = rollableEntries(FIXTURE);
    const old = entries.find((e) => e.metadata.name === OLD) as ChannelEntry;
    const kvm: ChannelEntry = {
      metadata: { name: KVM },
      spec:     {
        ...old.spec,
        metadata: {
          ...old.spec.metadata, upgradeImage: 'registry.suse.com/suse/sl-micro/6.1/kvm-os-container:2.2.0-3.8', displayName: 'SL Micro KVM 6.1 OS', created: Math.floor(Date.now() / 1000) - 60
        },
      },
    };

    await seed.publish(channel, [kvm, ...entries]);
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);
    const before = await nodeTags(seed, clusters);
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(KVM));
    await expect(dialog.getByTestId('approve-same-tag')).toContainText('Nodes will not run anything');
    await expect(dialog.getByTestId('approve-same-tag')).toContainText('no node installs anything');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });

    // No node is cordoned nor boots another image meanwhile (none of them, where there are none).
    const seen = new Set<string>();
    const deadline = Date.now() + 6000;

    while (Date.now() < deadline) {
      (await nodeTags(seed, clusters)).forEach((n) => seen.add(n));
      await page.waitForTimeout(200);
    }
    expect([...seen].sort()).toEqual(before);
    expect(before.every((n) => n.endsWith(` ${ OLD_TAG }`)), before.join(', ')).toBe(true);
  });

  test('a node failing mid-rollout is shown with the script\'s message, though Fleet says Delivered', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('node failures');
    const message = 'elemental upgrade failed: no space left on device';

    // The emulator's seed: the pool edge-berlin on the berlin clusters' six nodes, pinned to 3.9.
    await withEmulator(async(control) => {
      await control.failNode('edge-berlin-01', 'edge-berlin-01-node-2', message);
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      const row = poolRow(page, 'edge-berlin');
      const dialog = await approveInDialog(page, row, 'pool-approve');

      await dialog.getByTestId('approve-confirm-async-button').click();
      await expect(dialog).toHaveCount(0);
      const nodes = row.getByTestId('pool-nodes');

      await expect(nodes.getByTestId('pool-nodes-failure')).toContainText(message, { timeout: 40_000 });
      await expect(nodes.getByTestId('pool-nodes-failure')).toContainText('edge-berlin-01-node-2');
      await expect(nodes).toHaveAttribute('data-verdict', 'failed');
      // Fleet judges the applied Plan, not the jobs (fleet monitor/updatestatus.go with wrangler's
      // summary): it says Delivered, and only the node column tells of the failure.
      await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done');
      await expect(row.getByTestId('pool-rollout')).toContainText('Delivered');
      await expect(row.getByTestId('pool-rollout-message')).toHaveCount(0);
      const failed = (await control.nodes()).find((n) => n.node === 'edge-berlin-01-node-2');

      expect(failed).toMatchObject({
        state: 'failed', message, tag: imageTag('base-v2.2.0-3.9-os')
      });
    });
  });

  test('Fleet says Delivered while the nodes still upgrade; the node column counts them', async({ page }) => {
    const { clusters, pool, rollsOut } = await world({ concurrency: 1 });

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const nodes = row.getByTestId('pool-nodes');

    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });
    if (!rollsOut) {
      await expectPlanOf(pool, NEW_TAG);

      return;
    }
    const count = (await elementalNodes(seed, clusters)).length;

    // A job runs: Fleet has applied the Plan.
    await expect.poll(async() => (await elementalNodes(seed, clusters)).some((n) => n.cordoned || n.tag === NEW_TAG), { timeout: 20_000, intervals: [200] }).toBe(true);
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done');
    // Delivered, and the nodes are far from done: the page says so.
    await expect(nodes).toHaveAttribute('data-verdict', 'progressing');
    await expect(nodes.getByTestId('pool-nodes-message')).toHaveText(new RegExp(`^[0-${ count - 1 }] of ${ count } nodes on `));
    expect((await elementalNodes(seed, clusters)).some((n) => n.tag === OLD_TAG)).toBe(true);
    await expect(nodes).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 90_000 });
  });

  test('a pinned version that is deleted is shown Terminating and offered to no one', async({ page }) => {
    const { channel, pool } = await world({}, false);
    const pinned = await seed.pool('e2e-pinned', { managedOSVersionName: channel.version(NEW) });

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const offered = poolRow(page, pool);

    await expect(offered.getByTestId('pool-upgrade-available')).toBeVisible();
    // The second pool pins NEW: the operator's finalizer keeps it, Terminating.
    expect((await seed.api.delete(steveUrl(VERSION_TYPE, channel.namespace, channel.version(NEW)))).status).toBeLessThan(300);
    await expect.poll(async() => field(await seed.get(VERSION_TYPE, channel.version(NEW), channel.namespace), 'metadata.deletionTimestamp'), { timeout: 10_000 }).toBeTruthy();
    await expect(poolRow(page, pinned).getByTestId('pool-pin-terminating')).toContainText(channel.version(NEW));
    await expect(offered.getByTestId('pool-upgrade-available')).toHaveCount(0);
  });

  test('the operator refusing a pin (missing version) is said plainly, not the old Ready', async({ page }) => {
    const { pool } = await world({}, false);
    const missing = 'base-v9.9.9-1.1-os';

    await seed.update(POOL_TYPE, pool, (object) => {
      (object.spec as Record<string, unknown>).managedOSVersionName = missing;
    });
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);

    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'refused');
    await expect(row.getByTestId('pool-rollout-message')).toContainText(`The operator refuses this pin: image ${ missing } does not exist`);
  });

  test('a 409 caused only by the operator\'s label is retried; the approval is written once', async({ page }) => {
    const { channel, pool } = await world({}, false);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(NEW));
    // The operator patches its label meanwhile (as it does at each reconcile of a pin).
    await seed.update(POOL_TYPE, pool, (object) => {
      const metadata = object.metadata as { labels?: Record<string, string> };

      metadata.labels = { ...metadata.labels, 'elemental.cattle.io/managed-os-version-name': 'stale' };
    });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const written = await storedPool(seed, pool);

    expect(field(written, 'spec.managedOSVersionName')).toBe(channel.version(NEW));
    const history = JSON.parse(String((field(written, 'metadata.annotations') as Record<string, string>)['os-upgrades.cattle.io/history']));

    expect(history.filter((entry: { to?: string }) => entry.to === channel.version(NEW))).toHaveLength(1);
  });
});
