// Issue 17: states in words. The compare page says which pool runs the old image (and claims
// nothing when none does), a channel's image list says whether each image is listed, and a failed
// channel's own page shows the sync error the channels list shows.

import { field, sessionApi, steveUrl } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL_PAGE, CHANNEL_TYPE, CHANNELS, NS, POOL_TYPE
} from './support/names';

const emulator = useEmulator();

test.describe('states in words', () => {
  test('the compare page names the pool running the old image, and only then', async({ page }) => {
    await loginAs(page, 'admin');
    // tests/fixtures/synthetic/seed/pools.yaml: chain-canary, chain-staging and edge-berlin are pinned
    // to base-v2.2.0-3.9-os; only chain-production to 3.8, and it is deleted here.
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.9-os&new=base-v2.2.0-3.12-os`));
    const oldSelect = page.locator('.labeled-select', { has: page.getByTestId('select-old') });

    await expect(oldSelect).toContainText('Old image (running on chain-canary, chain-staging and 1 more pool)');

    const api = sessionApi(page);
    const production = steveUrl(POOL_TYPE, NS, 'chain-production');

    expect((await api.delete(production)).status).toBeLessThan(300);
    await expect.poll(async() => (await api.get(production)).status, { timeout: 30_000 }).toBe(404);
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`));
    await expect(oldSelect).toContainText('base-v2.2.0-3.8-os');
    await expect(oldSelect).toContainText('Old image');
    await expect(oldSelect).not.toContainText('running');
  });

  test('a channel\'s images say whether the channel lists them, with relative dates', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(BASE_CHANNEL_PAGE));
    const row = page.getByTestId('version-base-v2.2.0-3.12-os');

    await expect(row.getByTestId('in-sync')).toHaveText('Listed');
    await expect(row.getByTestId('live-time')).toContainText(/ago/);
    await expect(row.getByTestId('live-time')).toHaveAttribute('title', /\d/);
  });

  test('a failed channel\'s page shows its sync error as the list does', async({ page }) => {
    await loginAs(page, 'admin');
    const channel = `e2e-failed-${ Date.now().toString(36) }`;

    await emulator.control.publishChannel(channel, [{
      metadata: { name: `${ channel }-v1.0.1-os` },
      spec:     {
        version:  'v1.0.1',
        type:     'container',
        metadata: {
          upgradeImage: 'registry.example.test/e2e/os:1.0.1', platforms: ['linux/x86_64'], created: 1750000000
        }
      },
    }]);
    // A broken channel file: the operator's sync fails (tests/e2e/sync.spec.ts).
    await emulator.control.publishChannel(channel, '{"not": "an array"');
    await expect.poll(async() => field((await sessionApi(page).get(steveUrl(CHANNEL_TYPE, NS, channel))).body, 'status.failedSynchronizationAttempts'), { timeout: 20_000 })
      .toBeTruthy();

    await page.goto(dashboardPath(CHANNELS));
    const listRow = page.locator('tr', { has: page.getByRole('link', { name: channel, exact: true }) });

    // The channels page reads every channel's versions (the seed has a 500-image channel): slow on a busy machine.
    await expect(listRow.getByTestId('channel-sync-message')).toContainText('FailedToSync: failed channel synchronization', { timeout: 60_000 });
    await listRow.getByRole('link', { name: channel, exact: true }).click();
    await expect(page.getByTestId('channel-sync-error')).toContainText('FailedToSync');
    await expect(page.getByTestId('channel-sync-error')).toContainText('failed channel synchronization');
    await expect(page.getByTestId('channel-facts').getByTestId('channel-sync-message')).toContainText('failed channel synchronization');
    await sessionApi(page).delete(steveUrl(CHANNEL_TYPE, NS, channel));
  });
});
