// Issue 17: a save never loses what was typed and always says whether anything was written: 401
// keeps a draft restored after the next login; a slow save times out or is cancelled; a conflict
// shows the other writer's change beside the person's; a lost approval race says the pool is
// already at the image. Seeds its channel and pools through the API (support/seed.ts), ends the
// page's session on the server for the 401 and slows the browser's own network for the slow saves
// (support/seed-pools.ts), so it runs on a real Rancher too.

import { Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { dashboardPath, loginAs, loginOnPage } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { useSeed } from './support/seed';
import {
  B39, delayNextRequest, endSession, firstClusterTargets, poolEditPath, seedBaseChannel, seedUpgradablePool
} from './support/seed-pools';
import { TEST_NAMESPACE } from './support/env';

const seed = useSeed();

async function editConcurrency(page: Page, pool: string, value: string): Promise<void> {
  await page.goto(dashboardPath(poolEditPath(pool)));
  await page.getByTestId('btn-rollout').click();
  await page.getByTestId('pool-concurrency').fill(value);
  await expect(page.getByTestId('pool-save-async-button')).toBeEnabled();
}

/** A pool one node at a time on 3.9 (what the demo's edge-munich is; nodes that boot 3.12 never rejoin). */
async function seedPool(name: string): Promise<string> {
  const channel = await seedBaseChannel(seed);

  return seed.pool(name, {
    managedOSVersionName: channel.version(B39), concurrency: 1, clusterTargets: await firstClusterTargets(seed)
  });
}

test.describe('pool save faults', () => {
  test('a save meeting 401 keeps the entries and restores them after logging in again', async({ page }) => {
    const name = await seedPool('e2e-expired');

    await loginAs(page, 'admin');
    await editConcurrency(page, name, '5');
    await endSession(page);
    await page.getByTestId('pool-save-async-button').click();

    await expect(page.getByTestId('pool-save-problem')).toContainText('401');
    await expect(page.getByTestId('pool-save-problem')).toContainText('Nothing was saved');
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('5');
    expect(field(await storedPool(seed, name), 'spec.concurrency')).toBe(1);

    await page.getByTestId('pool-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(new RegExp(`/pools/${ TEST_NAMESPACE }/${ name }`), { timeout: 30_000 });
    await expect(page.getByTestId('pool-draft-restored')).toBeVisible();
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('5');
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    expect(field(await storedPool(seed, name), 'spec.concurrency')).toBe(5);
  });

  test('a conflict shows the other writer\'s change beside this person\'s before saving again', async({ page }) => {
    const name = await seedPool('e2e-conflict');

    await loginAs(page, 'admin');
    await editConcurrency(page, name, '2');
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, TEST_NAMESPACE, name);
    const current = (await api.get(url)).body;

    expect((await api.put(url, { ...current, spec: { ...(current.spec as object), concurrency: 4 } })).status).toBe(200);
    await page.getByTestId('pool-save-async-button').click();

    const row = page.getByTestId('pool-conflict-spec.concurrency');

    await expect(row).toContainText('4');
    await expect(row).toContainText('2');
    await expect(row).toContainText('replaces their value');
    expect(field(await storedPool(seed, name), 'spec.concurrency')).toBe(4);

    // Loading the latest keeps the comparison in view until the person saves.
    await page.getByTestId('pool-load-latest').click();
    await expect(page.getByTestId('pool-conflict-view')).toBeVisible();
  });

  // Issue 30: the other approval may reach the page over the watch before Confirm, or land between
  // the dialog's read and its PUT (a 409): the dialog says "already at" either way.
  for (const order of ['seen over the watch before Confirm', 'written just before the dialog\'s PUT'] as const) {
    test(`a lost approval race says the pool is already at the image (${ order })`, async({ page }) => {
      const name = await seedUpgradablePool(seed, await seedBaseChannel(seed), 'e2e-race');

      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      const row = poolRow(page, name);

      await row.getByTestId('pool-approve').click();
      const dialog = page.getByTestId('approve-dialog');
      const target = String(await dialog.getByTestId('approve-target-name').textContent()).trim();
      const api = sessionApi(page);
      const url = steveUrl(POOL_TYPE, TEST_NAMESPACE, name);
      const approveElsewhere = async() => {
        const current = (await api.get(url)).body;

        expect((await api.put(url, { ...current, spec: { ...(current.spec as object), managedOSVersionName: target } })).status).toBe(200);
      };

      const puts: string[] = [];

      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().endsWith(`/${ name }`)) {
          puts.push(request.url());
        }
      });
      if (order === 'seen over the watch before Confirm') {
        await approveElsewhere();
        // The table behind the dialog shows the other approval: the page has it.
        await expect(row.getByTestId('pool-pin')).toHaveText(target);
      } else {
        await page.route(`**/v1/${ POOL_TYPE }s/${ TEST_NAMESPACE }/${ name }`, async(route) => {
          if (route.request().method() === 'PUT') {
            await approveElsewhere();
          }
          await route.continue();
        });
      }
      await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
      await dialog.getByTestId('approve-confirm-async-button').click();
      await expect(dialog.getByTestId('approve-notice')).toContainText(`already at ${ target }`);
      expect(field(await storedPool(seed, name), 'spec.managedOSVersionName')).toBe(target);
      // Seen first, the other approval leaves the dialog nothing to send; met late, one PUT (its 409).
      expect(puts).toHaveLength(order === 'seen over the watch before Confirm' ? 0 : 1);
    });
  }
});

test.describe('slow pool saves', () => {
  const poolUrl = (name: string) => `/v1/${ POOL_TYPE }s/${ TEST_NAMESPACE }/${ name }`;

  test('a slow save can be cancelled, and says whether anything was written', async({ page }) => {
    const name = await seedPool('e2e-slow');

    await loginAs(page, 'admin');
    await delayNextRequest(page, 'PUT', poolUrl(name), 15_000);
    await editConcurrency(page, name, '2');
    await page.getByTestId('pool-save-async-button').click();
    await page.getByTestId('pool-cancel-save').click();
    await expect(page.getByTestId('pool-save-problem')).toContainText('Saving was cancelled');
    await expect(page.getByTestId('pool-save-problem')).toContainText('the server may still apply');
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('2');
  });

  test('a save without an answer times out with a clear message', async({ page }) => {
    test.setTimeout(180_000);
    const name = await seedPool('e2e-timeout');

    await loginAs(page, 'admin');
    await delayNextRequest(page, 'PUT', poolUrl(name), 45_000);
    await editConcurrency(page, name, '3');
    await page.getByTestId('pool-save-async-button').click();
    await expect(page.getByTestId('pool-save-problem')).toContainText('did not answer within 30 seconds', { timeout: 60_000 });
    await expect(page.getByTestId('pool-concurrency')).toHaveValue('3');
  });
});
