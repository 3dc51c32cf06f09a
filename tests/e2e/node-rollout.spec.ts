// Issue 14: a pool's rollout as its clusters' nodes report it. An approval rolls node by node to
// "All N nodes on <image>"; a failed job shows its node and message and the pool is never
// "Rolled out"; a node failing again and again is retried by the system-upgrade-controller and says
// so; a user without access to one downstream cluster, or without the System project there, sees
// its node state as unknown; a deleted Fleet bundle is reported. The approval, the user without
// access and the deleted bundle seed their channel and pools through the API (support/seed.ts) and
// run on a real Rancher too (where the clusters have no Elemental nodes they stop at "Delivered",
// support/rollout-reach.ts); node failures and disconnections need the emulator's control endpoints.

import { Page } from '@playwright/test';
import { field } from './support/api';
import { EMULATOR_TAG, requireEmulator } from './support/emulator';
import { expectAccessible } from './support/a11y';
import { onRealStack, TEST_NAMESPACE } from './support/env';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { poolRow } from './support/pools';
import { SeededChannel, rollableEntries, useSeed } from './support/seed';
import {
  elementalNodes, expectNodesOn, imageTag, needClusters, nodesRollOut, poolBundle, startNodesOn, withEmulator
} from './support/rollout-reach';

const FIXTURE = 'sl-micro-6.1-base';
// 3.8 to 3.9: nodes booting the fixture's 3.12 never rejoin (its image label is 64 characters), so
// the seeded channels end at 3.9 (support/seed.ts rollableEntries).
const OLD_VERSION = 'base-v2.2.0-3.8-os';
const NEW_VERSION = 'base-v2.2.0-3.9-os';
// The node column names the image without its registry path.
const OLD = 'base-os-container:2.2.0-3.8';
const NEW = 'base-os-container:2.2.0-3.9';
/** What the emulator demo's edge-berlin (pinned to 6.1's 3.9) is offered: SL Micro 6.2's image. */
const DEMO_NEW = 'base-os-container:2.3.0-6.1';
// The first read of every targeted cluster, on a loaded machine.
const FIRST_READ = { timeout: 45_000 };

const seed = useSeed();

/** Approves the pool's offered image in the pools page's dialog (by default the emulator demo seed's edge-berlin). */
async function approvePool(page: Page, pool = 'edge-berlin'): Promise<void> {
  const row = poolRow(page, pool);

  await row.getByTestId('pool-approve').click();
  const dialog = page.getByTestId('approve-dialog');

  await dialog.getByTestId('approve-confirm-async-button').click();
  await expect(dialog).toHaveCount(0);
}

/**
 * A pool on `clusters` pinned to `version` (by a selector offering the newer image when it is the
 * older one), the nodes started on it and done with the pool's first job where they roll out.
 */
async function poolOn(channel: SeededChannel, clusters: string[], version: string, spec: Record<string, unknown> = {}): Promise<{ pool: string; rollsOut: boolean }> {
  const rollsOut = await nodesRollOut(seed, clusters);

  if (rollsOut) {
    await startNodesOn(seed, channel, version, clusters);
  }
  const pool = await seed.pool('e2e-nodes', {
    managedOSVersionName: channel.version(version), clusterTargets: clusters.map((clusterName) => ({ clusterName })), ...spec
  }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: channel.name, version: '~2.2' }) });

  if (rollsOut) {
    await expectNodesOn(seed, clusters, imageTag(version), pool);
  }

  return { pool, rollsOut };
}

test.describe('rollout from the nodes', () => {
  test.setTimeout(180_000);

  test('an approval rolls through the nodes, and the counts follow it to all nodes on the image', async({ page, problems }) => {
    const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
    const clusters = (await seed.clusters()).slice(0, 2);
    // Fewer at once than there are nodes (the stack has 3 on one cluster): the counts must show steps between.
    const { pool, rollsOut } = await poolOn(channel, clusters, OLD_VERSION, { concurrency: 2 });

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const nodes = poolRow(page, pool).getByTestId('pool-nodes');

    if (!rollsOut) {
      await approvePool(page, pool);
      await expect(poolRow(page, pool).getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', FIRST_READ);
      await expect.poll(async() => field((await poolBundle(seed, pool, TEST_NAMESPACE)).plan, 'spec.version')).toBe(imageTag(NEW_VERSION));

      return;
    }
    const perCluster = clusters.map((cluster) => ({ cluster, count: 0 }));

    for (const node of await elementalNodes(seed, clusters)) {
      (perCluster.find((c) => c.cluster === node.cluster) as { count: number }).count++;
    }
    const total = perCluster.reduce((sum, c) => sum + c.count, 0);

    await expect(nodes).toHaveAttribute('data-verdict', 'rolledOut', FIRST_READ);
    await expect(nodes.getByTestId('pool-nodes-message')).toHaveText(`All ${ total } nodes on ${ OLD }`);

    // Every text the cell shows, recorded in the page as it changes (polling from here could miss a step).
    await page.evaluate((name) => {
      const seen: string[] = [];
      const cell = () => [...document.querySelectorAll('[data-testid="pools-table"] tr')]
        .find((tr) => [...tr.querySelectorAll('a')].some((a) => a.textContent?.trim() === name))?.querySelector('[data-testid="pool-nodes"]');
      const record = () => {
        const text = [...(cell()?.querySelectorAll('[data-testid="pool-nodes-message"], [data-testid="pool-nodes-detail"]') ?? [])].map((e) => e.textContent?.trim()).join(' | ');

        if (text && seen[seen.length - 1] !== text) {
          seen.push(text);
        }
      };

      (window as unknown as { seenRollout: string[] }).seenRollout = seen;
      new MutationObserver(record).observe(document.body, {
        subtree: true, childList: true, characterData: true
      });
    }, pool);
    await approvePool(page, pool);
    await expect(nodes.getByTestId('pool-nodes-message')).toHaveText(`All ${ total } nodes on ${ NEW }`, { timeout: 90_000 });
    const seen = await page.evaluate(() => (window as unknown as { seenRollout: string[] }).seenRollout);
    const progress = seen.map((text) => new RegExp(`^(\\d+) of ${ total } nodes on `).exec(text)?.[1]).filter((n): n is string => n !== undefined).map(Number);

    // Node by node: the count of nodes on the new image only goes up, through every phase of a job.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.some((n) => n > 0 && n < total)).toBe(true);
    // kwok's nodes on the real stack never reboot, and the cordon the harness plays for the drain
    // (real-suc.ts) may pass between two reads: the upgrade is what they surely show.
    for (const phase of onRealStack() ? ['upgrading'] : ['draining', 'upgrading', 'rebooting']) {
      expect(seen.some((text) => text.includes(` ${ phase }`)), `${ phase } in ${ seen.join(' / ') }`).toBe(true);
    }
    expect(seen.some((text) => text.includes('failed'))).toBe(false);
    await expect(nodes).toHaveAttribute('data-verdict', 'rolledOut');
    // What the page says is what the nodes run.
    expect((await elementalNodes(seed, clusters)).map((n) => n.tag)).toEqual(Array(total).fill(imageTag(NEW_VERSION)));

    await nodes.getByTestId('pool-nodes-clusters-toggle').click();
    await expect(nodes.getByTestId('pool-nodes-cluster')).toHaveText(perCluster.map((c) => `${ c.cluster }: All ${ c.count } nodes on ${ NEW }`));
    expect(problems.pageErrors).toEqual([]);
  });

  test('a user without access to one downstream cluster sees its node state as unknown', async({ page, problems }) => {
    // The emulator's user `limited` has no access to edge-berlin-02 (E2E_LIMITED_* on a real Rancher).
    await needClusters(seed, ['edge-berlin-01', 'edge-berlin-02', 'edge-munich-01']);
    const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
    const berlinPool = await poolOn(channel, ['edge-berlin-01', 'edge-berlin-02'], OLD_VERSION, { concurrency: 3 });
    const munichPool = await poolOn(channel, ['edge-munich-01'], NEW_VERSION);

    test.skip(!berlinPool.rollsOut || !munichPool.rollsOut, 'needs Elemental nodes on the demo clusters');
    await loginAs(page, 'limited');
    await page.goto(dashboardPath(POOLS));
    const berlin = poolRow(page, berlinPool.pool).getByTestId('pool-nodes');

    await expect(berlin).toHaveAttribute('data-verdict', 'unknown', FIRST_READ);
    await expect(berlin.getByTestId('pool-nodes-message')).toHaveText('Delivered to 2 clusters; node state unknown for edge-berlin-02');
    await expect(berlin.getByTestId('pool-nodes-detail').first()).toHaveText(`Where it can be read: 3 of 3 nodes on ${ OLD }`);
    await berlin.getByTestId('pool-nodes-clusters-toggle').click();
    await expect(berlin.locator('[data-cluster="edge-berlin-02"]')).toContainText('you have no access to that cluster');
    // Pools on clusters the user may read are unaffected.
    await expect(poolRow(page, munichPool.pool).getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut');

    await berlin.getByTestId('pool-nodes-link').click();
    await expect(page.locator('[data-testid="node-rollout-unreadable"][data-cluster="edge-berlin-02"]')).toBeVisible();
    await expect(page.getByTestId('node-rollout-table').locator('[data-testid="node-row"]')).toHaveCount(3);
    expect(problems.pageErrors).toEqual([]);
  });

  test('a pool whose Fleet bundle was deleted says so, though its conditions still look ready', async({ page, problems }) => {
    const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
    const [cluster] = await seed.clusters();
    const { pool, rollsOut } = await poolOn(channel, [cluster], NEW_VERSION);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);

    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', FIRST_READ);
    if (rollsOut) {
      await expect(row.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut', FIRST_READ);
    }
    const deleted = await seed.api.delete(`/v1/fleet.cattle.io.bundles/${ TEST_NAMESPACE }/mos-${ pool }`);

    expect(deleted.status).toBeLessThan(300);
    await expect(row.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'bundleMissing');
    await expect(row.getByTestId('pool-nodes-message')).toContainText(`The Fleet bundle of pool ${ pool } is gone`);
    // Fleet's view, copied by the operator, still says delivered: only the node view tells.
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done');
    expect(problems.pageErrors).toEqual([]);
  });

  test('a node whose upgrade was deleted mid-way stays cordoned, and the pool it runs says so', async({ page, problems }) => {
    const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
    const clusters = (await seed.clusters()).slice(0, 1);
    const { pool, rollsOut } = await poolOn(channel, clusters, OLD_VERSION);

    test.skip(!rollsOut, 'needs Elemental nodes: nothing is cordoned where no node upgrades');
    // Another pool moves the same nodes on; it is deleted as soon as its first Job cordoned a node.
    const other = await seed.pool('e2e-cordon', { managedOSVersionName: channel.version(NEW_VERSION), clusterTargets: clusters.map((clusterName) => ({ clusterName })) });
    let cordoned = '';

    await expect.poll(async() => {
      cordoned = (await elementalNodes(seed, clusters)).find((n) => n.cordoned)?.name ?? '';

      return cordoned;
    }, {
      message: 'a node cordoned by the other pool\'s Job', timeout: 60_000, intervals: [200]
    }).not.toBe('');
    await seed.api.delete(`/v1/${ POOL_TYPE }s/${ channel.namespace }/${ other }`);
    // Only a completed Job uncordons (system-upgrade-controller handle_batch.go): the deleted one never will.
    await expect.poll(async() => !!await seed.get('fleet.cattle.io.bundle', `mos-${ other }`, channel.namespace), { timeout: 30_000 }).toBe(false);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, pool).getByTestId('pool-nodes').getByTestId('pool-nodes-link').click();
    const table = page.getByTestId('node-rollout-table');
    const row = table.locator('tr', { has: page.locator(`[data-node="${ cordoned }"]`) });

    await expect(row.getByTestId('node-row-message')).toContainText('Cordoned: no new pods are scheduled on this node', FIRST_READ);
    expect((await elementalNodes(seed, clusters)).find((n) => n.name === cordoned)?.cordoned).toBe(true);
    await expect(table.getByTestId('node-row-message').filter({ hasText: 'Cordoned' })).toHaveCount(1);
    expect(problems.pageErrors).toEqual([]);
    // A Job that completes there uncordons it, for the tests after this one.
    await startNodesOn(seed, channel, OLD_VERSION, clusters);
  });

  test('a failed node shows its job\'s message, and the pool is not rolled out', { tag: EMULATOR_TAG }, async({ page, problems }) => {
    requireEmulator('node failures');
    // The emulator's seed: the pool edge-berlin on the berlin clusters' six nodes, pinned to 3.9.
    await withEmulator(async(control) => {
      const message = 'elemental upgrade failed: no space left on device';

      await control.failNode('edge-berlin-01', 'edge-berlin-01-node-2', message);
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      await approvePool(page);
      const nodes = poolRow(page, 'edge-berlin').getByTestId('pool-nodes');

      await expect(nodes).toHaveAttribute('data-verdict', 'failed', { timeout: 60_000 });
      await expect(nodes.getByTestId('pool-nodes-failure')).toHaveText(`edge-berlin-01 / edge-berlin-01-node-2: ${ message }`);
      // The other cluster finishes; the failed one never does, so the pool is never rolled out.
      await nodes.getByTestId('pool-nodes-clusters-toggle').click();
      await expect(nodes.locator('[data-cluster="edge-berlin-02"]')).toHaveText(`edge-berlin-02: All 3 nodes on ${ DEMO_NEW }`, { timeout: 60_000 });
      await expect(nodes).toHaveAttribute('data-verdict', 'failed');
      await expect(nodes.getByTestId('pool-nodes-message')).toContainText('1 node failed');

      // The per-node table: the failed node, its image now (the old one) and the message.
      await nodes.getByTestId('pool-nodes-link').click();
      const table = page.getByTestId('node-rollout-table');
      const failed = table.locator('tr', { has: page.locator('[data-node="edge-berlin-01-node-2"]') });

      await expect(failed.locator('[data-testid="node-row"]')).toHaveAttribute('data-state', 'failed');
      // The script's words come from the failed job's pod log; the Job's own words are on hover.
      await expect(failed.getByTestId('node-row-message')).toHaveText(message);
      await expect(failed.getByTestId('node-row-message')).toHaveAttribute('title', 'Job has reached the specified backoff limit');
      await expect(failed).toContainText('2.2.0-3.9');
      await expect(table.locator('[data-testid="node-row"]')).toHaveCount(6);
      await expect(table.locator('[data-testid="node-row"][data-state="updated"]')).toHaveCount(4);
      await expect(page.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'failed');
      // Sortable: by node name, descending puts node-3 of berlin-02 first.
      await table.getByRole('columnheader', { name: 'Node' }).click();
      await table.getByRole('columnheader', { name: 'Node' }).click();
      await expect(table.locator('[data-testid="node-row"]').first()).toHaveAttribute('data-node', 'edge-berlin-02-node-3');
      await expectAccessible(page, '[data-testid="node-rollout-table"]');
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('nodes that boot 2.2.0-3.12, whose image label is 64 characters, stay on their old tag, and the page says why', { tag: EMULATOR_TAG }, async({ page, problems }) => {
    requireEmulator('hosts whose kubelet does not start');
    // A host booting 3.12 runs it, but its kubelet refuses the populated labels (tests/emulator/suc/nodes.ts
    // bootInto): the node is Ready=Unknown with the labels of its 3.9 boot, and its Job never completes.
    await withEmulator(async(control) => {
      try {
        const channel = await seed.channel({ fixture: FIXTURE });
        const [cluster] = await seed.clusters();
        const { pool } = await poolOn(channel, [cluster], NEW_VERSION, { concurrency: 1 });

        await loginAs(page, 'admin');
        await page.goto(dashboardPath(POOLS));
        await approvePool(page, pool);
        await poolRow(page, pool).getByTestId('pool-nodes').getByTestId('pool-nodes-link').click();
        const table = page.getByTestId('node-rollout-table');
        const refused = table.locator('tr', { has: page.getByTestId('node-row-message').filter({ hasText: 'over the 63 Kubernetes allows' }) });

        await expect(refused.first()).toBeVisible({ timeout: 60_000 });
        await expect(refused.first().getByTestId('node-row-tag')).toHaveText('2.2.0-3.9');
        await expect(table.locator('[data-testid="node-row"][data-state="updated"]')).toHaveCount(0);
        // The host did boot 3.12: its kubelet is what stopped, not the upgrade.
        await expect.poll(async() => (await control.nodes()).some((n) => n.tag === '2.2.0-3.12' && n.kubeletStopped?.startsWith('invalid node labels')), { timeout: 60_000 }).toBe(true);
        await expect(refused.first().getByTestId('node-row-tag')).toHaveText('2.2.0-3.9');
        await expect(page.getByTestId('pool-nodes')).not.toHaveAttribute('data-verdict', 'rolledOut');
        expect(problems.pageErrors).toEqual([]);
      } finally {
        // Those hosts never come back by themselves: the next test starts from the seed again.
        await control.reset();
      }
    });
  });

  test('a disconnected cluster\'s node state is unknown, not guessed, and comes back when it reconnects', { tag: EMULATOR_TAG }, async({ page, problems }) => {
    requireEmulator('cluster disconnection');
    // The emulator's seed: the pool edge-berlin on the berlin clusters' six nodes, pinned to 3.9.
    await withEmulator(async(control) => {
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      const berlin = poolRow(page, 'edge-berlin').getByTestId('pool-nodes');

      await expect(berlin).toHaveAttribute('data-verdict', 'rolledOut', FIRST_READ);
      await control.setClusterConnected('edge-berlin-02', false);
      await expect(berlin).toHaveAttribute('data-verdict', 'unknown', FIRST_READ);
      await expect(berlin.getByTestId('pool-nodes-message')).toHaveText('Delivered to 2 clusters; node state unknown for edge-berlin-02');
      await berlin.getByTestId('pool-nodes-clusters-toggle').click();
      await expect(berlin.locator('[data-cluster="edge-berlin-02"]')).toContainText('cluster agent disconnected');
      await control.setClusterConnected('edge-berlin-02', true);
      await expect(berlin).toHaveAttribute('data-verdict', 'rolledOut', FIRST_READ);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a node that fails again and again cycles as the system-upgrade-controller runs it: failed, retried with its last failure, failed', { tag: EMULATOR_TAG }, async({ page, problems }) => {
    requireEmulator('node failures and the job TTL');
    // The emulator's seed: the pool edge-berlin on the berlin clusters' six nodes, pinned to 3.9.
    await withEmulator(async(control) => {
      const message = 'elemental upgrade failed: no space left on device';

      // The controller's Job TTL (SYSTEM_UPGRADE_JOB_TTL_SECONDS_AFTER_FINISH), 100 s at the specs' time scale of 0.1.
      await control.setJobTimes({ jobTtlSeconds: 100 });
      await control.failNode('edge-berlin-01', 'edge-berlin-01-node-1', message, 0);
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      await approvePool(page);
      const nodes = poolRow(page, 'edge-berlin').getByTestId('pool-nodes');

      await expect(nodes).toHaveAttribute('data-verdict', 'failed', { timeout: 60_000 });
      await expect(nodes.getByTestId('pool-nodes-failure')).toHaveText(`edge-berlin-01 / edge-berlin-01-node-1: ${ message }`);
      // The failed Job is deleted after its TTL and made again: the node is retried, and says why it was.
      const retrying = nodes.getByTestId('pool-nodes-detail').filter({ hasText: 'being retried' });

      await expect(retrying).toHaveText(`edge-berlin-01 / edge-berlin-01-node-1 failed and is being retried; last failure: ${ message }`, { timeout: 60_000 });
      await expect(nodes).toHaveAttribute('data-verdict', 'progressing');
      await expect(nodes).toHaveAttribute('data-verdict', 'failed', { timeout: 60_000 });
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a cluster member without the System project is told the node state it cannot see, and the clusters are not read again and again', { tag: EMULATOR_TAG }, async({ page, problems }) => {
    requireEmulator('node failures');
    // The emulator's seed: the pool edge-berlin on the berlin clusters' six nodes, pinned to 3.9.
    await withEmulator(async(control) => {
      await control.failNode('edge-berlin-01', 'edge-berlin-01-node-1', 'elemental upgrade failed', 0);
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      await approvePool(page);

      const planReads: string[] = [];

      page.on('request', (request) => {
        if (request.url().includes('/upgrade.cattle.io.plans')) {
          planReads.push(request.url());
        }
      });
      await loginAs(page, 'member');
      await page.goto(dashboardPath(POOLS));
      const berlin = poolRow(page, 'edge-berlin').getByTestId('pool-nodes');

      // Only the nodes' own tags tell: berlin-02 finishes, berlin-01's nodes stay unknown (not "waiting").
      await expect(berlin.getByTestId('pool-nodes-message')).toHaveText(`3 of 6 nodes on ${ DEMO_NEW }; the state of 3 nodes is unknown`, { timeout: 60_000 });
      await expect(berlin).toHaveAttribute('data-verdict', 'unknown');
      await berlin.getByTestId('pool-nodes-clusters-toggle').click();
      await expect(berlin.locator('[data-cluster="edge-berlin-01"]')).toContainText('you may read its nodes, but not the upgrade Plans and Jobs in cattle-system');
      await expect(berlin.locator('[data-cluster="edge-berlin-02"]')).toHaveText(`edge-berlin-02: All 3 nodes on ${ DEMO_NEW }`);
      // Steve's 404 for Plans is an answer, not an outage: no retry every 5 s.
      const reads = planReads.length;

      await page.waitForTimeout(12_000);
      expect(planReads.length).toBe(reads);

      await berlin.getByTestId('pool-nodes-link').click();
      await expect(page.locator('[data-testid="node-rollout-hidden"][data-cluster="edge-berlin-01"]')).toBeVisible();
      await expect(page.getByTestId('node-rollout-table').locator('[data-testid="node-row"][data-state="unknown"]')).toHaveCount(3);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
