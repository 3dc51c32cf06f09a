// The dashboard boots, admin and viewer log in, OS Upgrades shows a channel the test published
// (through the API, support/seed.ts: it runs on a real Rancher too), logout ends the session. On the
// emulator only (@emulator): its seed's channels, and an expired session sending the dashboard back
// to the login page (no real Rancher expires a session on demand).

import { sessionApi, steveUrl } from './support/api';
import { EMULATOR_TAG, EmulatorControl, requireEmulator } from './support/emulator';
import {
  dashboardPath, isLoginPage, loginAs, loginOnPage, logout
} from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS } from './support/names';
import { channelRow } from './support/channels';
import { useSeed } from './support/seed';

const seed = useSeed();

test.describe('boot and login', () => {
  test('admin logs in on the login page, opens OS Upgrades from the menu and sees a published channel', async({ page, problems }) => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.2-base' });

    await loginOnPage(page, 'admin');
    await expect(page.getByTestId('top-level-menu')).toBeVisible();

    await page.getByTestId('top-level-menu').click();
    await page.getByRole('link', { name: 'OS Upgrades' }).first().click();
    // The product opens on its fleet overview (issue 18); the channels are one click away.
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/fleet/);
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/channels/);

    // Its row, with the two images the operator synced from its file.
    await expect(channelRow(page, channel.name).getByTestId('channel-count')).toHaveText('2');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.serverErrors).toEqual([]);
  });

  test('the emulator seeds the real channels and the scale channel', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('the emulator\'s seed');
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    for (const name of ['sl-micro-6.1-base', 'sl-micro-6.2-base', 'unstable', 'hostile', 'sl-micro-6.1-scale']) {
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    }
  });

  test('viewer logs in and reads channels, with read-only schemas', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

    const schema = await sessionApi(page).get(`/v1/schemas/${ CHANNEL_TYPE }`);

    expect(schema.status).toBe(200);
    expect(schema.body.resourceMethods).toEqual(['GET']);
    expect(schema.body.collectionMethods).toEqual(['GET']);
  });

  test('logout ends the session', async({ page }) => {
    await loginAs(page, 'admin');
    await logout(page);
    const after = await page.request.get(steveUrl(CHANNEL_TYPE), { failOnStatusCode: false });

    expect(after.status()).toBe(401);
  });

  test('an expired session answers 401 and the dashboard goes back to login', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('session expiry');
    const control = await EmulatorControl.connect();

    try {
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(CHANNELS));
      await expect(page.getByText('sl-micro-6.1-base').first()).toBeVisible();

      expect(await control.expireSessions('admin')).toBeGreaterThan(0);
      expect((await page.request.get(steveUrl(CHANNEL_TYPE), { failOnStatusCode: false })).status()).toBe(401);

      // The next request the page makes (opening another page of the product) gets the 401.
      await page.getByRole('link', { name: 'Workload pools' }).first().click();
      await expect.poll(() => isLoginPage(page), { timeout: 30_000 }).toBe(true);
      await expect(page.locator('input[data-testid="local-login-username"], [data-testid="local-login-username"] input').first()).toBeVisible();
    } finally {
      await control.dispose();
    }
  });
});
