// Issue 17: the approve dialog says what approving does to machines before the details (issue 24:
// with the default the operator applies beside each value the pool leaves out), stores an
// optional comment with the approval, shows approved-at as the time of the click, and gives focus
// back to the pool's row menu when it closes.

import { field } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';

const emulator = useEmulator();

test.describe('approve dialog', () => {
  test('opens on its title, and Tab reaches every control in order', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');

    await row.getByTestId('pool-approve').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByRole('heading', { level: 2, name: /edge-berlin/ })).toBeFocused();
    await expect(dialog.getByTestId('spec-yaml-diff')).toBeVisible();
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });

    // Tab from the title until the focus comes round again (the dialog traps it): every control is on the way.
    const reached: string[] = [];

    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      // The test id of the control or the part it is in; null once an element comes round again.
      const id = await page.evaluate(() => {
        const active = document.activeElement;

        if (!active || active.hasAttribute('data-tab-seen')) {
          return null;
        }
        active.setAttribute('data-tab-seen', '');

        return active.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
      });

      if (id === null) {
        break;
      }
      reached.push(id);
    }
    const order = ['spec-yaml-diff', 'approve-comment', 'approve-cancel', 'approve-confirm-async-button'].map((id) => reached.indexOf(id));

    expect(order, reached.join(', ')).not.toContain(-1);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('shows the impact, stores the comment, and returns focus to the row menu', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');

    await row.getByTestId('pool-approve').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('approve-dialog');
    const impact = dialog.getByTestId('approve-impact');

    // edge-berlin targets the group berlin: two clusters of three nodes each (tests/fixtures/clusters/seed/fleet.yaml).
    await expect(impact.getByTestId('approve-impact-clusters')).toContainText('2 clusters: edge-berlin-01 (3 nodes), edge-berlin-02 (3 nodes)');
    await expect(impact.getByTestId('approve-impact-nodes')).toContainText('Up to 6 nodes');
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('force');
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('deletes local data');
    await expect(impact.getByTestId('approve-impact-reboot')).toContainText('reboots');
    await expect(impact.getByTestId('approve-impact-concurrency')).toContainText('One node at a time');
    // edge-berlin sets neither cordon, drain nor concurrency: each value is the default the operator
    // (or the CRD) applies, named beside it (elemental-operator controllers/managedosimage_controller.go).
    await expect(impact.getByTestId('approve-impact-cordon')).toContainText('Each node is cordoned');
    await expect(impact.getByTestId('approve-impact-cordon-source')).toHaveText('Default of the Elemental operator: the pool does not set cordon.');
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('skips pods still being deleted after 60 s');
    await expect(impact.getByTestId('approve-impact-drain-source')).toContainText('Default of the ManagedOSImage definition (CRD)');
    await expect(impact.getByTestId('approve-impact-concurrency-source')).toHaveText('Default of the Elemental operator: the pool does not set concurrency.');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('(the time you approve)');

    await dialog.getByTestId('approve-comment').fill('Fixes CVE-2026-0001; agreed with the site lead');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('approval-comment');
    const before = Date.now();

    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);

    const pool = await storedPool(emulator.control, 'edge-berlin');
    const annotations = field(pool, 'metadata.annotations') as Record<string, string>;

    expect(annotations['os-upgrades.cattle.io/approval-comment']).toBe('Fixes CVE-2026-0001; agreed with the site lead');
    expect(Date.parse(annotations['os-upgrades.cattle.io/approved-at'])).toBeGreaterThanOrEqual(before - 1000);
    await expect(page.getByTestId('pool-menu-edge-berlin')).toBeFocused();
  });
});
