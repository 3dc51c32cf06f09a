// Issue 17: the pools list as Rancher lists are: a ⋮ row menu with the pool's actions, Delete
// (single and bulk) through the shell's confirm dialog.

import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOLS } from './support/names';
import { storedPoolNames } from './support/pools';

const emulator = useEmulator();

test.describe('pools list conventions', () => {
  test('the row menu offers the pool\'s actions and deletes after the shell\'s confirmation', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));

    await page.getByTestId('pool-menu-edge-berlin').click();
    for (const label of ['Approve upgrade', 'Edit config', 'Edit YAML', 'Delete']) {
      await expect(page.getByRole('menuitem', { name: label })).toBeVisible();
    }
    await page.keyboard.press('Escape');

    await page.getByTestId('pool-menu-edge-munich').click();
    await page.getByRole('menuitem', { name: 'Edit YAML' }).click();
    await expect(page).toHaveURL(/\/pools\/fleet-default\/edge-munich\/edit\?as=yaml/);
    await expect(page.getByTestId('pool-yaml')).toBeVisible();
    await page.goBack();

    await page.getByTestId('pool-menu-edge-munich').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const prompt = page.getByTestId('prompt-remove-confirm-button');

    await expect(page.getByText('edge-munich').last()).toBeVisible();
    expect(await storedPoolNames(emulator.control)).toContain('edge-munich');
    await prompt.click();
    await expect(page.getByTestId('pools-table').getByRole('link', { name: 'edge-munich', exact: true })).toHaveCount(0);
    expect(await storedPoolNames(emulator.control)).not.toContain('edge-munich');
  });

  test('a viewer gets no row menu', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(POOLS));
    await expect(page.getByTestId('pools-table')).toBeVisible();
    await expect(page.getByTestId('pool-menu-edge-berlin')).toHaveCount(0);
  });
});
