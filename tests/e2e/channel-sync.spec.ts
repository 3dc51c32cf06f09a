// A channel sync as the Elemental operator runs it (rancher/elemental-operator
// controllers/managedosversionchannel_controller.go): Ready=False Synchronizing ("started
// synchronization pod", then "ongoing channel synchronization") for as long as the syncer pod
// runs, then the versions and Ready=True. The emulator runs it through the same states, ten
// times faster (playwright.config.ts, EMULATOR_TIME_SCALE). And a version published while the
// shell was not watching (Rancher's SQL cache starts a watch without revision from "now") still
// reaches the page.

import { Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS, NS, VERSION_TYPE } from './support/names';
import { containerEntry } from './support/channels';

/** Records every text the channel's row shows, from now on. */
async function recordRow(page: Page, name: string): Promise<void> {
  await page.evaluate((channel) => {
    const seen: string[] = [];
    const record = () => {
      const row = [...document.querySelectorAll('tr')].find((tr) => [...tr.querySelectorAll('a')].some((a) => a.textContent?.trim() === channel));
      // The row's text and its count of versions (the list reads counts, not versions).
      const count = row?.querySelector('[data-testid="channel-count"]')?.textContent?.trim();
      const text = row ? `${ (row as HTMLElement).innerText }\ncount=${ count ?? '' }` : '';

      if (text && seen[seen.length - 1] !== text) {
        seen.push(text);
      }
    };

    (window as unknown as { e2eRowTexts: string[] }).e2eRowTexts = seen;
    record();
    new MutationObserver(record).observe(document.body, {
      subtree: true, childList: true, characterData: true
    });
  }, name);
}

const emulator = useEmulator();

test.describe('channel syncs on the pages', () => {
  let channel = '';

  test.beforeEach(() => {
    channel = `e2e-chsync-${ Date.now().toString(36) }`;
  });

  test.afterEach(async({ page }) => {
    await sessionApi(page).delete(steveUrl(CHANNEL_TYPE, NS, channel));
  });

  test('a sync shows "Synchronizing" for its whole duration, then the new version', async({ page }) => {
    await loginAs(page, 'admin');
    await emulator.control.publishChannel(channel, [containerEntry(channel, 1)]);
    await page.goto(dashboardPath(CHANNELS));
    const row = page.locator('tr', { has: page.getByRole('link', { name: channel, exact: true }) });

    await expect(row).toContainText('Synced');
    await expect(row.getByTestId('channel-count')).toHaveText('1');
    await recordRow(page, channel);

    const sync = emulator.control.publishChannel(channel, [containerEntry(channel, 2), containerEntry(channel, 1)]);

    await expect(row).toContainText('Synchronizing');
    expect((await sync).ok).toBe(true);
    await expect(row.getByTestId('channel-count')).toHaveText('2');
    await expect(row).toContainText('Synced');
    const texts = await page.evaluate(() => (window as unknown as { e2eRowTexts: string[] }).e2eRowTexts);
    const start = texts.findIndex((text) => text.includes('Synchronizing'));
    const end = texts.findIndex((text, i) => i > start && !text.includes('Synchronizing'));

    expect(start).toBeGreaterThan(0);
    // From the start of the sync until the versions are there: "Synchronizing", never a failure.
    expect(texts.slice(start, end).every((text) => text.includes('Synchronizing') && text.includes('count=1'))).toBe(true);
    expect(texts.some((text) => text.includes('Not synced') || text.includes('failed attempt'))).toBe(false);
    expect(texts.slice(end).some((text) => text.includes('count=2') && text.includes('Synced'))).toBe(true);
    expect(texts[end]).toContain('Synced');
  });

  test('a version published while the shell was not watching (SQL cache) or was disconnected reaches the page', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const feature = (await api.get('/v1/management.cattle.io.features/ui-sql-cache')).body;

    expect(field(feature, 'spec.value') ?? field(feature, 'status.default')).toBe(true);
    await emulator.control.publishChannel(channel, [containerEntry(channel, 1)]);
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.locator('tr', { has: page.getByRole('link', { name: channel, exact: true }) }).getByTestId('channel-count')).toHaveText('1');

    // The shell stops the versions watch (as its own list pages do when left): a later findAll
    // of the cached type only re-watches without revision, which the SQL cache starts from now.
    await page.evaluate((type) => {
      const app = (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $store: { dispatch(action: string, payload: unknown): Promise<unknown> } } } } }).__vue_app__;

      return app.config.globalProperties.$store.dispatch('management/unwatch', { type });
    }, VERSION_TYPE);
    expect((await emulator.control.publishChannel(channel, [containerEntry(channel, 2), containerEntry(channel, 1)])).ok).toBe(true);

    await page.getByRole('link', { name: channel, exact: true }).click();
    await expect(page.getByText('v1.0.2').first()).toBeVisible();

    // The websocket drops while a newer version is published: after the reconnect it is shown.
    const reconnected = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/subscribe'), timeout: 60_000 });

    expect(await emulator.control.dropWebsockets()).toBeGreaterThan(0);
    expect((await emulator.control.publishChannel(channel, [containerEntry(channel, 3), containerEntry(channel, 2), containerEntry(channel, 1)])).ok).toBe(true);
    await reconnected;
    await expect(page.getByText('v1.0.3').first()).toBeVisible({ timeout: 30_000 });
  });
});
