// Issue 17: a pool's own page (its name's link on the list): pin, the selector in words, targets,
// rollout node by node, approval history and the pool's actions; dates as Rancher shows them;
// Fleet's Ready message in words with Fleet's text on hover.

import { expectAccessible, expectTheme, useDarkTheme } from './support/a11y';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { NS, POOLS } from './support/names';
import { poolRow, storedPoolNames } from './support/pools';

const emulator = useEmulator();

test.describe('a pool\'s page', () => {
  test('opens from the name and shows pin, selector in words, targets, nodes and the actions', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const link = page.getByTestId('pools-table').getByRole('link', { name: 'edge-berlin', exact: true });

    // The rows grow as each cluster's nodes are read: click once they have settled.
    await expect(poolRow(page, 'edge-berlin').getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 40_000 });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ NS }/edge-berlin(#.*)?$`));

    await expect(page.getByTestId('pool-title-bar')).toContainText('Workload pool: edge-berlin');
    await expect(page.getByTestId('pool-pin')).toHaveText('base-v2.2.0-3.9-os');
    // tests/fixtures/synthetic/seed/pools.yaml: {"channel":"sl-micro-6.1-base","version":"~2.2"}
    const chips = page.getByTestId('pool-selector-chips').locator('li');

    await expect(chips).toHaveText(['sl-micro-6.1-base', '~2.2']);
    await expect(page.getByTestId('pool-detail-targets')).toContainText('berlin');
    await expect(page.getByTestId('pool-nodes')).toBeVisible();
    await expect(page.getByTestId('node-row')).toHaveCount(6);

    await expect(page.getByTestId('pool-history-empty')).toBeVisible();

    await page.getByTestId('pool-menu-edge-berlin').click();
    await page.getByRole('menuitem', { name: 'Edit config' }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ NS }/edge-berlin/edit$`));
    await expect(page.getByTestId('pool-name-input')).toHaveValue('edge-berlin');
  });

  test('approving from the page records it in the history and Fleet\'s message reads in words', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-berlin`));
    await page.getByTestId('pool-detail-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await dialog.getByTestId('approve-comment').fill('Agreed with the site lead');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('pool-menu-edge-berlin')).toBeFocused();

    await expect(page.getByTestId('pool-pin')).toHaveText('base-v2.2.0-3.12-os');
    await expect(page.getByTestId('pool-approved-at')).toContainText(/ago|Just now/);

    // Fleet: `WaitApplied(2) [Cluster fleet-default/edge-berlin-01]` (emulated as Fleet's ReadyMessage writes it).
    const message = page.getByTestId('fleet-message');

    await expect(message).toContainText(/clusters (to apply|have applied) the change/, { timeout: 20_000 });
    await expect(message).toHaveAttribute('title', /^(WaitApplied|NotReady)\(2\) \[Cluster fleet-default\/edge-berlin-0[12]\]$/);

    const entry = page.getByTestId('pool-history-entry');

    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('Approved base-v2.2.0-3.12-os (was base-v2.2.0-3.9-os)');
    await expect(entry).toContainText('Agreed with the site lead');
  });

  test('Delete from the page asks the shell\'s confirmation and returns to the list', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-munich`));
    await page.getByTestId('pool-menu-edge-munich').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByTestId('prompt-remove-confirm-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    expect(await storedPoolNames(emulator.control)).not.toContain('edge-munich');
  });

  test('a viewer sees the page without actions', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-berlin`));
    await expect(page.getByTestId('pool-detail-summary')).toBeVisible();
    await expect(page.getByTestId('pool-menu-edge-berlin')).toHaveCount(0);
    await expect(page.getByTestId('pool-detail-approve')).toHaveCount(0);
  });

  for (const theme of ['light', 'dark']) {
    test(`has no serious accessibility violations and no sideways scroll at 1024 px (${ theme })`, async({ page }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      await loginAs(page, 'admin');
      if (theme === 'dark') {
        await useDarkTheme(page);
      }
      await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-berlin`));
      await expectTheme(page, theme);
      await expect(page.getByRole('cell', { name: 'edge-berlin-02-node-3' })).toBeVisible({ timeout: 40_000 });
      await expectAccessible(page, '.pool-page');
      await expectAccessible(page, '.pool-page');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    });
  }
});
