// Before an approval, the dialog says when nodes that boot the image would not rejoin their
// cluster: Elemental labels a node with its image name (elemental-populate-node-labels), and the
// kubelet refuses to start with a label value over 63 characters (rule "Node labels of an image").
// The real channel's registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12 makes 64.
// Seeds its channels and pools through the API, so it runs on a real Rancher too; it never approves.

import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOLS } from './support/names';
import { poolRow } from './support/pools';
import { containerEntry } from './support/channels';
import { channelPage } from './support/seed-channels';
import { uniqueName, useSeed } from './support/seed';
import { firstClusterTargets, seedBaseChannel, seedUpgradablePool, selectorAnnotation } from './support/seed-pools';

const seed = useSeed();

test.describe('the node label limit', () => {
  test('the approve dialog warns that nodes booting 2.2.0-3.12 will not rejoin, naming the 64-character label', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const name = await seedUpgradablePool(seed, channel, uniqueName('e2e-label-limit'));

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, name).getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-image')).toHaveText('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12');
    const warning = dialog.getByTestId('node-label-warning');

    await expect(warning).toContainText('will not rejoin their cluster');
    await expect(warning).toContainText('elemental.cattle.io/image=registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.0-3.12');
    await expect(warning).toContainText('at most 63 characters (this one has 64)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    // The channel's version rows carry the same warning as a small marker: on 3.12, not on 3.9.
    await page.goto(dashboardPath(channelPage(channel)));
    await expect(page.getByTestId(`version-${ channel.version('base-v2.2.0-3.12-os') }`).getByTestId('node-label-marker')).toHaveAttribute('title', /elemental\.cattle\.io\/image would have 64 characters/);
    await expect(page.getByTestId(`version-${ channel.version('base-v2.2.0-3.9-os') }`).getByTestId('node-label-marker')).toHaveCount(0);
  });

  test('no warning for an image whose labels fit', async({ page }) => {
    const channel = await seed.channel({ name: 'e2e-short', entries: [containerEntry('short', 1), containerEntry('short', 2)] });
    const name = await seed.pool('e2e-label-fits', { managedOSVersionName: channel.version('short-v1.0.1-os'), clusterTargets: await firstClusterTargets(seed) }, selectorAnnotation(channel));

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await poolRow(page, name).getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-image')).toHaveText('registry.example.test/e2e/os:1.0.2');
    await expect(dialog.getByTestId('node-label-warning')).toHaveCount(0);
  });
});
