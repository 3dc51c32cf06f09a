// Issue 16: a move from SL Micro 6.1 to 6.2 compared and approved as what it is (a release move,
// with a warning and the package diff, advisories proven by the package lists), and the channels
// page's search finding an image by a package version. Each test publishes both channels (and its
// pool) through the API (support/seed.ts), so it runs on a real Rancher too.

import { Page } from '@playwright/test';
import { ChannelEntry } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNELS, POOLS } from './support/names';
import { poolRow } from './support/pools';
import { SeededChannel, useSeed } from './support/seed';
import { NO_CLUSTER_TARGETS } from './support/seed-pools';
import { channelPage, comparePage, literal, useChangelogHost } from './support/seed-channels';

const FROM = 'base-v2.2.0-3.12-os';
const TO = 'base-v2.3.0-6.1-os';

const seed = useSeed();
let from: SeededChannel;
let to: SeededChannel;

test.beforeEach(async({ page }) => {
  from = await seed.channel({ fixture: 'sl-micro-6.1-base' });
  to = await seed.channel({ fixture: 'sl-micro-6.2-base' });
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
  const changelogs = useChangelogHost(seed);

  test('6.1 → 6.2 compare: a release move, the package diff, advisories proven by the package lists', async({ page, problems }) => {
    await page.goto(dashboardPath(`${ channelPage(to) }/compare?old=${ from.version(FROM) }&new=${ to.version(TO) }`));
    await expect(page.getByTestId('move-warning')).toContainText('Move to SL Micro 6.2');
    await expect(page.getByTestId('move-warning')).toContainText('not a plain upgrade');
    await expectReleaseMove(page.getByTestId('image-compare'));

    await expect(page.getByTestId('changelog-evidence')).toContainText('the two package lists prove');
    const expat = page.getByTestId('advisory').filter({ hasText: 'SUSE-SLE-Micro-6.2-2025-295' });

    await expect(expat.getByTestId('advisory-evidence')).toContainText('libexpat1 2.5.0-slfo.1.1_1.4 → 2.7.1-160000.2.2');

    // The old image can be chosen from any channel: the options are grouped by channel.
    await page.getByTestId('select-old').click();
    await expect(page.locator('.vs__option-kind-group', { hasText: `${ from.namespace }/${ from.name }` })).toBeVisible();
    await page.getByRole('option', { name: new RegExp(literal(from.version('base-v2.2.0-3.9-os'))) }).click();
    await expect(page).toHaveURL(new RegExp(literal(`old=${ from.version('base-v2.2.0-3.9-os') }&new=${ to.version(TO) }`)));
    await expect(page.getByTestId('move-warning')).toContainText('Move to SL Micro 6.2');
    expect(problems.pageErrors).toEqual([]);
  });

  test('"Images of <channel>…" in a compare picker keeps the menu open with that channel\'s images, by keyboard', async({ page }) => {
    await page.goto(dashboardPath(comparePage(from, 'base-v2.2.0-3.8-os', FROM)));
    const picker = page.getByTestId('select-old');
    const group = `${ to.namespace }/${ to.name }`;

    await picker.click();
    await page.keyboard.type(`Images of ${ group }`);
    await expect(page.getByRole('option', { name: new RegExp(literal(`Images of ${ group }`)) })).toBeVisible();
    await page.keyboard.press('Enter');

    // Nothing is selected: the menu is open again, with the channel's images under its name.
    await expect(page.locator('.vs__option-kind-group', { hasText: group })).toBeVisible();
    await expect(page.getByRole('option', { name: new RegExp(literal(to.version(TO))) })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(literal(`old=${ from.version('base-v2.2.0-3.8-os') }`)));
    await page.keyboard.type(to.version(TO));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(literal(`old=${ to.version(TO) }`)));
  });

  test('the approve dialog names the move to 6.2 with a warning and shows the package diff', async({ page }) => {
    // Pinned to 3.12, whose image label no kubelet accepts (64 characters): a pool targeting a cluster
    // would roll its nodes onto it, and they would never rejoin, for this test or any after it.
    const pool = await seed.pool('e2e-to-62', { managedOSVersionName: from.version(FROM), clusterTargets: NO_CLUSTER_TARGETS }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: to.name }) });

    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);

    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(to.version(TO));
    await expect(dialog.locator('#approve-dialog-title')).toHaveText(`Move to SL Micro 6.2: ${ pool }`);
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
    const packages = 'kernel-default|(none)|6.4.0|9.9|x86_64|obs://gen|GPL-2.0-only\n';
    const generated = await seed.channel({
      name: GENERATED, entries, files: Object.fromEntries(entries.map((e) => [e.metadata.name, { packages }]))
    });

    // A pool runs an image of the 6.1 channel: the search ranks that channel's images first. It
    // targets no cluster: its 3.12 would take the nodes down for good (see above).
    await seed.pool('e2e-search', { managedOSVersionName: from.version(FROM), clusterTargets: NO_CLUSTER_TARGETS });
    // The generated images' update logs answer 500 on their changelog host: those files cannot be read.
    await changelogs.allow();
    await changelogs.host.serve(seed, generated);
    changelogs.host.rules.set(new RegExp(`^/${ literal(generated.name) }/.*\\.updates\\.log$`), { status: 500 });

    await page.goto(dashboardPath(CHANNELS));
    const search = page.getByTestId('image-search');

    await search.getByTestId('image-search-input').fill('kernel-default');
    await search.getByTestId('image-search-files').click();
    // Two files for each image of every channel.
    await expect(search.getByTestId('image-search-files-read')).toContainText(/Files searched: \d+ of \d+ read, \d+ not published, 60 could not be read\./, { timeout: 180_000 });
    const hits = search.getByTestId('image-search-hit');

    // The pool runs an image of the 6.1 channel: its images come before the 60 generated ones.
    await expect(hits.first()).toContainText(`in ${ from.namespace }/${ from.name }`);
    await expect(hits.filter({ hasText: from.version(FROM) })).toHaveCount(1);
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
    // Among the images of the channels published here, one has that package version (others a Rancher holds are not counted).
    const hit = search.getByTestId('image-search-hit').filter({ hasText: new RegExp(`in (${ literal(`${ from.namespace }/${ from.name }`) }|${ literal(`${ to.namespace }/${ to.name }`) })(?!\\d)`) });

    await expect(hit).toHaveCount(1);
    await expect(hit).toContainText(from.version(FROM));
    await expect(hit).toContainText('Installed package: kernel-default-6.4.0-1.3');
    await hit.getByTestId('image-search-compare').click();
    await expect(page).toHaveURL(new RegExp(literal(`${ channelPage(from) }/compare?old=${ from.version('base-v2.2.0-3.9-os') }&new=${ from.version(FROM) }`)));
    await expect(page.getByTestId('package-diff')).toBeVisible();
  });
});
