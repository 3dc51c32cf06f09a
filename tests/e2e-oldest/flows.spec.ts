// Issue 26: the extension on the oldest shell it declares (Rancher 2.12's, playwright.oldest.config.ts),
// one full flow per page: it loads through /v1/uiplugins, the login page posts /v3-public (the
// emulator imitates 2.12: no /v1-public), and the fleet overview, channels → a channel → compare,
// a pool created by selector → approved → rolled back, and the changelog sources page work.

import { field } from '../e2e/support/api';
import { EMULATOR_TAG, useEmulator } from '../e2e/support/emulator';
import { dashboardPath, loginAs, loginOnPage } from '../e2e/support/login';
import { baseChannelWithNewerImage, channelRow, NEWEST_SEEDED, PUBLISHED } from '../e2e/support/channels';
import {
  BASE_CHANNEL, CHANNEL_TYPE, CHANNELS, NS, POOLS
} from '../e2e/support/names';
import { poolRow, storedPool } from '../e2e/support/pools';
import { choose } from '../e2e/support/select';
import { expect, test } from '../e2e/support/test';

// The emulator imitating Rancher 2.12 with its demo seed, reset before each flow.
const emulator = useEmulator('the emulator imitating Rancher 2.12');

test.describe('on the oldest declared shell (Rancher 2.12)', { tag: EMULATOR_TAG }, () => {
  test('the login page logs in through /v3-public, the extension loads through /v1/uiplugins, the fleet overview ranks the pools', async({ page, problems }) => {
    const logins: string[] = [];
    const pluginFiles: string[] = [];

    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;

      if (request.method() === 'POST' && path.includes('-public/')) {
        logins.push(path);
      }
      if (path.startsWith('/v1/uiplugins/os-upgrades/')) {
        pluginFiles.push(path);
      }
    });
    await loginOnPage(page, 'admin');
    expect(logins).toEqual(['/v3-public/localProviders/local']);

    await page.goto(dashboardPath(CHANNELS));
    await page.getByRole('link', { name: 'Fleet overview' }).click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/fleet/);
    await expect(page.getByTestId('fleet-table')).toBeVisible();
    await expect(page.getByTestId('fleet-evidence-loading')).toHaveCount(0, { timeout: 30_000 });
    const names = (await page.getByTestId('fleet-table').getByTestId('fleet-pool-name').allTextContents()).map((text) => text.trim());

    expect(names.slice(0, 3)).toEqual(['chain-canary', 'chain-staging', 'edge-berlin']);
    expect(pluginFiles.some((path) => /\/plugin\/os-upgrades-[\d.]+\.umd\.min\.js$/.test(path))).toBe(true);
    expect(problems.pageErrors).toEqual([]);
  });

  test('channels → a channel → compare two images', async({ page, problems }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    const row = channelRow(page, BASE_CHANNEL);

    await expect(row.getByTestId('channel-count')).toHaveText('6');
    await row.getByRole('link', { name: BASE_CHANNEL, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Channel ${ BASE_CHANNEL }`);
    // Read by label selector here: Rancher 2.12's shell has no enableServerSidePagination.
    await expect(page.getByTestId('container-versions').locator('.col-name')).toHaveText(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os']);

    await page.getByTestId('version-base-v2.2.0-3.12-os').click();
    const details = page.getByTestId('version-changelog');

    await expect(details.getByRole('heading', { name: 'Changelog of v2.2.0-3.12' })).toBeVisible();
    await details.getByTestId('compare-link').click();
    await expect(page).toHaveURL(/compare\?old=base-v2\.2\.0-3\.9-os&new=base-v2\.2\.0-3\.12-os/);
    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');
    await expect(page.getByTestId('severity-summary')).toBeVisible();
    expect(problems.pageErrors).toEqual([]);
  });

  test('a pool created by selector, approved when the channel publishes, rolled back', async({ page, problems }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await page.getByTestId('pools-create').click();
    await page.getByTestId('pool-name-input').fill('oldest-shell');
    await page.getByTestId('btn-targets').click();
    await page.getByTestId('pool-target-add').click();
    await choose(page, 'pool-target-cluster-0', 'edge-munich-01');
    await page.getByTestId('pool-overlap-confirm-edge-munich').click();
    await page.getByTestId('btn-image').click();
    await choose(page, 'selector-channel', BASE_CHANNEL);
    await page.getByTestId('selector-version').fill('~2.2');
    await expect(page.getByTestId('selector-preview-chosen-name')).toHaveText(NEWEST_SEEDED);
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    expect(field(await storedPool(emulator.control, 'oldest-shell'), 'spec.managedOSVersionName')).toBe(NEWEST_SEEDED);

    const row = poolRow(page, 'oldest-shell');

    await emulator.control.publishChannel(BASE_CHANNEL, baseChannelWithNewerImage());
    // Shell 3.0.5 does not page ManagedOSVersions, so no `resource.changes` watch tells the open
    // page of the new image (on 2.13 and newer it shows without a reload): it is read on the next load.
    await page.reload();
    await expect(row.getByTestId('pool-upgrade-available')).toBeVisible();
    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(PUBLISHED);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(field(await storedPool(emulator.control, 'oldest-shell'), 'spec.managedOSVersionName')).toBe(PUBLISHED);
    await expect(row.getByTestId('pool-pin')).toHaveText(PUBLISHED);

    await page.getByTestId('pool-menu-oldest-shell').click();
    await page.getByRole('menuitem', { name: 'Roll back' }).click();
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(NEWEST_SEEDED);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(field(await storedPool(emulator.control, 'oldest-shell'), 'spec.managedOSVersionName')).toBe(NEWEST_SEEDED);
    await expect(row.getByTestId('pool-pin')).toHaveText(NEWEST_SEEDED);
    expect(problems.pageErrors).toEqual([]);
  });

  test('the changelog sources page tests and saves a channel\'s template', async({ page, problems }) => {
    const row = page.getByTestId('channel-sources-sl-micro-6.2-base');

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await page.getByRole('link', { name: 'Changelog sources' }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await row.getByTestId('template-input').fill('/changelog-files/{name}.updates.log');
    await row.getByTestId('test-template').click();
    await expect(row.getByTestId('source-test-result')).toHaveAttribute('data-outcome', 'found');

    await row.getByTestId('template-input').fill('/changelog-files/v2-{name}.updates.log');
    await row.getByTestId('save-channel-sources').click();
    await expect(row.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const saved = (await emulator.control.objects(CHANNEL_TYPE)).find((c) => field(c, 'metadata.name') === 'sl-micro-6.2-base' && field(c, 'metadata.namespace') === NS);

    expect(field(saved, 'metadata.annotations')).toMatchObject({ 'os-upgrades.cattle.io/changelog-url': '/changelog-files/v2-{name}.updates.log' });
    expect(problems.pageErrors).toEqual([]);
  });
});
