// Issue 17: the pools list as Rancher lists are: a ⋮ row menu with the pool's actions, Delete
// (single and bulk) through the shell's confirm dialog. Seeds its channel and pools through the API
// (support/seed.ts), so it runs on a real Rancher too.

import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS, SELECTOR_ANNOTATION } from './support/names';
import { NEWEST_SEEDED } from './support/channels';
import { useSeed } from './support/seed';
import { NO_CLUSTER_TARGETS } from './support/seed-pools';
import { TEST_NAMESPACE } from './support/env';

const seed = useSeed();

test.describe('pools list conventions', () => {
  let pools: string[];

  test.beforeEach(async() => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const [cluster] = await seed.clusters();
    const targets = [{ clusterName: cluster }];
    // The first follows the channel by a selector and runs an older image: it has an upgrade to approve.
    const selector = { [SELECTOR_ANNOTATION]: JSON.stringify({ channel: channel.name, version: '~2.2' }) };

    pools = [
      await seed.pool('e2e-list-a', { managedOSVersionName: channel.version('base-v2.2.0-3.9-os'), clusterTargets: targets }, selector),
      // On 3.12, which no node may boot (its image label is 64 characters): it targets no cluster.
      await seed.pool('e2e-list-b', { managedOSVersionName: channel.version(NEWEST_SEEDED), clusterTargets: NO_CLUSTER_TARGETS }),
    ];
  });

  test('the row menu offers the pool\'s actions and deletes after the shell\'s confirmation', async({ page }) => {
    const [first, second] = pools;

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));

    await page.getByTestId(`pool-menu-${ first }`).click();
    for (const label of ['Approve upgrade', 'Edit config', 'Edit YAML', 'Delete']) {
      await expect(page.getByRole('menuitem', { name: label })).toBeVisible();
    }
    await page.keyboard.press('Escape');

    await page.getByTestId(`pool-menu-${ second }`).click();
    await page.getByRole('menuitem', { name: 'Edit YAML' }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ TEST_NAMESPACE }/${ second }/edit\\?as=yaml`));
    await expect(page.getByTestId('pool-yaml')).toBeVisible();
    await page.goBack();

    await page.getByTestId(`pool-menu-${ second }`).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const prompt = page.getByTestId('prompt-remove-confirm-button');

    await expect(page.getByText(second).last()).toBeVisible();
    expect(await seed.get(POOL_TYPE, second)).toBeTruthy();
    await prompt.click();
    await expect(page.getByTestId('pools-table').getByRole('link', { name: second, exact: true })).toHaveCount(0);
    // The operator's finalizer may keep it a moment (rancher/elemental-operator managedosimage_controller.go).
    await expect.poll(() => seed.get(POOL_TYPE, second)).toBeUndefined();
  });

  test('a viewer gets no row menu', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(POOLS));
    await expect(page.getByTestId('pools-table').getByRole('link', { name: pools[0], exact: true })).toBeVisible();
    await expect(page.getByTestId(`pool-menu-${ pools[0] }`)).toHaveCount(0);
  });
});
