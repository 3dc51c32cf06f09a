// Issue 18: the fleet at a glance. The overview (the product's landing page) ranks every pool by
// exposure, the CVE box finds the pools lacking a fix, a promotion is offered once the source's
// nodes soaked the image and is approved through the approve dialog, and a withdrawn image is
// refused while the pool running it shows the way out. Seeds its channel (one image withdrawn) and
// a promotion chain of pools through the API (support/seed.ts), so it runs on a real Rancher too;
// where the canary's cluster has no Elemental nodes the promotion stops at "do not run it yet"
// (support/rollout-reach.ts). Assertions are on this run's pools only.

import { Locator, Page } from '@playwright/test';
import { field } from './support/api';
import { TEST_NAMESPACE as NS } from './support/env';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS, FLEET, POOL_TYPE } from './support/names';
import { storedPool } from './support/pools';
import { fixtureEntries, SeededChannel, useSeed } from './support/seed';
import { baseChannelWithNewerImage, PUBLISHED, PUBLISHED_TAG } from './support/channels';
import { NO_CLUSTER_TARGETS } from './support/seed-pools';
import { elementalNodes, expectNodesOn, nodesRollOut, startNodesOn } from './support/rollout-reach';

const FIXTURE = 'sl-micro-6.1-base';
const WITHDRAWN = 'os-upgrades.cattle.io/withdrawn';
const HISTORY = 'os-upgrades.cattle.io/history';
const SELECTOR = 'os-upgrades.cattle.io/image-selector';
const PROMOTE_FROM = 'os-upgrades.cattle.io/promote-from';
const SOAK_HOURS = 'os-upgrades.cattle.io/promote-soak-hours';
// In base-v2.2.0-3.12-os's update log only: fixed by 3.12, lacking in every older image.
const CVE = 'CVE-2024-50302';

const seed = useSeed();

/** The base channel, its 3.8 image withdrawn (as the demo's is), and its version names. */
interface Channel {
  channel: SeededChannel;
  B38: string;
  B39: string;
  B312: string;
}

/** The fleet's pools: a promotion chain, a pool following the channel by a selector, one on the newest image. */
interface Fleet extends Channel {
  canary: string;
  staging: string;
  production: string;
  berlin: string;
  munich: string;
  /** The canary's cluster (none where the namespace has no Fleet cluster). */
  canaryClusters: string[];
}

/** A pool's Fleet targets: one cluster each, spread over the clusters there are. */
function target(clusters: string[], n: number): Record<string, unknown>[] {
  return clusters.length ? [{ clusterName: clusters[n % clusters.length] }] : [];
}

/** Withdraws images on the channel as another administrator would (the record is on the channel). */
async function withdraw(channel: SeededChannel, records: Record<string, { reason: string; by: string; at: string }>): Promise<void> {
  await seed.update(CHANNEL_TYPE, channel.name, (object) => {
    const metadata = object.metadata as { annotations?: Record<string, string> };
    const before = JSON.parse(metadata.annotations?.[WITHDRAWN] ?? '{}');

    metadata.annotations = { ...metadata.annotations, [WITHDRAWN]: JSON.stringify({ ...before, ...records }) };
  }, channel.namespace);
}

async function baseChannel(): Promise<Channel> {
  const channel = await seed.channel({ fixture: FIXTURE });
  const names = {
    B38: channel.version('base-v2.2.0-3.8-os'), B39: channel.version('base-v2.2.0-3.9-os'), B312: channel.version('base-v2.2.0-3.12-os')
  };

  await withdraw(channel, {
    [names.B38]: {
      reason: 'Boot loop on nodes with Secure Boot enabled (bsc#1230000)', by: 'admin', at: '2025-03-03T09:00:00.000Z'
    }
  });

  return { channel, ...names };
}

/**
 * The demo's fleet on this run's channel: canary (selector, 3.9) → staging (3.9, soak 24 h) →
 * production (the withdrawn 3.8, soak 48 h); berlin follows ~2.2 on 3.9; munich is pinned to 3.12
 * (and targets no cluster). Each on a cluster of its own where there are enough; the canary's nodes
 * start on 3.9.
 */
async function fleet(): Promise<Fleet> {
  const base = await baseChannel();
  const {
    channel, B38, B39, B312
  } = base;
  const clusters = await seed.clusters();
  const canaryClusters = clusters.slice(0, 1);

  if (await nodesRollOut(seed, canaryClusters)) {
    await startNodesOn(seed, channel, 'base-v2.2.0-3.9-os', canaryClusters);
  }
  const canary = await seed.pool('e2e-chain-canary', { managedOSVersionName: B39, clusterTargets: target(clusters, 0) }, { [SELECTOR]: JSON.stringify({ channel: channel.name }) });
  const staging = await seed.pool('e2e-chain-staging', { managedOSVersionName: B39, clusterTargets: target(clusters, 1) }, { [PROMOTE_FROM]: `${ NS }/${ canary }`, [SOAK_HOURS]: '24' });
  const production = await seed.pool('e2e-chain-production', {
    managedOSVersionName: B38, concurrency: 1, clusterTargets: target(clusters, 2)
  }, { [PROMOTE_FROM]: `${ NS }/${ staging }`, [SOAK_HOURS]: '48' });
  const berlin = await seed.pool('e2e-edge-berlin', { managedOSVersionName: B39, clusterTargets: target(clusters, 3) }, { [SELECTOR]: JSON.stringify({ channel: channel.name, version: '~2.2' }) });
  // On 3.12, which no node may boot (its image label is 64 characters): it targets no cluster.
  const munich = await seed.pool('e2e-edge-munich', { managedOSVersionName: B312, clusterTargets: NO_CLUSTER_TARGETS });

  return {
    ...base, canary, staging, production, berlin, munich, canaryClusters
  };
}

function fleetRow(page: Page, name: string): Locator {
  return page.getByTestId('fleet-table').locator('tbody tr', { has: page.getByTestId('fleet-pool-name').getByText(name, { exact: true }) });
}

/** The overview's ranking of the pools named (others' pools left out). */
async function rankedNames(page: Page, ours: string[]): Promise<string[]> {
  return (await page.getByTestId('fleet-table').getByTestId('fleet-pool-name').allTextContents()).map((text) => text.trim()).filter((name) => ours.includes(name));
}

async function openFleet(page: Page): Promise<void> {
  await page.goto(dashboardPath(FLEET));
  await expect(page.getByTestId('fleet-table')).toBeVisible();
  // The logs are read in the background: the ranking settles once they are in.
  await expect(page.getByTestId('fleet-evidence-loading')).toHaveCount(0, { timeout: 30_000 });
}

const escaped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

test.describe('fleet overview', () => {
  test('is the landing page and ranks the pools by exposure, critical first', async({ page, problems }) => {
    const {
      channel, B39, B312, canary, staging, production, berlin, munich
    } = await fleet();

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('link', { name: 'Fleet overview' })).toBeVisible();
    await page.getByRole('link', { name: 'Fleet overview' }).click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/fleet/);
    await openFleet(page);

    // Behind with known advisories first (ties by name), then unknown (a log of its span is missing), then current.
    expect(await rankedNames(page, [canary, staging, production, berlin, munich])).toEqual([canary, staging, berlin, production, munich]);
    await expect(page.getByTestId(`fleet-behind-${ berlin }`)).toHaveText('Behind by 1 image');
    await expect(page.getByTestId(`fleet-behind-${ production }`)).toHaveText('Behind by 2 images');
    await expect(page.getByTestId(`fleet-behind-${ munich }`)).toHaveText('Newest');
    await expect(page.getByTestId(`fleet-advisories-${ berlin }`)).toContainText(CVE);
    await expect(page.getByTestId(`fleet-advisories-${ production }`)).toContainText('Unknown');
    // The chain, the channels and the pictures.
    await expect(page.locator(`[data-testid="fleet-chain"][aria-label="Promotion chain: ${ canary } → ${ staging } → ${ production }"]`)).toHaveCount(1);
    const channelBox = page.getByTestId('fleet-channels').getByTestId('fleet-channel').filter({ hasText: channel.name });

    await expect(channelBox).toContainText(`Newest: ${ B312 }`);
    await expect(channelBox).toContainText('1 image withdrawn');
    // Three of the pools run 3.9 (canary, staging, berlin).
    await expect(page.getByTestId('fleet-chart-bar').filter({ hasText: B39 })).toContainText('3 pools');
    await expect(page.getByTestId('fleet-chart-bar').filter({ hasText: B312 })).toContainText('1 pool');
    await expect(fleetRow(page, berlin).getByTestId('fleet-image-history')).toBeVisible();
    expect(problems.pageErrors).toEqual([]);
  });

  test('the CVE box lists the pools lacking the fix, each with the image that has it', async({ page }) => {
    const {
      B38, B39, B312, canary, staging, production, berlin, munich
    } = await fleet();

    await loginAs(page, 'admin');
    await openFleet(page);
    const box = page.getByTestId('fleet-cve-box');

    await box.locator('input').fill(CVE.toLowerCase());
    await box.getByTestId('fleet-cve-ask').click();
    const pools = box.getByTestId('fleet-cve-pool');
    const ours = (name: string) => pools.filter({ hasText: `${ NS }/${ name } ` });

    await expect(ours(canary)).toHaveText(escaped(`${ NS }/${ canary } runs ${ B39 }; ${ B312 } fixes it`));
    await expect(ours(production)).toHaveText(escaped(`${ NS }/${ production } runs ${ B38 }; ${ B312 } fixes it`));
    await expect(ours(staging)).toHaveText(escaped(`${ NS }/${ staging } runs ${ B39 }; ${ B312 } fixes it`));
    await expect(ours(berlin)).toHaveText(escaped(`${ NS }/${ berlin } runs ${ B39 }; ${ B312 } fixes it`));
    // Listed by name: canary, production, staging, berlin in the order of their names.
    const listed = (await pools.allTextContents()).map((text) => [canary, production, staging, berlin].find((name) => text.includes(`${ NS }/${ name } `))).filter(Boolean);

    expect(listed).toEqual([canary, production, staging, berlin].sort());
    // The pool on the image with the fix is not exposed.
    await expect(ours(munich)).toHaveCount(0);
    await box.locator('input').fill('CVE-1999-0001');
    await box.getByTestId('fleet-cve-ask').click();
    await expect(box.getByTestId('fleet-cve-unknown')).toContainText('No channel has an image known to fix CVE-1999-0001');
  });

  test('a promotion is offered once the source soaked the image, and is approved with the soak as its reason', async({ page }) => {
    test.setTimeout(180_000);
    const {
      channel, B39, canary, staging, canaryClusters
    } = await fleet();

    // A soak of 18 s instead of a day.
    await seed.update(POOL_TYPE, staging, (object) => {
      (object.metadata as { annotations: Record<string, string> }).annotations[SOAK_HOURS] = '0.005';
    });

    await loginAs(page, 'admin');
    await openFleet(page);
    const offer = page.getByTestId(`fleet-offer-${ staging }`);

    // The canary runs what staging runs: nothing to promote yet.
    await expect(offer).toHaveAttribute('data-status', 'waiting');
    await expect(offer).toContainText(`This pool already runs ${ B39 }.`);

    // The channel publishes a 2.2.1 build, and the canary is upgraded to it: its nodes run it, then
    // soak. (Not to 3.12: a node that boots it never rejoins, its image label being 64 characters.)
    await seed.publish(channel, baseChannelWithNewerImage(fixtureEntries(FIXTURE)));
    const newer = channel.version(PUBLISHED);

    await seed.update(POOL_TYPE, canary, (object) => {
      (object.spec as Record<string, unknown>).managedOSVersionName = newer;
    });
    if (!await nodesRollOut(seed, canaryClusters)) {
      // No node ever runs it here: the offer waits for them, and says so.
      await expect(offer).toContainText('do not run it yet', { timeout: 30_000 });
      await expect(offer).toHaveAttribute('data-status', 'waiting');

      return;
    }
    await expectNodesOn(seed, canaryClusters, PUBLISHED_TAG);
    const nodes = (await elementalNodes(seed, canaryClusters)).length;

    await expect(offer).toContainText(/Soaked 0 min of 0 min|do not run it yet/, { timeout: 30_000 });
    await expect(offer).toHaveAttribute('data-status', 'offered', { timeout: 60_000 });
    await expect(offer).toContainText(`${ newer } is ready to promote`);

    await offer.getByTestId('fleet-promote').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(newer);
    await expect(dialog.getByTestId('approve-promotion')).toContainText(`Promotion from ${ NS }/${ canary }`);
    await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused();
    await expect(dialog.getByTestId('approve-comment')).toHaveValue(new RegExp(`Soaked .* \\(needs 0 min\\) on ${ nodes } nodes? of ${ NS }/${ canary } without failure\\.`));
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const written = await storedPool(seed, staging);

    expect(field(written, 'spec.managedOSVersionName')).toBe(newer);
    const history = JSON.parse(String((field(written, 'metadata.annotations') as Record<string, string>)[HISTORY]));

    expect(history[history.length - 1]).toMatchObject({
      kind: 'promote', from: B39, to: newer, by: 'admin'
    });
    expect(history[history.length - 1].comment).toContain('without failure');
  });

  test('a withdrawn image is refused, and the pool running it shows the reason and the way out', async({ page }) => {
    const {
      channel, B38, B39, B312, production
    } = await fleet();

    await loginAs(page, 'admin');
    await openFleet(page);
    const row = fleetRow(page, production);
    const notice = row.getByTestId(`fleet-withdrawn-${ production }`);

    await expect(notice).toContainText(`Runs ${ B38 }, withdrawn by admin: Boot loop on nodes with Secure Boot enabled`);
    await expect(notice.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B312 }`);
    await notice.getByTestId('fleet-way-out').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(B312);

    // Another administrator withdraws 3.12 meanwhile: the dialog refuses it, nothing can be written.
    await withdraw(channel, {
      [B312]: {
        reason: 'Kernel panic on boot', by: 'other-admin', at: '2025-04-01T00:00:00Z'
      }
    });
    await expect(dialog.getByTestId('approve-live-refusal')).toContainText(`Image ${ B312 } was withdrawn by other-admin: Kernel panic on boot`, { timeout: 20_000 });
    await expect(dialog.getByTestId('approve-confirm-async-button')).toBeDisabled();
    await dialog.getByTestId('approve-cancel').click();

    // The way out is now the newest image that is not withdrawn.
    await expect(notice.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B39 }`);
    await notice.getByTestId('fleet-way-out').click();
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(B39);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(field(await storedPool(seed, production), 'spec.managedOSVersionName')).toBe(B39);
    await expect(row.getByTestId(`fleet-withdrawn-${ production }`)).toHaveCount(0);
  });

  test('an administrator withdraws and restores an image on the channel page, with a reason', async({ page }) => {
    const { channel, B38, B39 } = await baseChannel();

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ CHANNELS }/${ NS }/${ channel.name }`));
    await expect(page.getByTestId(`version-${ B38 }`).getByTestId('version-withdrawn')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId(`version-withdraw-${ B39 }`).click();
    const dialog = page.getByTestId('withdraw-dialog');

    // Opens on its title; the reason is the next stop of Tab.
    await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByTestId('withdraw-text')).toBeFocused();
    await expect(dialog.getByTestId('withdraw-confirm-async-button')).toBeDisabled();
    await dialog.getByTestId('withdraw-text').fill('Breaks the network on Intel NICs');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toBeVisible();
    await expect(page.getByTestId('channel-history')).toContainText('Withdrawn');
    await expect(page.getByTestId('channel-history')).toContainText('Breaks the network on Intel NICs');
    const stored = await seed.get(CHANNEL_TYPE, channel.name, channel.namespace);

    expect(JSON.parse(String((field(stored, 'metadata.annotations') as Record<string, string>)[WITHDRAWN]))[B39]).toMatchObject({ reason: 'Breaks the network on Intel NICs', by: 'admin' });
    // The operator's next sync (a new generation of the channel's spec) keeps it: the record is on the channel, not on the versions.
    await seed.publish(channel, fixtureEntries(FIXTURE));
    await page.reload();
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toBeVisible({ timeout: 30_000 });

    await page.getByTestId(`version-restore-${ B39 }`).click();
    await dialog.getByTestId('withdraw-text').fill('Fixed by the NIC firmware update');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toHaveCount(0);
    await expect(page.getByTestId('channel-history')).toContainText('Restored');
  });

  test('withdrawing the newest image lists the pools running it, and the overview offers each a way out', async({ page }) => {
    const {
      channel, B39, B312, canary, berlin, munich
    } = await fleet();

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ CHANNELS }/${ NS }/${ channel.name }`));
    await page.getByTestId(`version-withdraw-${ B312 }`).click();
    const dialog = page.getByTestId('withdraw-dialog');
    const pools = dialog.getByTestId('withdraw-pools');

    // munich is pinned to 3.12 by name, without a previous pin: 3.9 is the newest image left.
    await expect(pools.getByTestId(`withdraw-pool-${ munich }`)).toContainText(`pinned to it): shows your reason on the fleet overview, with the way out: Move to ${ B39 }`);
    // The selectors of berlin and the canary pick 3.12 now (both are pinned to 3.9).
    await expect(pools.getByTestId(`withdraw-pool-${ berlin }`)).toContainText(`its selector picks it now): afterwards its selector picks its pin, ${ B39 }: no upgrade is offered`);
    await expect(pools.getByTestId(`withdraw-pool-${ canary }`)).toContainText(`afterwards its selector picks its pin, ${ B39 }`);
    // Only these three use this run's channel and are moved by the withdrawal.
    await expect(pools.locator('li')).toHaveCount(3);
    await expect(dialog.getByTestId('withdraw-by')).toHaveText('You withdraw as admin');
    await dialog.getByTestId('withdraw-text').fill('Kernel panic on boot');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);

    await openFleet(page);
    const notice = fleetRow(page, munich).getByTestId(`fleet-withdrawn-${ munich }`);

    await expect(notice).toContainText(`Runs ${ B312 }, withdrawn by admin: Kernel panic on boot`);
    await expect(notice.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B39 }`);

    // Every other image of the channel withdrawn too: no way out, said in plain text (no HTML entity).
    const names = (await seed.versions(channel)).map((o) => String(field(o, 'metadata.name')));

    expect(names).toContain(B39);
    await withdraw(channel, Object.fromEntries(names.map((name) => [name, {
      reason: 'Recalled', by: 'admin', at: '2025-04-01T00:00:00Z'
    }])));
    await expect(notice).toContainText('No other usable image of its channel; pick another image on the pool\'s page.', { timeout: 20_000 });
    await expect(page.getByTestId('fleet-table')).not.toContainText('&#');
  });

  test('a viewer sees withdrawals but cannot withdraw', async({ page }) => {
    const { channel, B38 } = await baseChannel();

    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(`${ CHANNELS }/${ NS }/${ channel.name }`));
    await expect(page.getByTestId(`version-${ B38 }`).getByTestId('version-withdrawn')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[data-testid^="version-withdraw-"], [data-testid^="version-restore-"]')).toHaveCount(0);
  });
});
