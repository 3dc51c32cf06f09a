// Issue 25: only an approval changes what runs on the nodes. The approve dialog shows the image
// reference it approves and refuses when a channel sync changed the image behind the version's
// name while it was open; the approval records the image, and a pool whose version names another
// image afterwards says so on the pools list, its page and the fleet overview, with an approval of
// the new image as the way out.

import { Locator } from '@playwright/test';
import { field } from './support/api';
import { ChannelEntry, useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { BASE_CHANNEL, FLEET, NS, POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { seededChannelEntries } from './support/channels';

const POOL = 'edge-berlin';
const PIN = 'base-v2.2.0-3.9-os';
const TARGET = 'base-v2.2.0-3.12-os';
const TARGET_IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';
const OTHER_IMAGE = 'registry.evil.example/other-image:6.6.6';
const APPROVED_IMAGE = 'os-upgrades.cattle.io/approved-image';

const seededChannel: ChannelEntry[] = seededChannelEntries(BASE_CHANNEL);

/** The seeded channel with TARGET's upgradeImage swapped, as a changed channel file syncs it. */
function channelWithSwappedImage(): ChannelEntry[] {
  return seededChannel.map((entry) => (entry.metadata.name === TARGET ? { ...entry, spec: { ...entry.spec, metadata: { ...entry.spec.metadata, upgradeImage: OTHER_IMAGE } } } : entry));
}

const emulator = useEmulator();

/** Approves what the open dialog shows and waits for it to close. */
async function confirm(dialog: Locator): Promise<void> {
  await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
  await dialog.getByTestId('approve-confirm-async-button').click();
  await expect(dialog).toHaveCount(0);
}

test.describe('the approved image is held', () => {
  test('the image swapped under an open approve dialog is refused and the new image shown to approve', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, POOL).getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(TARGET);
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(TARGET_IMAGE);

    expect((await emulator.control.publishChannel(BASE_CHANNEL, channelWithSwappedImage())).ok).toBe(true);
    await expect(dialog.getByTestId('approve-live-refusal')).toContainText(`Image ${ TARGET } now stands for ${ OTHER_IMAGE }`);
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveText('Show the new state');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(OTHER_IMAGE);
    expect(field(await storedPool(emulator.control, POOL), 'spec.managedOSVersionName')).toBe(PIN);

    // Approved as now shown: the record holds the image the person saw.
    await confirm(dialog);
    const approved = await storedPool(emulator.control, POOL);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(TARGET);
    expect((field(approved, 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(OTHER_IMAGE);
  });

  test('a pool whose version names another image since its approval is flagged on the list, its page and the fleet overview; approving the new image clears it', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, POOL).getByTestId('pool-approve').click();
    await confirm(page.getByTestId('approve-dialog'));
    expect((field(await storedPool(emulator.control, POOL), 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(TARGET_IMAGE);
    await expect(poolRow(page, POOL).getByTestId('pool-image-drift')).toHaveCount(0);

    expect((await emulator.control.publishChannel(BASE_CHANNEL, channelWithSwappedImage())).ok).toBe(true);
    const flag = `Image ${ TARGET } now stands for ${ OTHER_IMAGE }, not ${ TARGET_IMAGE } as approved`;

    await expect(poolRow(page, POOL).getByTestId('pool-image-drift')).toContainText(flag);

    await page.goto(dashboardPath(FLEET));
    const fleetRow = page.getByTestId('fleet-table').locator('tbody tr', { has: page.getByTestId('fleet-pool-name').getByText(POOL, { exact: true }) });

    await expect(fleetRow.getByTestId('pool-image-drift')).toContainText(flag);

    await page.goto(dashboardPath(`${ POOLS }/${ NS }/${ POOL }`));
    const summary = page.getByTestId('pool-detail-summary');

    await expect(summary.getByTestId('pool-image-drift')).toContainText(flag);
    await summary.getByTestId('pool-image-drift-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(TARGET);
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(OTHER_IMAGE);
    await confirm(dialog);
    const approved = await storedPool(emulator.control, POOL);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(TARGET);
    expect((field(approved, 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(OTHER_IMAGE);
    expect((field(approved, 'metadata.annotations') as Record<string, string>)['os-upgrades.cattle.io/previous-version']).toBe(PIN);
    await expect(summary.getByTestId('pool-image-drift')).toHaveCount(0);
  });
});
