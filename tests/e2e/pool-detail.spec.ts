// Issue 17: a pool's own page (its name's link on the list): pin, the selector in words, targets,
// rollout node by node, approval history and the pool's actions; dates as Rancher shows them;
// an approval followed to "Delivered". Seeds its channel and pool through the API
// (support/seed-pool-forms.ts), so it runs on a real Rancher too; where the targeted cluster runs
// no Elemental nodes, the tests stop before the nodes (at the rollout summary, or at the bundle the
// operator wrote) and say so in the report. Fleet's Ready message in words, Fleet's text on hover,
// is checked on a cluster whose agent fails to apply (@emulator): on a working one it lasts a moment.

import { Page } from '@playwright/test';
import { expectAccessible, expectTheme, useDarkTheme, useLightTheme } from './support/a11y';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS, SELECTOR_ANNOTATION } from './support/names';
import { field } from './support/api';
import { EMULATOR_TAG, EmulatorControl, requireEmulator } from './support/emulator';
import { poolRow } from './support/pools';
import { TEST_NAMESPACE } from './support/env';
import { rollableEntries, useSeed } from './support/seed';
import {
  BUNDLE_TYPE, elementalNodes, FIXTURE, followsChannel, NEWEST_IMAGE, noteStoppedBeforeNodes, OLDER_IMAGE, pinnedPool, PoolWorld, seedPoolWorld, upgradeImageOf
} from './support/seed-pool-forms';

const seed = useSeed();

test.describe('a pool\'s page', () => {
  let world: PoolWorld;
  /** Follows the channel by the selector ~2.2 and is pinned to an older image: it has an upgrade to approve. */
  let pool: string;

  test.beforeEach(async() => {
    world = await seedPoolWorld(seed);
    pool = await seed.pool('e2e-detail', pinnedPool(world, { managedOSVersionName: world.channel.version(OLDER_IMAGE) }), followsChannel(world));
  });

  const poolPage = () => dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }`);

  /** Waits for a row per Elemental node of the pool's cluster, or notes that it has none. */
  async function expectNodeRows(page: Page): Promise<void> {
    const nodes = await elementalNodes(seed, world.cluster);

    await expect(page.getByTestId('pool-nodes')).toBeVisible();
    if (!nodes.length) {
      noteStoppedBeforeNodes(world.cluster, 'the rollout summary');

      return;
    }
    for (const node of nodes) {
      await expect(page.getByRole('cell', { name: node, exact: true })).toBeVisible({ timeout: 40_000 });
    }
  }

  test('opens from the name and shows pin, selector in words, targets, nodes and the actions', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, pool);

    // The rows grow as each cluster's nodes are read: click once they have settled.
    await expect(row.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', /^(?!loading$)/, { timeout: 40_000 });
    await row.getByRole('link', { name: pool, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ TEST_NAMESPACE }/${ pool }(#.*)?$`));

    await expect(page.getByTestId('pool-title-bar')).toContainText(`Workload pool: ${ pool }`);
    await expect(page.getByTestId('pool-pin')).toHaveText(world.channel.version(OLDER_IMAGE));
    await expect(page.getByTestId('pool-selector-chips').locator('li')).toHaveText([world.channel.name, '~2.2']);
    await expect(page.getByTestId('pool-detail-targets')).toContainText(world.cluster);
    await expectNodeRows(page);

    await expect(page.getByTestId('pool-history-empty')).toBeVisible();

    await page.getByTestId(`pool-menu-${ pool }`).click();
    await page.getByRole('menuitem', { name: 'Edit config' }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ TEST_NAMESPACE }/${ pool }/edit$`));
    await expect(page.getByTestId('pool-name-input')).toHaveValue(pool);
  });

  test('a selector moved to another channel by someone else shows that channel\'s pick without a reload', async({ page }) => {
    const other = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });

    await loginAs(page, 'admin');
    await page.goto(poolPage());
    await expect(page.getByTestId('pool-would-pick')).toContainText(world.channel.version(NEWEST_IMAGE));

    await seed.update(POOL_TYPE, pool, (object) => {
      (object.metadata as { annotations: Record<string, string> }).annotations[SELECTOR_ANNOTATION] = JSON.stringify({ channel: other.name, version: '~2.2' });
    });

    await expect(page.getByTestId('pool-selector-chips').locator('li')).toHaveText([other.name, '~2.2']);
    await expect(page.getByTestId('pool-would-pick')).toContainText(other.version(NEWEST_IMAGE));
  });

  /** Approves the offered upgrade on the pool's page with a comment. */
  async function approveFromPage(page: Page): Promise<void> {
    await page.getByTestId('pool-detail-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await dialog.getByTestId('approve-comment').fill('Agreed with the site lead');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`pool-menu-${ pool }`)).toBeFocused();
  }

  test('approving from the page records it in the history; the page follows it to Delivered', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(poolPage());
    await approveFromPage(page);

    await expect(page.getByTestId('pool-pin')).toHaveText(world.channel.version(NEWEST_IMAGE));
    await expect(page.getByTestId('pool-approved-at')).toContainText(/ago|Just now/);
    expect(field(await seed.get(POOL_TYPE, pool), 'spec.managedOSVersionName')).toBe(world.channel.version(NEWEST_IMAGE));

    const entry = page.getByTestId('pool-history-entry');

    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(`Approved ${ world.channel.version(NEWEST_IMAGE) } (was ${ world.channel.version(OLDER_IMAGE) })`);
    await expect(entry).toContainText('Agreed with the site lead');

    // The operator writes the new image into the pool's Fleet bundle (mos-<pool>).
    await expect.poll(async() => JSON.stringify(await seed.get(BUNDLE_TYPE, `mos-${ pool }`) ?? {}), { timeout: 30_000 }).toContain(upgradeImageOf(NEWEST_IMAGE));
    if (!(await elementalNodes(seed, world.cluster)).length) {
      noteStoppedBeforeNodes(world.cluster, 'the Fleet bundle the operator wrote');

      return;
    }
    await expect(page.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 60_000 });
    await expect(page.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done');
    await expect(page.getByTestId('pool-rollout')).toContainText('Delivered');
  });

  // A cluster whose agent cannot apply holds Fleet's bundle in a state with a message (a WaitApplied
  // lasts only until the agent applies, too short to check on a working cluster).
  test('Fleet\'s message on a cluster that cannot apply the change reads in words, Fleet\'s own text on hover', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('fault injection (a Fleet agent that fails to apply)');
    const control = await EmulatorControl.connect();

    try {
      await loginAs(page, 'admin');
      await page.goto(poolPage());
      // The pool's first pin delivered, so that the failure is the approved pin's.
      await expect(page.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
      await control.setApplyFailure(world.cluster, true, 'the agent could not apply the bundle', TEST_NAMESPACE);
      await approveFromPage(page);

      // rancher/fleet summary.go ReadyMessage: `ErrApplied(1) [Cluster <namespace>/<cluster>: <agent's message>]`.
      const message = page.getByTestId('fleet-message');

      await expect(message).toContainText(`Cluster ${ TEST_NAMESPACE }/${ world.cluster } could not apply the change`, { timeout: 30_000 });
      await expect(message).toContainText('the agent could not apply the bundle');
      await expect(message).toHaveAttribute('title', `ErrApplied(1) [Cluster ${ TEST_NAMESPACE }/${ world.cluster }: the agent could not apply the bundle]`);
    } finally {
      await control.setApplyFailure(world.cluster, false, undefined, TEST_NAMESPACE);
      await control.dispose();
    }
  });

  test('Delete from the page asks the shell\'s confirmation and returns to the list', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(poolPage());
    await page.getByTestId(`pool-menu-${ pool }`).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByTestId('prompt-remove-confirm-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    // The operator's finalizer may keep it a moment (rancher/elemental-operator managedosimage_controller.go).
    await expect.poll(() => seed.get(POOL_TYPE, pool)).toBeUndefined();
  });

  test('a viewer sees the page without actions', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(poolPage());
    await expect(page.getByTestId('pool-detail-summary')).toBeVisible();
    await expect(page.getByTestId('pool-pin')).toHaveText(world.channel.version(OLDER_IMAGE));
    await expect(page.getByTestId(`pool-menu-${ pool }`)).toHaveCount(0);
    await expect(page.getByTestId('pool-detail-approve')).toHaveCount(0);
  });

  for (const theme of ['light', 'dark']) {
    test(`has no serious accessibility violations and no sideways scroll at 1024 px (${ theme })`, async({ page }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      await loginAs(page, 'admin');
      await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));
      await page.goto(poolPage());
      await expectTheme(page, theme);
      await expectNodeRows(page);
      await expectAccessible(page, '.pool-page');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    });
  }
});
