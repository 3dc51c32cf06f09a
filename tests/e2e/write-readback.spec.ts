// Issue 25: every failure message reads back before it speaks (a PUT that landed and whose answer
// was lost is said to be written, and Confirm cannot send it twice), and the approval comment,
// the withdrawal reason and the sources template survive a 401 and a new login. Seeds its channels
// and pools through the API (support/seed.ts), so it runs on a real Rancher too: the 401s are real
// (the page's session is ended on the server), a lost answer and a proxy's 503 are faults of the
// browser's own network (support/seed-pools.ts).

import { Page } from '@playwright/test';
import { dashboardPath, loginAs, loginOnPage } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, POOL_TYPE, POOLS, SOURCES } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { SeededChannel, useSeed } from './support/seed';
import {
  annotation, B39, endSession, loseNextAnswer, proxyUnavailableNext, seedBaseChannel, seedUpgradablePool, WITHDRAWN_ANNOTATION
} from './support/seed-pools';
import { channelPage } from './support/seed-channels';
import { TEST_NAMESPACE } from './support/env';

const TEMPLATE_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';

const seed = useSeed();

const sourcesRow = (page: Page, channel: string) => page.getByTestId(`channel-sources-${ channel }`);

async function withdrawals(channel: SeededChannel): Promise<Record<string, unknown>> {
  return JSON.parse(annotation(await seed.get(CHANNEL_TYPE, channel.name, channel.namespace), WITHDRAWN_ANNOTATION) ?? '{}');
}

async function openWithdraw(page: Page, channel: SeededChannel) {
  await page.goto(dashboardPath(channelPage(channel)));
  await page.getByTestId(`version-withdraw-${ channel.version(B39) }`).click({ timeout: 30_000 });

  return page.getByTestId('withdraw-dialog');
}

test.describe('a write whose answer was lost is read back', () => {
  const channelUrl = (channel: SeededChannel) => `/v1/${ CHANNEL_TYPE }s/${ channel.namespace }/${ channel.name }`;

  async function template(channel: SeededChannel): Promise<string | undefined> {
    return annotation(await seed.get(CHANNEL_TYPE, channel.name, channel.namespace), TEMPLATE_ANNOTATION);
  }

  test('the sources save says saved when the PUT landed and only its answer was lost', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const row = sourcesRow(page, channel.name);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(row).toBeVisible();
    await loseNextAnswer(page, 'PUT', channelUrl(channel));
    await row.getByTestId('template-input').fill('/changelog-files/dropped-{name}.updates.log');
    await row.getByTestId('save-channel-sources').click();

    const status = row.getByTestId('save-status');

    await expect(status).toHaveAttribute('data-state', 'saved');
    await expect(status).toContainText('The answer was lost; read again, the object holds what you saved');
    expect(await template(channel)).toBe('/changelog-files/dropped-{name}.updates.log');
  });

  test('the sources save says nothing was written after a 5xx only once the channel read again shows it', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const row = sourcesRow(page, channel.name);
    const seeded = await template(channel);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(row).toBeVisible();
    await proxyUnavailableNext(page, 'PUT', channelUrl(channel));
    await row.getByTestId('template-input').fill('/changelog-files/refused-{name}.updates.log');
    await row.getByTestId('save-channel-sources').click();
    await expect(row.getByTestId('save-status')).toContainText('read again, the object holds what was there before: nothing was written');
    expect(await template(channel)).toBe(seeded);
  });

  test('the withdraw dialog says the withdrawal is stored after a dropped answer, and Confirm is not left enabled', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const b39 = channel.version(B39);

    await loginAs(page, 'admin');
    const dialog = await openWithdraw(page, channel);

    await loseNextAnswer(page, 'PUT', channelUrl(channel));
    await dialog.getByTestId('withdraw-text').fill('Breaks the network on Intel NICs');
    await dialog.getByTestId('withdraw-confirm-async-button').click();

    await expect(dialog.getByTestId('withdraw-notice')).toContainText('the channel read again holds the withdrawal: it is stored');
    await expect(dialog.getByTestId('withdraw-confirm-async-button')).toBeDisabled();
    expect(Object.keys(await withdrawals(channel))).toContain(b39);
    await dialog.getByTestId('withdraw-cancel').click();
    await expect(page.getByTestId(`version-${ b39 }`).getByTestId('version-withdrawn')).toBeVisible();
  });
});

test.describe('what was typed survives a 401 and a new login', () => {
  test('the withdrawal reason', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const b39 = channel.version(B39);

    await loginAs(page, 'admin');
    let dialog = await openWithdraw(page, channel);

    await dialog.getByTestId('withdraw-text').fill('Kernel panic on HPE Gen11');
    await endSession(page);
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog.getByTestId('withdraw-notice')).toContainText('401');
    await expect(dialog.getByTestId('withdraw-notice')).toContainText('Your text is kept');
    expect(Object.keys(await withdrawals(channel))).not.toContain(b39);

    await dialog.getByTestId('withdraw-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(new RegExp(`/channels/${ channel.namespace }/${ channel.name }`), { timeout: 30_000 });
    await page.getByTestId(`version-withdraw-${ b39 }`).click({ timeout: 30_000 });
    dialog = page.getByTestId('withdraw-dialog');
    await expect(dialog.getByTestId('withdraw-restored')).toBeVisible();
    await expect(dialog.getByTestId('withdraw-text')).toHaveValue('Kernel panic on HPE Gen11');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(await withdrawals(channel)).toMatchObject({ [b39]: { reason: 'Kernel panic on HPE Gen11' } });
  });

  test('the approval comment', async({ page }) => {
    const name = await seedUpgradablePool(seed, await seedBaseChannel(seed), 'e2e-comment');

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const approve = () => poolRow(page, name).getByTestId('pool-approve');

    await approve().click();
    let dialog = page.getByTestId('approve-dialog');

    await dialog.getByTestId('approve-comment').fill('Fixes CVE-2026-0001; agreed with the site lead');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    // The session ends at the write itself: ended beforehand, the shell's own background reads meet
    // 401 first and the shell logs out by itself. So the write waits until the server ended it.
    await page.route(`**/v1/${ POOL_TYPE }s/${ TEST_NAMESPACE }/${ name }`, async(route) => {
      if (route.request().method() !== 'PUT') {
        return route.fallback();
      }
      await page.unroute(`**/v1/${ POOL_TYPE }s/${ TEST_NAMESPACE }/${ name }`);
      await endSession(page);

      return route.continue();
    });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-notice')).toContainText('Your comment is kept');
    expect(annotation(await storedPool(seed, name), 'os-upgrades.cattle.io/approval-comment')).toBeUndefined();

    await dialog.getByTestId('approve-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(/\/pools$/, { timeout: 30_000 });
    await approve().click();
    dialog = page.getByTestId('approve-dialog');
    await expect(dialog.getByTestId('approve-restored')).toBeVisible();
    await expect(dialog.getByTestId('approve-comment')).toHaveValue('Fixes CVE-2026-0001; agreed with the site lead');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const pool = await storedPool(seed, name);

    expect(annotation(pool, 'os-upgrades.cattle.io/approval-comment')).toBe('Fixes CVE-2026-0001; agreed with the site lead');
  });

  test('the sources template', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const row = sourcesRow(page, channel.name);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(row).toBeVisible();
    await row.getByTestId('template-input').fill('/changelog-files/kept-{name}.updates.log');
    await endSession(page);
    await row.getByTestId('save-channel-sources').click();
    await expect(row.getByTestId('save-status')).toContainText('Your entries are kept');

    await row.getByTestId('sources-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(/\/sources$/, { timeout: 30_000 });
    await expect(page.getByTestId('sources-restored')).toBeVisible();
    await expect(row.getByTestId('template-input')).toHaveValue('/changelog-files/kept-{name}.updates.log');
    await row.getByTestId('save-channel-sources').click();
    await expect(row.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    expect(annotation(await seed.get(CHANNEL_TYPE, channel.name, channel.namespace), TEMPLATE_ANNOTATION)).toBe('/changelog-files/kept-{name}.updates.log');
  });
});
