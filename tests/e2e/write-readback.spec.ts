// Issue 25: every failure message reads back before it speaks (a PUT that landed and whose answer
// was lost is said to be written, and Confirm cannot send it twice), and the approval comment,
// the withdrawal reason and the sources template survive a 401 and a new login.

import { Page } from '@playwright/test';
import { field } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs, loginOnPage } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL, BASE_CHANNEL_PAGE, CHANNEL_TYPE, NS, POOL_TYPE, POOLS, SOURCES
} from './support/names';
import { poolRow, storedPool } from './support/pools';

const B39 = 'base-v2.2.0-3.9-os';
const TEMPLATE_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';
const WITHDRAWN = 'os-upgrades.cattle.io/withdrawn';

const emulator = useEmulator();

/** An annotation of a stored object (its key has dots: `field` cannot name it). */
function annotation(object: unknown, key: string): string | undefined {
  return (field(object, 'metadata.annotations') as Record<string, string> | undefined)?.[key];
}

async function withdrawals(): Promise<Record<string, unknown>> {
  return JSON.parse(annotation(await emulator.control.object(CHANNEL_TYPE, BASE_CHANNEL), WITHDRAWN) ?? '{}');
}

async function openWithdraw(page: Page) {
  await page.goto(dashboardPath(BASE_CHANNEL_PAGE));
  await page.getByTestId(`version-withdraw-${ B39 }`).click({ timeout: 30_000 });

  return page.getByTestId('withdraw-dialog');
}

const sourcesRow = (page: Page) => page.getByTestId('channel-sources-sl-micro-6.2-base');

test.describe('a write whose answer was lost is read back', () => {
  test('the sources save says saved when the PUT landed and only its answer was lost', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(sourcesRow(page)).toBeVisible();
    await emulator.control.addFault({
      path: '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/sl-micro-6.2-base', method: 'PUT', afterApply: 'drop', times: 1
    });
    await sourcesRow(page).getByTestId('template-input').fill('/changelog-files/dropped-{name}.updates.log');
    await sourcesRow(page).getByTestId('save-channel-sources').click();

    const status = sourcesRow(page).getByTestId('save-status');

    await expect(status).toHaveAttribute('data-state', 'saved');
    await expect(status).toContainText('The answer was lost; read again, the object holds what you saved');
    expect(annotation(await emulator.control.object(CHANNEL_TYPE, 'sl-micro-6.2-base'), TEMPLATE_ANNOTATION)).toBe('/changelog-files/dropped-{name}.updates.log');
  });

  test('the sources save says nothing was written after a 5xx only once the channel read again shows it', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(sourcesRow(page)).toBeVisible();
    const seeded = annotation(await emulator.control.object(CHANNEL_TYPE, 'sl-micro-6.2-base'), TEMPLATE_ANNOTATION);

    await emulator.control.addFault({
      path: '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/sl-micro-6.2-base', method: 'PUT', status: 503, times: 1
    });
    await sourcesRow(page).getByTestId('template-input').fill('/changelog-files/refused-{name}.updates.log');
    await sourcesRow(page).getByTestId('save-channel-sources').click();
    await expect(sourcesRow(page).getByTestId('save-status')).toContainText('read again, the object holds what was there before: nothing was written');
    expect(annotation(await emulator.control.object(CHANNEL_TYPE, 'sl-micro-6.2-base'), TEMPLATE_ANNOTATION)).toBe(seeded);
  });

  test('the withdraw dialog says the withdrawal is stored after a dropped answer, and Confirm is not left enabled', async({ page }) => {
    await loginAs(page, 'admin');
    const dialog = await openWithdraw(page);

    await emulator.control.addFault({
      path: `/v1/${ CHANNEL_TYPE }s/${ NS }/${ BASE_CHANNEL }`, method: 'PUT', afterApply: 'drop', times: 1
    });
    await dialog.getByTestId('withdraw-text').fill('Breaks the network on Intel NICs');
    await dialog.getByTestId('withdraw-confirm-async-button').click();

    await expect(dialog.getByTestId('withdraw-notice')).toContainText('the channel read again holds the withdrawal: it is stored');
    await expect(dialog.getByTestId('withdraw-confirm-async-button')).toBeDisabled();
    expect(Object.keys(await withdrawals())).toContain(B39);
    await dialog.getByTestId('withdraw-cancel').click();
    await expect(page.getByTestId(`version-${ B39 }`).getByTestId('version-withdrawn')).toBeVisible();
  });
});

test.describe('what was typed survives a 401 and a new login', () => {
  test('the withdrawal reason', async({ page }) => {
    await loginAs(page, 'admin');
    let dialog = await openWithdraw(page);

    await dialog.getByTestId('withdraw-text').fill('Kernel panic on HPE Gen11');
    await emulator.control.expireSessions();
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog.getByTestId('withdraw-notice')).toContainText('401');
    await expect(dialog.getByTestId('withdraw-notice')).toContainText('Your text is kept');
    expect(Object.keys(await withdrawals())).not.toContain(B39);

    await dialog.getByTestId('withdraw-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(new RegExp(`/channels/${ NS }/${ BASE_CHANNEL }`), { timeout: 30_000 });
    await page.getByTestId(`version-withdraw-${ B39 }`).click({ timeout: 30_000 });
    dialog = page.getByTestId('withdraw-dialog');
    await expect(dialog.getByTestId('withdraw-restored')).toBeVisible();
    await expect(dialog.getByTestId('withdraw-text')).toHaveValue('Kernel panic on HPE Gen11');
    await dialog.getByTestId('withdraw-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    expect(await withdrawals()).toMatchObject({ [B39]: { reason: 'Kernel panic on HPE Gen11' } });
  });

  test('the approval comment', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const approve = () => poolRow(page, 'edge-berlin').getByTestId('pool-approve');

    await approve().click();
    let dialog = page.getByTestId('approve-dialog');

    await dialog.getByTestId('approve-comment').fill('Fixes CVE-2026-0001; agreed with the site lead');
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    // The session ends at the write itself: expiring it beforehand lets the shell's own background
    // reads meet 401 first, and the shell then logs out by itself.
    await emulator.control.addFault({
      path: `/v1/${ POOL_TYPE }s/${ NS }/edge-berlin`, method: 'PUT', status: 401, times: 1
    });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-notice')).toContainText('Your comment is kept');

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
    const pool = await storedPool(emulator.control, 'edge-berlin');

    expect(annotation(pool, 'os-upgrades.cattle.io/approval-comment')).toBe('Fixes CVE-2026-0001; agreed with the site lead');
  });

  test('the sources template', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(sourcesRow(page)).toBeVisible();
    await sourcesRow(page).getByTestId('template-input').fill('/changelog-files/kept-{name}.updates.log');
    await emulator.control.expireSessions();
    await sourcesRow(page).getByTestId('save-channel-sources').click();
    await expect(sourcesRow(page).getByTestId('save-status')).toContainText('Your entries are kept');

    await sourcesRow(page).getByTestId('sources-login-again').click();
    await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
    await loginOnPage(page, 'admin');
    await expect(page).toHaveURL(/\/sources$/, { timeout: 30_000 });
    await expect(page.getByTestId('sources-restored')).toBeVisible();
    await expect(sourcesRow(page).getByTestId('template-input')).toHaveValue('/changelog-files/kept-{name}.updates.log');
    await sourcesRow(page).getByTestId('save-channel-sources').click();
    await expect(sourcesRow(page).getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    expect(annotation(await emulator.control.object(CHANNEL_TYPE, 'sl-micro-6.2-base'), TEMPLATE_ANNOTATION)).toBe('/changelog-files/kept-{name}.updates.log');
  });
});
