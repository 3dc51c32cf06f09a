// Issue 18: the fleet at a glance. The overview (the product's landing page) ranks every pool by
// exposure, the CVE box finds the pools lacking a fix, a promotion is offered once the source's
// nodes soaked the image and is approved through the approve dialog, and a withdrawn image is
// refused while the pool running it shows the way out. Emulator only (control endpoints, nodes).

import { Locator, Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL, BASE_CHANNEL_PAGE, CHANNEL_TYPE, CHANNELS, FLEET, NS, POOL_TYPE, VERSION_TYPE
} from './support/names';
import { storedPool } from './support/pools';

const B38 = 'base-v2.2.0-3.8-os';
const B39 = 'base-v2.2.0-3.9-os';
const B312 = 'base-v2.2.0-3.12-os';
const WITHDRAWN = 'os-upgrades.cattle.io/withdrawn';
const HISTORY = 'os-upgrades.cattle.io/history';
// In base-v2.2.0-3.12-os's update log only: fixed by 3.12, lacking in every older image.
const CVE = 'CVE-2024-50302';

const emulator = useEmulator();

function fleetRow(page: Page, name: string): Locator {
  return page.getByTestId('fleet-table').locator('tbody tr', { has: page.getByTestId('fleet-pool-name').getByText(name, { exact: true }) });
}

async function rankedNames(page: Page): Promise<string[]> {
  return (await page.getByTestId('fleet-table').getByTestId('fleet-pool-name').allTextContents()).map((text) => text.trim());
}

async function openFleet(page: Page): Promise<void> {
  await page.goto(dashboardPath(FLEET));
  await expect(page.getByTestId('fleet-table')).toBeVisible();
  // The logs are read in the background: the ranking settles once they are in.
  await expect(page.getByTestId('fleet-evidence-loading')).toHaveCount(0, { timeout: 30_000 });
}

test.describe('fleet overview', () => {
  test('is the landing page and ranks the pools by exposure, critical first', async({ page, problems }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('link', { name: 'Fleet overview' })).toBeVisible();
    await page.getByRole('link', { name: 'Fleet overview' }).click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/fleet/);
    await openFleet(page);

    // Behind with known advisories first (ties by name), then unknown (a log of its span is missing), then current.
    const names = await rankedNames(page);

    expect(names.slice(0, 3)).toEqual(['chain-canary', 'chain-staging', 'edge-berlin']);
    expect(names[3]).toBe('chain-production');
    expect(names.slice(4).sort()).toEqual(['edge-munich', 'factory-lyon']);
    await expect(page.getByTestId('fleet-behind-edge-berlin')).toHaveText('Behind by 1 image');
    await expect(page.getByTestId('fleet-behind-chain-production')).toHaveText('Behind by 2 images');
    await expect(page.getByTestId('fleet-behind-edge-munich')).toHaveText('Newest');
    await expect(page.getByTestId('fleet-advisories-edge-berlin')).toContainText(CVE);
    await expect(page.getByTestId('fleet-advisories-chain-production')).toContainText('Unknown');
    // The chain, the channels and the pictures.
    await expect(page.getByTestId('fleet-chain')).toHaveAttribute('aria-label', 'Promotion chain: chain-canary → chain-staging → chain-production');
    await expect(page.getByTestId('fleet-channels').getByTestId('fleet-channel').filter({ hasText: BASE_CHANNEL })).toContainText(`Newest: ${ B312 }`);
    await expect(page.getByTestId('fleet-channels').getByTestId('fleet-channel').filter({ hasText: BASE_CHANNEL })).toContainText('1 image withdrawn');
    await expect(page.getByTestId('fleet-chart-bar')).toHaveCount(4);
    await expect(fleetRow(page, 'edge-berlin').getByTestId('fleet-image-history')).toBeVisible();
    expect(problems.pageErrors).toEqual([]);
  });

  test('the CVE box lists the pools lacking the fix, each with the image that has it', async({ page }) => {
    await loginAs(page, 'admin');
    await openFleet(page);
    const box = page.getByTestId('fleet-cve-box');

    await box.locator('input').fill(CVE.toLowerCase());
    await box.getByTestId('fleet-cve-ask').click();
    const pools = box.getByTestId('fleet-cve-pool');

    await expect(pools).toHaveText([
      `${ NS }/chain-canary runs ${ B39 }; ${ B312 } fixes it`,
      `${ NS }/chain-production runs ${ B38 }; ${ B312 } fixes it`,
      `${ NS }/chain-staging runs ${ B39 }; ${ B312 } fixes it`,
      `${ NS }/edge-berlin runs ${ B39 }; ${ B312 } fixes it`,
    ].map((text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))));
    await box.locator('input').fill('CVE-1999-0001');
    await box.getByTestId('fleet-cve-ask').click();
    await expect(box.getByTestId('fleet-cve-unknown')).toContainText('No channel has an image known to fix CVE-1999-0001');
  });

  test('a promotion is offered once the source soaked the image, and is approved with the soak as its reason', async({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    // A soak of 18 s instead of a day, and the canary upgraded to 3.12 (its nodes run it, scaled time).
    const stagingUrl = steveUrl(POOL_TYPE, NS, 'chain-staging');
    const staging = (await api.get(stagingUrl)).body;

    expect((await api.put(stagingUrl, {
      ...staging,
      metadata: { ...(staging.metadata as object), annotations: { ...field(staging, 'metadata.annotations') as object, 'os-upgrades.cattle.io/promote-soak-hours': '0.005' } },
    })).status).toBe(200);
    await openFleet(page);
    const offer = page.getByTestId('fleet-offer-chain-staging');

    // The canary runs what staging runs: nothing to promote yet.
    await expect(offer).toHaveAttribute('data-status', 'waiting');
    await expect(offer).toContainText(`This pool already runs ${ B39 }.`);

    const canaryUrl = steveUrl(POOL_TYPE, NS, 'chain-canary');
    const canary = (await api.get(canaryUrl)).body;

    expect((await api.put(canaryUrl, { ...canary, spec: { ...(canary.spec as object), managedOSVersionName: B312 } })).status).toBe(200);
    await expect.poll(async() => (await emulator.control.nodes()).filter((n) => n.cluster === 'lab-canary-01').map((n) => `${ n.tag }/${ n.state }`).join(' '), { timeout: 60_000, intervals: [500] })
      .toBe('2.2.0-3.12/idle 2.2.0-3.12/idle');
    await expect(offer).toContainText(/Soaked 0 min of 0 min|do not run it yet/, { timeout: 30_000 });
    await expect(offer).toHaveAttribute('data-status', 'offered', { timeout: 60_000 });
    await expect(offer).toContainText(`${ B312 } is ready to promote`);

    await offer.getByTestId('fleet-promote').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(B312);
    await expect(dialog.getByTestId('approve-promotion')).toContainText(`Promotion from ${ NS }/chain-canary`);
    await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused();
    await expect(dialog.getByTestId('approve-comment')).toHaveValue(/Soaked .* \(needs 0 min\) on 2 nodes of fleet-default\/chain-canary without failure\./);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const written = await storedPool(emulator.control, 'chain-staging');

    expect(field(written, 'spec.managedOSVersionName')).toBe(B312);
    const history = JSON.parse(String((field(written, 'metadata.annotations') as Record<string, string>)[HISTORY]));

    expect(history[history.length - 1]).toMatchObject({
      kind: 'promote', from: B39, to: B312, by: 'admin'
    });
    expect(history[history.length - 1].comment).toContain('without failure');
  });

  test('a withdrawn image is refused, and the pool running it shows the reason and the way out', async({ page }) => {
    await loginAs(page, 'admin');
    await openFleet(page);
    const production = fleetRow(page, 'chain-production');
    const notice = production.getByTestId('fleet-withdrawn-chain-production');

    await expect(notice).toContainText(`Runs ${ B38 }, withdrawn by admin: Boot loop on nodes with Secure Boot enabled`);
    await expect(notice.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B312 }`);
    await notice.getByTestId('fleet-way-out').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(B312);

    // Another administrator withdraws 3.12 meanwhile: the dialog refuses it, nothing can be written.
    const api = sessionApi(page);
    const channelUrl = steveUrl(CHANNEL_TYPE, NS, BASE_CHANNEL);
    const channel = (await api.get(channelUrl)).body;
    const annotations = field(channel, 'metadata.annotations') as Record<string, string>;
    const withdrawn = {
      ...JSON.parse(annotations[WITHDRAWN]),
      [B312]: {
        reason: 'Kernel panic on boot', by: 'other-admin', at: '2025-04-01T00:00:00Z'
      }
    };

    expect((await api.put(channelUrl, { ...channel, metadata: { ...(channel.metadata as object), annotations: { ...annotations, [WITHDRAWN]: JSON.stringify(withdrawn) } } })).status).toBe(200);
    await expect(dialog.getByTestId('approve-live-refusal')).toContainText(`Image ${ B312 } was withdrawn by other-admin: Kernel panic on boot`, { timeout: 20_000 });
    await expect(dialog.getByTestId('approve-confirm-async-button')).toBeDisabled();
    await dialog.getByTestId('approve-cancel').click();

    // The way out is now the newest image that is not withdrawn.
    await expect(notice.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B39 }`);
    await notice.getByTestId('fleet-way-out').click();
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(B39);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(field(await storedPool(emulator.control, 'chain-production'), 'spec.managedOSVersionName')).toBe(B39);
    await expect(production.getByTestId('fleet-withdrawn-chain-production')).toHaveCount(0);
  });

  test('an administrator withdraws and restores an image on the channel page, with a reason', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(BASE_CHANNEL_PAGE));
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
    const stored = await emulator.control.object(CHANNEL_TYPE, BASE_CHANNEL);

    expect(JSON.parse(String((field(stored, 'metadata.annotations') as Record<string, string>)[WITHDRAWN]))[B39]).toMatchObject({ reason: 'Breaks the network on Intel NICs', by: 'admin' });
    // The operator's next sync keeps it: the record is on the channel, not on the versions.
    await emulator.control.syncChannel(BASE_CHANNEL);
    await page.reload();
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toBeVisible();

    await page.getByTestId(`version-restore-${ B39 }`).click();
    await dialog.getByTestId('withdraw-text').fill('Fixed by the NIC firmware update');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toHaveCount(0);
    await expect(page.getByTestId('channel-history')).toContainText('Restored');
  });

  test('withdrawing the newest image lists the pools running it, and the overview offers each a way out', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(BASE_CHANNEL_PAGE));
    await page.getByTestId(`version-withdraw-${ B312 }`).click();
    const dialog = page.getByTestId('withdraw-dialog');
    const pools = dialog.getByTestId('withdraw-pools');

    // edge-munich is pinned to 3.12 by name, without a previous pin: 3.9 is the newest image left.
    await expect(pools.getByTestId('withdraw-pool-edge-munich')).toContainText(`pinned to it): shows your reason on the fleet overview, with the way out: Move to ${ B39 }`);
    // The selectors of edge-berlin and chain-canary pick 3.12 now (both are pinned to 3.9).
    await expect(pools.getByTestId('withdraw-pool-edge-berlin')).toContainText(`its selector picks it now): afterwards its selector picks its pin, ${ B39 }: no upgrade is offered`);
    await expect(pools.getByTestId('withdraw-pool-chain-canary')).toContainText(`afterwards its selector picks its pin, ${ B39 }`);
    await expect(pools.locator('li')).toHaveCount(3);
    await expect(dialog.getByTestId('withdraw-by')).toHaveText('You withdraw as admin');
    await dialog.getByTestId('withdraw-text').fill('Kernel panic on boot');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);

    await openFleet(page);
    const munich = fleetRow(page, 'edge-munich').getByTestId('fleet-withdrawn-edge-munich');

    await expect(munich).toContainText(`Runs ${ B312 }, withdrawn by admin: Kernel panic on boot`);
    await expect(munich.getByTestId('fleet-way-out')).toHaveText(`Move to ${ B39 }`);

    // Every other image of the channel withdrawn too: no way out, said in plain text (no HTML entity).
    const api = sessionApi(page);
    const channelUrl = steveUrl(CHANNEL_TYPE, NS, BASE_CHANNEL);
    const channel = (await api.get(channelUrl)).body;
    const annotations = field(channel, 'metadata.annotations') as Record<string, string>;
    const names = (await emulator.control.objects(VERSION_TYPE))
      .filter((o) => (field(o, 'metadata.labels') as Record<string, string> | undefined)?.['elemental.cattle.io/channel'] === BASE_CHANNEL)
      .map((o) => String(field(o, 'metadata.name')));
    const all = Object.fromEntries(names.map((name) => [name, {
      reason: 'Recalled', by: 'admin', at: '2025-04-01T00:00:00Z'
    }]));

    expect(names).toContain(B39);
    expect((await api.put(channelUrl, { ...channel, metadata: { ...(channel.metadata as object), annotations: { ...annotations, [WITHDRAWN]: JSON.stringify(all) } } })).status).toBe(200);
    await expect(munich).toContainText('No other usable image of its channel; pick another image on the pool\'s page.', { timeout: 20_000 });
    await expect(page.getByTestId('fleet-table')).not.toContainText('&#');
  });

  test('a viewer sees withdrawals but cannot withdraw', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(BASE_CHANNEL_PAGE));
    await expect(page.getByTestId(`version-${ B38 }`).getByTestId('version-withdrawn')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[data-testid^="version-withdraw-"], [data-testid^="version-restore-"]')).toHaveCount(0);
  });
});
