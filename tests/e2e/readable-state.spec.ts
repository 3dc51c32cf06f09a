// Issue 17: states in words. The compare page says which pool runs the old image (and claims
// nothing when none does), a channel's image list says whether each image is listed, and a failed
// channel's own page shows the sync error the channels list shows. Seeds its channels and pools
// through the API (support/seed.ts), so it runs on a real Rancher too.

import { field } from './support/api';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS, POOL_TYPE } from './support/names';
import { containerEntry, NEWEST_SEEDED } from './support/channels';
import { useSeed } from './support/seed';
import { B38, B39, firstClusterTargets, seedBaseChannel } from './support/seed-pools';
import { channelPage } from './support/seed-channels';
import { TEST_NAMESPACE } from './support/env';

const seed = useSeed();

test.describe('states in words', () => {
  test('the compare page names the pool running the old image, and only then', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const clusterTargets = await firstClusterTargets(seed);
    // Three pools on 3.9 (named in order by their first letters), one on 3.8, which is deleted here.
    const on39: string[] = [];

    for (const name of ['e2e-run-a', 'e2e-run-b', 'e2e-run-c']) {
      on39.push(await seed.pool(name, { managedOSVersionName: channel.version(B39), clusterTargets }));
    }
    const on38 = await seed.pool('e2e-run-old', { managedOSVersionName: channel.version(B38), clusterTargets });
    const compare = (old: string) => dashboardPath(`${ channelPage(channel) }/compare?old=${ channel.version(old) }&new=${ channel.version(NEWEST_SEEDED) }`);

    await loginAs(page, 'admin');
    await page.goto(compare(B39));
    const oldSelect = page.locator('.labeled-select', { has: page.getByTestId('select-old') });

    await expect(oldSelect).toContainText(`Old image (running on ${ on39[0] }, ${ on39[1] } and 1 more pool)`);

    expect((await seed.api.delete(`/v1/${ POOL_TYPE }s/${ TEST_NAMESPACE }/${ on38 }`)).status).toBeLessThan(300);
    await expect.poll(() => seed.get(POOL_TYPE, on38), { timeout: 30_000 }).toBeUndefined();
    await page.goto(compare(B38));
    await expect(oldSelect).toContainText(channel.version(B38));
    await expect(oldSelect).toContainText('Old image');
    await expect(oldSelect).not.toContainText('running');
  });

  test('a channel\'s images say whether the channel lists them, with relative dates', async({ page }) => {
    const channel = await seedBaseChannel(seed);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(channelPage(channel)));
    const row = page.getByTestId(`version-${ channel.version(NEWEST_SEEDED) }`);

    await expect(row.getByTestId('in-sync')).toHaveText('Listed');
    await expect(row.getByTestId('live-time')).toContainText(/ago/);
    await expect(row.getByTestId('live-time')).toHaveAttribute('title', /\d/);
  });

  test('a failed channel\'s page shows its sync error as the list does', async({ page }) => {
    const channel = await seed.channel({ name: 'e2e-failed', entries: [containerEntry('e2e-failed', 1)] });

    // A broken channel file: the operator's sync fails (tests/e2e/sync.spec.ts).
    await seed.publishText(channel, '{"not": "an array"');
    await expect.poll(async() => field(await seed.get(CHANNEL_TYPE, channel.name, channel.namespace), 'status.failedSynchronizationAttempts'), { timeout: 30_000 })
      .toBeTruthy();

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    const listRow = page.locator('tr', { has: page.getByRole('link', { name: channel.name, exact: true }) });

    await expect(listRow.getByTestId('channel-sync-message')).toContainText('FailedToSync: failed channel synchronization', { timeout: 60_000 });
    await listRow.getByRole('link', { name: channel.name, exact: true }).click();
    await expect(page.getByTestId('channel-sync-error')).toContainText('FailedToSync');
    await expect(page.getByTestId('channel-sync-error')).toContainText('failed channel synchronization');
    await expect(page.getByTestId('channel-facts').getByTestId('channel-sync-message')).toContainText('failed channel synchronization');
  });
});
