// Issue 25: only an approval changes what runs on the nodes. The approve dialog shows the image
// reference it approves and refuses when a channel sync changed the image behind the version's
// name while it was open; the approval records the image, and a pool whose version names another
// image afterwards says so on the pools list, its page and the fleet overview, with an approval of
// the new image as the way out. Each test publishes its channel and pool through the API and
// republishes the channel file (support/seed.ts), so it runs on a real Rancher too.

import { Locator } from '@playwright/test';
import { field } from './support/api';
import { ChannelEntry } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { FLEET, POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { rollableEntries, SeededChannel, useSeed } from './support/seed';
import { TEST_NAMESPACE } from './support/env';

const BASE = 'sl-micro-6.1-base';
// 3.8 to 3.9: nodes booting the fixture's 3.12 never rejoin (its image label is 64 characters), so
// the channel here ends at 3.9 (support/seed.ts rollableEntries).
const PIN = 'base-v2.2.0-3.8-os';
const TARGET = 'base-v2.2.0-3.9-os';
const TARGET_IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9';
const OTHER_IMAGE = 'registry.evil.example/other-image:6.6.6';
const APPROVED_IMAGE = 'os-upgrades.cattle.io/approved-image';

/** The fixture channel with TARGET's upgradeImage swapped, as a changed channel file syncs it. */
function channelWithSwappedImage(): ChannelEntry[] {
  return rollableEntries(BASE).map((entry) => (entry.metadata.name === TARGET ? { ...entry, spec: { ...entry.spec, metadata: { ...entry.spec.metadata, upgradeImage: OTHER_IMAGE } } } : entry));
}

const seed = useSeed();
let channel: SeededChannel;
let pool: string;

test.beforeEach(async() => {
  channel = await seed.channel({ fixture: BASE, entries: rollableEntries(BASE) });
  const [cluster] = await seed.clusters();

  // The pool follows the channel by a selector and runs an older image: it has an upgrade to approve.
  pool = await seed.pool('e2e-held', { managedOSVersionName: channel.version(PIN), clusterTargets: [{ clusterName: cluster }] }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: channel.name, version: '~2.2' }) });
});

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
    await poolRow(page, pool).getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(TARGET));
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(TARGET_IMAGE);

    await seed.publish(channel, channelWithSwappedImage());
    await expect(dialog.getByTestId('approve-live-refusal')).toContainText(`Image ${ channel.version(TARGET) } now stands for ${ OTHER_IMAGE }`);
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveText('Show the new state');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(OTHER_IMAGE);
    expect(field(await storedPool(seed, pool), 'spec.managedOSVersionName')).toBe(channel.version(PIN));

    // Approved as now shown: the record holds the image the person saw.
    await confirm(dialog);
    const approved = await storedPool(seed, pool);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(channel.version(TARGET));
    expect((field(approved, 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(OTHER_IMAGE);
  });

  test('a pool whose version names another image since its approval is flagged on the list, its page and the fleet overview; approving the new image clears it', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, pool).getByTestId('pool-approve').click();
    await confirm(page.getByTestId('approve-dialog'));
    expect((field(await storedPool(seed, pool), 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(TARGET_IMAGE);
    await expect(poolRow(page, pool).getByTestId('pool-image-drift')).toHaveCount(0);

    await seed.publish(channel, channelWithSwappedImage());
    const flag = `Image ${ channel.version(TARGET) } now stands for ${ OTHER_IMAGE }, not ${ TARGET_IMAGE } as approved`;

    await expect(poolRow(page, pool).getByTestId('pool-image-drift')).toContainText(flag);

    await page.goto(dashboardPath(FLEET));
    const fleetRow = page.getByTestId('fleet-table').locator('tbody tr', { has: page.getByRole('link', { name: pool, exact: true }) });

    await expect(fleetRow.getByTestId('pool-image-drift')).toContainText(flag);

    await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }`));
    const summary = page.getByTestId('pool-detail-summary');

    await expect(summary.getByTestId('pool-image-drift')).toContainText(flag);
    await summary.getByTestId('pool-image-drift-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(TARGET));
    await expect(dialog.getByTestId('approve-target-image')).toHaveText(OTHER_IMAGE);
    await confirm(dialog);
    const approved = await storedPool(seed, pool);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(channel.version(TARGET));
    expect((field(approved, 'metadata.annotations') as Record<string, string>)[APPROVED_IMAGE]).toBe(OTHER_IMAGE);
    expect((field(approved, 'metadata.annotations') as Record<string, string>)['os-upgrades.cattle.io/previous-version']).toBe(channel.version(PIN));
    await expect(summary.getByTestId('pool-image-drift')).toHaveCount(0);
  });
});
