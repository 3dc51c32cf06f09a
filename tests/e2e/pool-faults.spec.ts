// Issue 17: a save never loses what was typed and always says whether anything was written: 401
// keeps a draft restored after the next login; a slow save times out or is cancelled; a conflict
// shows the other writer's change beside the person's; a lost approval race says the pool is
// already at the image.

import { Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs, loginOnPage } from './support/login';
import { expect, test } from './support/test';
import { NS, POOL_TYPE, POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';

const POOL_PATH = `/v1/${ POOL_TYPE }s/${ NS }/edge-munich`;

const emulator = useEmulator();

async function editConcurrency(page: Page, value: string): Promise<void> {
  await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-munich/edit`));
  await page.getByTestId('btn-rollout').click();
  await page.getByTestId('pool-concurrency').fill(value);
  await expect(page.getByTestId('pool-save-async-button')).toBeEnabled();
}

test.describe('pool save faults', () => {
  test('a save meeting 401 keeps the entries and restores them after logging in again', async({ page }) => {
    await loginAs(page, 'admin');
    await editConcurrency(page, '5');
    await emulator.control.expireSessions();
    await page.getByTestId('pool-save-async-button').click();

    await expect(page.getByTestId('pool-save-problem')).toContainText('401');
    await expect(page.getByTestId('pool-save-problem')).toContainText('Nothing was saved');
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('5');
    expect(field(await storedPool(emulator.control, 'edge-munich'), 'spec.concurrency')).toBe(1);

    await page.getByTestId('pool-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(/\/pools\/fleet-default\/edge-munich/, { timeout: 30_000 });
    await expect(page.getByTestId('pool-draft-restored')).toBeVisible();
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('5');
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    expect(field(await storedPool(emulator.control, 'edge-munich'), 'spec.concurrency')).toBe(5);
  });

  test('a slow save can be cancelled, and says whether anything was written', async({ page }) => {
    await loginAs(page, 'admin');
    await emulator.control.addFault({
      path: POOL_PATH, method: 'PUT', latencyMs: 15_000, times: 1
    });
    await editConcurrency(page, '2');
    await page.getByTestId('pool-save-async-button').click();
    await page.getByTestId('pool-cancel-save').click();
    await expect(page.getByTestId('pool-save-problem')).toContainText('Saving was cancelled');
    await expect(page.getByTestId('pool-save-problem')).toContainText('the server may still apply');
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('2');
  });

  test('a save without an answer times out with a clear message', async({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, 'admin');
    await emulator.control.addFault({
      path: POOL_PATH, method: 'PUT', latencyMs: 45_000, times: 1
    });
    await editConcurrency(page, '3');
    await page.getByTestId('pool-save-async-button').click();
    await expect(page.getByTestId('pool-save-problem')).toContainText('did not answer within 30 seconds', { timeout: 60_000 });
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('3');
  });

  test('a conflict shows the other writer\'s change beside this person\'s before saving again', async({ page }) => {
    await loginAs(page, 'admin');
    await editConcurrency(page, '2');
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, NS, 'edge-munich');
    const current = (await api.get(url)).body;

    expect((await api.put(url, { ...current, spec: { ...(current.spec as object), concurrency: 4 } })).status).toBe(200);
    await page.getByTestId('pool-save-async-button').click();

    const row = page.getByTestId('pool-conflict-spec.concurrency');

    await expect(row).toContainText('4');
    await expect(row).toContainText('2');
    await expect(row).toContainText('replaces their value');
    expect(field(await storedPool(emulator.control, 'edge-munich'), 'spec.concurrency')).toBe(4);

    // Loading the latest keeps the comparison in view until the person saves.
    await page.getByTestId('pool-load-latest').click();
    await expect(page.getByTestId('pool-conflict-view')).toBeVisible();
  });

  test('a lost approval race says the pool is already at the image', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, 'edge-berlin');

    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');
    const target = await dialog.getByTestId('approve-target-name').textContent();
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, NS, 'edge-berlin');
    const current = (await api.get(url)).body;

    expect((await api.put(url, { ...current, spec: { ...(current.spec as object), managedOSVersionName: target } })).status).toBe(200);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-notice')).toContainText(`already at ${ target }`);
  });
});
