// Issue 16: a move from SL Micro 6.1 to 6.2 compared and approved as what it is (a release move,
// with a warning and the package diff, advisories proven by the package lists), and the channels
// page's search finding an image by a package version.

import { Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { ChannelEntry, useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL_PAGE, CHANNEL_TYPE, CHANNELS, NS, POOL_TYPE, POOLS
} from './support/names';
import { poolRow } from './support/pools';

const FROM = 'base-v2.2.0-3.12-os';
const TO = 'base-v2.3.0-6.1-os';
const COMPARE = `${ CHANNELS }/${ NS }/sl-micro-6.2-base/compare?old=${ FROM }&new=${ TO }`;

const emulator = useEmulator();

test.beforeEach(async({ page }) => {
  await loginAs(page, 'admin');
});

/** The package diff of the move: the release package itself on the first rows, 231 upgrades in all. */
async function expectReleaseMove(scope: ReturnType<Page['getByTestId']>): Promise<void> {
  const release = scope.getByTestId('package-diff').getByTestId('package-row').filter({ hasText: 'SL-Micro-release.x86_64' });

  await expect(release.getByTestId('package-row-old')).toHaveText('SL-Micro-release.x86_64  6.1-slfo.1.10.2');
  await expect(release.getByTestId('package-row-new')).toHaveText('SL-Micro-release.x86_64  6.2-160000.14.2');
  await expect(scope.getByTestId('package-count-upgraded').locator('.count')).toHaveText('231');
}

test.describe('moves across channels', () => {
  test('6.1 → 6.2 compare: a release move, the package diff, advisories proven by the package lists', async({ page, problems }) => {
    await page.goto(dashboardPath(COMPARE));
    await expect(page.getByTestId('move-warning')).toContainText('Move to SL Micro 6.2');
    await expect(page.getByTestId('move-warning')).toContainText('not a plain upgrade');
    await expectReleaseMove(page.getByTestId('image-compare'));

    await expect(page.getByTestId('changelog-evidence')).toContainText('the two package lists prove');
    const expat = page.getByTestId('advisory').filter({ hasText: 'SUSE-SLE-Micro-6.2-2025-295' });

    await expect(expat.getByTestId('advisory-evidence')).toContainText('libexpat1 2.5.0-slfo.1.1_1.4 → 2.7.1-160000.2.2');

    // The old image can be chosen from any channel: the options are grouped by channel.
    await page.getByTestId('select-old').click();
    await expect(page.locator('.vs__option-kind-group', { hasText: `${ NS }/sl-micro-6.1-base` })).toBeVisible();
    await page.getByRole('option', { name: /base-v2\.2\.0-3\.9-os/ }).click();
    await expect(page).toHaveURL(/old=base-v2\.2\.0-3\.9-os&new=base-v2\.3\.0-6\.1-os/);
    await expect(page.getByTestId('move-warning')).toContainText('Move to SL Micro 6.2');
    expect(problems.pageErrors).toEqual([]);
  });

  test('"Images of <channel>…" in a compare picker keeps the menu open with that channel\'s images, by keyboard', async({ page }) => {
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`));
    const picker = page.getByTestId('select-old');

    await picker.click();
    await page.keyboard.type('Images of fleet-default/sl-micro-6.2');
    await expect(page.getByRole('option', { name: /Images of fleet-default\/sl-micro-6\.2-base/ })).toBeVisible();
    await page.keyboard.press('Enter');

    // Nothing is selected: the menu is open again, with the channel's images under its name.
    await expect(page.locator('.vs__option-kind-group', { hasText: `${ NS }/sl-micro-6.2-base` })).toBeVisible();
    await expect(page.getByRole('option', { name: new RegExp(TO) })).toBeVisible();
    await expect(page).toHaveURL(/old=base-v2\.2\.0-3\.8-os/);
    await page.keyboard.type(TO);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`old=${ TO }`));
  });

  test('the approve dialog names the move to 6.2 with a warning and shows the package diff', async({ page }) => {
    const created = await sessionApi(page).post(steveUrl(POOL_TYPE, NS), {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   {
        name: 'e2e-to-62', namespace: NS, annotations: { 'os-upgrades.cattle.io/image-selector': '{"channel":"sl-micro-6.2-base"}' }
      },
      spec: { managedOSVersionName: FROM, clusterTargets: [{ clusterName: 'edge-munich-01' }] },
    });

    expect(created.status).toBeLessThan(300);
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'e2e-to-62');

    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(TO);
    await expect(dialog.locator('#approve-dialog-title')).toHaveText('Move to SL Micro 6.2: e2e-to-62');
    await expect(dialog.getByTestId('move-warning')).toContainText('not a plain upgrade');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveText('Approve: Move to SL Micro 6.2');
    await expect(dialog.getByTestId('approve-compare-unavailable')).toHaveCount(0);
    await expectReleaseMove(dialog);
  });

  test('the search ranks the images of the pools\' channels first, shows more on request, and counts the files it could not read', async({ page }) => {
    test.setTimeout(300_000);
    // A channel whose name sorts first, with 60 images that all have kernel-default installed.
    const GENERATED = 'aaa-generated';
    const entries: ChannelEntry[] = Array.from({ length: 60 }, (_, i) => ({
      metadata: { name: `${ GENERATED }-v1.0.${ i }-os` },
      spec:     {
        version: `v1.0.${ i }`, type: 'container', metadata: { upgradeImage: `registry.example.test/gen/os:1.0.${ i }`, created: 1750000000 + i * 3600 }
      },
    }));

    expect((await emulator.control.publishChannel(GENERATED, entries)).ok).toBe(true);
    const api = sessionApi(page);
    const channelUrl = steveUrl(CHANNEL_TYPE, NS, GENERATED);
    const channel = (await api.get(channelUrl)).body;
    const annotations = { ...(field(channel, 'metadata.annotations') as Record<string, string> | undefined), 'os-upgrades.cattle.io/changelog-url': '/changelog-files/{name}.updates.log' };

    expect((await api.put(channelUrl, { ...channel, metadata: { ...(channel.metadata as object), annotations } })).status).toBe(200);
    for (const entry of entries) {
      await emulator.control.setPackages(entry.metadata.name, 'kernel-default|(none)|6.4.0|9.9|x86_64|obs://gen|GPL-2.0-only\n');
    }
    // The generated images' update logs answer 500: those files cannot be read.
    await emulator.control.addFault({ path: `*/${ GENERATED }-*.updates.log`, status: 500 });

    await page.goto(dashboardPath(CHANNELS));
    const search = page.getByTestId('image-search');

    await search.getByTestId('image-search-input').fill('kernel-default');
    await search.getByTestId('image-search-files').click();
    // Two files for each of ~1,300 images (sl-micro-6.1-scale has 600).
    await expect(search.getByTestId('image-search-files-read')).toContainText(/Files searched: \d+ of \d+ read, \d+ not published, 60 could not be read\./, { timeout: 180_000 });
    const hits = search.getByTestId('image-search-hit');

    // The pools run images of sl-micro-6.1-base: its images come before the 60 generated ones.
    await expect(hits.first()).toContainText(`in ${ NS }/sl-micro-6.1-base`);
    await expect(hits.filter({ hasText: 'base-v2.2.0-3.12-os' })).toHaveCount(1);
    await expect(hits).toHaveCount(50);
    const more = search.getByTestId('image-search-more');

    await expect(more).toContainText(/Showing 50 of \d+ matching images\./);
    const total = Number(/of (\d+) matching/.exec(await more.innerText())?.[1]);

    expect(total).toBeGreaterThan(60);
    await more.getByTestId('image-search-show-more').click();
    await expect(hits).toHaveCount(Math.min(total, 100));

    // Nothing matches: the search says how many files it could not read.
    await search.getByTestId('image-search-input').fill('no-such-package');
    await expect(search.getByTestId('image-search-empty')).toContainText(/No image matches in the files that could be read: 60 of \d+ files could not be read/);
  });

  test('the channels page search finds an image by a package version and opens its compare', async({ page }) => {
    await page.goto(dashboardPath(CHANNELS));
    const search = page.getByTestId('image-search');

    await search.getByTestId('image-search-input').fill('kernel-default-6.4.0-1.3');
    await expect(search.getByTestId('image-search-empty')).toBeVisible();
    await search.getByTestId('image-search-files').click();
    const hit = search.getByTestId('image-search-hit');

    await expect(hit).toHaveCount(1);
    await expect(hit).toContainText(FROM);
    await expect(hit).toContainText('Installed package: kernel-default-6.4.0-1.3');
    await hit.getByTestId('image-search-compare').click();
    await expect(page).toHaveURL(/channels\/fleet-default\/sl-micro-6\.1-base\/compare\?old=base-v2\.2\.0-3\.9-os&new=base-v2\.2\.0-3\.12-os/);
    await expect(page.getByTestId('package-diff')).toBeVisible();
  });
});
