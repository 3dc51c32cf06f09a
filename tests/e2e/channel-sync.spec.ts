// A channel sync as the Elemental operator runs it (rancher/elemental-operator
// controllers/managedosversionchannel_controller.go): Ready=False Synchronizing ("started
// synchronization pod", then "ongoing channel synchronization") for as long as the syncer pod
// runs, then the versions and Ready=True. The emulator runs it through the same states, ten
// times faster (playwright.config.ts, EMULATOR_TIME_SCALE). And a version published while the
// shell was not watching (Rancher's SQL cache starts a watch without revision from "now") or while
// its websocket was down still reaches the page. The channels are published through the API
// (support/seed.ts), so all but the websocket drop (@emulator) run on a real Rancher too.

import { Page } from '@playwright/test';
import { field, sessionApi } from './support/api';
import { EMULATOR_TAG, EmulatorControl, requireEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNELS, VERSION_TYPE } from './support/names';
import { channelRow, containerEntry } from './support/channels';
import { SeededChannel, useSeed } from './support/seed';
import { channelPage } from './support/seed-channels';

const PREFIX = 'e2e-chsync';

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

const seed = useSeed();

test.describe('channel syncs on the pages', () => {
  let channel: SeededChannel;

  test.beforeEach(async({ page }) => {
    channel = await seed.channel({ name: PREFIX, entries: [containerEntry(PREFIX, 1)] });
    await loginAs(page, 'admin');
  });

  test('a sync shows "Synchronizing" for its whole duration, then the new version', async({ page }) => {
    await page.goto(dashboardPath(CHANNELS));
    const row = channelRow(page, channel.name);

    await expect(row).toContainText('Synced');
    await expect(row.getByTestId('channel-count')).toHaveText('1');
    await recordRow(page, channel.name);

    const sync = seed.publish(channel, [containerEntry(PREFIX, 2), containerEntry(PREFIX, 1)]);

    await expect(row).toContainText('Synchronizing');
    await sync;
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

  test('a version published while the shell was not watching (SQL cache) reaches the page', async({ page }) => {
    const feature = (await sessionApi(page).get('/v1/management.cattle.io.features/ui-sql-cache')).body;

    // The case arises with Rancher's SQL cache; without it the page must show the version all the same.
    test.info().annotations.push({ type: 'ui-sql-cache', description: String(field(feature, 'spec.value') ?? field(feature, 'status.default')) });
    await page.goto(dashboardPath(CHANNELS));
    await expect(channelRow(page, channel.name).getByTestId('channel-count')).toHaveText('1');

    // The shell stops the versions watch (as its own list pages do when left): a later findAll
    // of the cached type only re-watches without revision, which the SQL cache starts from now.
    await unwatch(page, VERSION_TYPE);
    await seed.publish(channel, [containerEntry(PREFIX, 2), containerEntry(PREFIX, 1)]);

    await page.getByRole('link', { name: channel.name, exact: true }).click();
    await expect(page.getByText('v1.0.2').first()).toBeVisible();
  });

  test('a version published while the websocket was down reaches the page after the reconnect', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('websocket drops');
    const control = await EmulatorControl.connect();

    try {
      await page.goto(dashboardPath(channelPage(channel)));
      await expect(page.getByText('v1.0.1').first()).toBeVisible();
      const reconnected = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/subscribe'), timeout: 60_000 });

      expect(await control.dropWebsockets()).toBeGreaterThan(0);
      await seed.publish(channel, [containerEntry(PREFIX, 2), containerEntry(PREFIX, 1)]);
      await reconnected;
      await expect(page.getByText('v1.0.2').first()).toBeVisible({ timeout: 30_000 });
    } finally {
      await control.dispose();
    }
  });
});

/** Stops the shell's watch of a type, as its list pages do when left. */
async function unwatch(page: Page, type: string): Promise<void> {
  await page.evaluate((watched) => {
    const app = (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $store: { dispatch(action: string, payload: unknown): Promise<unknown> } } } } }).__vue_app__;

    return app.config.globalProperties.$store.dispatch('management/unwatch', { type: watched });
  }, type);
}
