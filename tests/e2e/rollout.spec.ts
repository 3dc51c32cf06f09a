// Issue 12: upgrades that really happen on the emulator's nodes, which run the bundle's Plan as
// the system-upgrade-controller and suc-upgrade do. Roll back after an upgrade runs the old image
// (FORCE), the next upgrade takes FORCE back; a person's own FORCE survives; a same-tag switch
// warns and runs nothing; a node failure is shown with its message; a pinned version that is
// deleted is shown Terminating and not offered; the operator's refusals and lag are said plainly.
// Emulator only.

import { Locator, Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { ChannelEntry, NodeReport, useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL, NS, POOL_TYPE, POOLS, VERSION_TYPE
} from './support/names';
import { poolRow, storedPool } from './support/pools';
import { seededChannelEntries } from './support/channels';

const BERLIN = ['edge-berlin-01', 'edge-berlin-02'];
const OLD = 'base-v2.2.0-3.9-os';
const NEW = 'base-v2.2.0-3.12-os';
const FORCED = 'os-upgrades.cattle.io/forced';

const emulator = useEmulator();

async function berlinNodes(): Promise<NodeReport[]> {
  return (await emulator.control.nodes()).filter((n) => BERLIN.includes(n.cluster));
}

/** Waits until every berlin node is idle on `tag`. */
async function expectBerlinOn(tag: string): Promise<void> {
  await expect.poll(async() => (await berlinNodes()).map((n) => `${ n.tag }/${ n.state }`).join(' '), { timeout: 40_000, intervals: [300] })
    .toBe(Array(6).fill(`${ tag }/idle`).join(' '));
}

/** edge-berlin with three nodes at a time, so a rollout takes a few steps. */
async function fastBerlin(page: Page, extra: Record<string, unknown> = {}): Promise<void> {
  const api = sessionApi(page);
  const url = steveUrl(POOL_TYPE, NS, 'edge-berlin');
  const current = (await api.get(url)).body;

  expect((await api.put(url, {
    ...current,
    spec: {
      ...(current.spec as object), concurrency: 3, ...extra
    }
  })).status).toBe(200);
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

test.describe('upgrades on the nodes', () => {
  test('upgrade, roll back (forced: the nodes run the old image), upgrade again (FORCE gone)', async({ page, problems }) => {
    await loginAs(page, 'admin');
    await fastBerlin(page);
    await expectBerlinOn('2.2.0-3.9');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');

    let dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(NEW);
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
    await expectBerlinOn('2.2.0-3.12');
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });
    // The operator copies the old Ready first: the page said so instead of claiming it rolled out.
    const seen = await page.evaluate(() => (window as unknown as { rolloutSeen: string[] }).rolloutSeen);
    const waiting = seen.findIndex((s) => s.startsWith('waiting: Waiting for the operator'));

    expect(waiting, seen.join(' | ')).toBeGreaterThanOrEqual(0);
    expect(seen.slice(0, waiting).some((s) => s.startsWith('progressing')), seen.join(' | ')).toBe(false);
    // Fleet's WaitApplied lasts one step before its Ready (it judges the applied Plan, not the
    // nodes), so the page may go from waiting to Delivered directly; it never says failed.
    expect(seen.some((s) => s.startsWith('error')), seen.join(' | ')).toBe(false);

    dialog = await approveInDialog(page, row, 'pool-rollback');
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(OLD);
    await expect(dialog.getByTestId('approve-forced')).toContainText('Forced downgrade');
    await expect(dialog.getByTestId('approve-forced')).toContainText('every targeted node installs this older image and reboots');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('FORCE');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const rolledBack = await storedPool(emulator.control, 'edge-berlin');

    expect(field(rolledBack, 'spec.upgradeContainer')).toEqual({ envs: [{ name: 'FORCE', value: 'true' }] });
    expect(field(rolledBack, 'metadata.annotations')).toMatchObject({ [FORCED]: 'true' });
    await expectBerlinOn('2.2.0-3.9');
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });

    dialog = await approveInDialog(page, row, 'pool-approve');
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(NEW);
    await expect(dialog.getByTestId('approve-forceRemoved')).toBeVisible();
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const forward = await storedPool(emulator.control, 'edge-berlin');

    expect(field(forward, 'spec.upgradeContainer')).toBeUndefined();
    expect(field(forward, `metadata.annotations`)).not.toHaveProperty([FORCED]);
    await expectBerlinOn('2.2.0-3.12');
    expect(problems.pageErrors).toEqual([]);
  });

  test('a person\'s own FORCE survives an approval', async({ page }) => {
    const own = { envs: [{ name: 'FORCE', value: 'true' }, { name: 'MY_FLAG', value: '1' }] };

    await loginAs(page, 'admin');
    await fastBerlin(page, { upgradeContainer: own });
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const approved = await storedPool(emulator.control, 'edge-berlin');

    expect(field(approved, 'spec.managedOSVersionName')).toBe(NEW);
    expect(field(approved, 'spec.upgradeContainer')).toEqual(own);
    expect(field(approved, 'metadata.annotations')).not.toHaveProperty([FORCED]);
    await expectBerlinOn('2.2.0-3.12');

    // Rolling back with it: the dialog says the person's FORCE already allows the downgrade.
    const back = await approveInDialog(page, row, 'pool-rollback');

    await expect(back.getByTestId('approve-forceKept')).toBeVisible();
    await back.getByTestId('approve-confirm-async-button').click();
    await expect(back).toHaveCount(0);
    expect(field(await storedPool(emulator.control, 'edge-berlin'), 'spec.upgradeContainer')).toEqual(own);
    await expectBerlinOn('2.2.0-3.9');
  });

  test('a same-tag switch (another flavour of the build) warns that the nodes run nothing, and they do not', async({ page }) => {
    const seeded: ChannelEntry[] = seededChannelEntries(BASE_CHANNEL);
    const old = seeded.find((e) => e.metadata.name === OLD) as ChannelEntry;
    const kvm: ChannelEntry = {
      metadata: { name: 'kvm-v2.2.0-3.9-os' },
      spec:     {
        ...old.spec,
        metadata: {
          ...old.spec.metadata, upgradeImage: 'registry.suse.com/suse/sl-micro/6.1/kvm-os-container:2.2.0-3.9', displayName: 'SL Micro KVM 6.1 OS', created: Math.floor(Date.now() / 1000) - 60
        },
      },
    };

    await loginAs(page, 'admin');
    await fastBerlin(page);
    await emulator.control.publishChannel(BASE_CHANNEL, [kvm, ...seeded]);
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText('kvm-v2.2.0-3.9-os');
    await expect(dialog.getByTestId('approve-same-tag')).toContainText('Nodes will not run anything');
    await expect(dialog.getByTestId('approve-same-tag')).toContainText('no node installs anything');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);

    const states = new Set<string>();
    const deadline = Date.now() + 6000;

    while (Date.now() < deadline) {
      (await berlinNodes()).forEach((n) => states.add(`${ n.image }:${ n.tag }/${ n.state }`));
      await page.waitForTimeout(200);
    }
    expect([...states]).toEqual(['registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9/idle']);
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });
  });

  test('a node failing mid-rollout is shown with the script\'s message, though Fleet says Delivered', async({ page }) => {
    const message = 'elemental upgrade failed: no space left on device';

    await loginAs(page, 'admin');
    await emulator.control.failNode('edge-berlin-01', 'edge-berlin-01-node-2', message);
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
    const failed = (await berlinNodes()).find((n) => n.node === 'edge-berlin-01-node-2');

    expect(failed).toMatchObject({
      state: 'failed', message, tag: '2.2.0-3.9'
    });
  });

  test('Fleet says Delivered while the nodes still upgrade; the node column counts them', async({ page }) => {
    await loginAs(page, 'admin');
    await fastBerlin(page, { concurrency: 1 });
    await expectBerlinOn('2.2.0-3.9');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const nodes = row.getByTestId('pool-nodes');

    // A job runs: Fleet has applied the Plan.
    await expect.poll(async() => (await berlinNodes()).some((n) => n.state !== 'idle'), { timeout: 20_000, intervals: [200] }).toBe(true);
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done');
    // Delivered, and the nodes are far from done: the page says so.
    await expect(nodes).toHaveAttribute('data-verdict', 'progressing');
    await expect(nodes.getByTestId('pool-nodes-message')).toHaveText(/^[0-5] of 6 nodes on /);
    expect((await berlinNodes()).some((n) => n.tag === '2.2.0-3.9')).toBe(true);
    await expect(nodes).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 60_000 });
  });

  test('a pinned version that is deleted is shown Terminating and offered to no one', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    await page.goto(dashboardPath(POOLS));
    const berlin = poolRow(page, 'edge-berlin');

    await expect(berlin.getByTestId('pool-upgrade-available')).toBeVisible();
    // edge-munich pins 3.12: the operator's finalizer keeps it, Terminating.
    expect((await api.delete(steveUrl(VERSION_TYPE, NS, NEW))).status).toBeLessThan(300);
    await expect.poll(async() => field((await api.get(steveUrl(VERSION_TYPE, NS, NEW))).body, 'metadata.deletionTimestamp'), { timeout: 10_000 }).toBeTruthy();
    await expect(poolRow(page, 'edge-munich').getByTestId('pool-pin-terminating')).toContainText(NEW);
    await expect(berlin.getByTestId('pool-upgrade-available')).toHaveCount(0);
  });

  test('the operator refusing a pin (missing version) is said plainly, not the old Ready', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, NS, 'edge-munich');
    const current = (await api.get(url)).body;

    expect((await api.put(url, { ...current, spec: { ...(current.spec as object), managedOSVersionName: 'base-v9.9.9-1.1-os' } })).status).toBe(200);
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-munich');

    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'refused');
    await expect(row.getByTestId('pool-rollout-message')).toContainText('The operator refuses this pin: image base-v9.9.9-1.1-os does not exist');
  });

  test('a 409 caused only by the operator\'s label is retried; the approval is written once', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, NS, 'edge-berlin');

    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');
    const dialog = await approveInDialog(page, row, 'pool-approve');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(NEW);
    // The operator patches its label meanwhile (as it does at each reconcile of a pin).
    const current = (await api.get(url)).body as { metadata: Record<string, unknown> };

    expect((await api.put(url, { ...current, metadata: { ...current.metadata, labels: { ...(current.metadata.labels as object), 'elemental.cattle.io/managed-os-version-name': 'stale' } } })).status).toBe(200);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(field(await storedPool(emulator.control, 'edge-berlin'), 'spec.managedOSVersionName')).toBe(NEW);
  });
});
