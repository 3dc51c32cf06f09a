// Changes made through the API reach an open page over the subscribe websocket, without a reload:
// a new channel appears, a changed one shows its change, a deleted one goes;
// after the websocket drops (emulator only, @emulator: no real Rancher drops it on demand), the
// dashboard reconnects and keeps receiving changes. The objects are written through the API under
// names unique to the run and deleted after each test (support/seed.ts), so it runs on a real Rancher too.

import { field, sessionApi, steveUrl } from './support/api';
import { TEST_NAMESPACE } from './support/env';
import { EMULATOR_TAG, EmulatorControl, requireEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS, POOL_TYPE, POOLS } from './support/names';
import { uniqueName, useSeed } from './support/seed';
import { channelRow } from './support/channels';

function channel(name: string): Record<string, unknown> {
  return {
    type:     CHANNEL_TYPE,
    metadata: { name, namespace: TEST_NAMESPACE },
    // Disabled: the operator leaves it alone (no versions are synced from it).
    spec:     {
      type: 'json', enabled: false, options: { uri: 'https://channels.example.test/e2e.json' }
    },
  };
}

const seed = useSeed();

/** A pool on no cluster, for the lists to show. */
function pool(name: string): Record<string, unknown> {
  return {
    type:     POOL_TYPE,
    metadata: { name, namespace: TEST_NAMESPACE },
    spec:     { osImage: 'registry.example.test/e2e/os:1.0', clusterTargets: [{ clusterName: 'e2e-no-such-cluster' }] },
  };
}

test.describe('watches', () => {
  test('a channel created, changed and deleted through the API updates the open Channels page', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    // The page has loaded its list (empty or not) and subscribed.
    await expect(page.getByTestId('channels-table').or(page.getByTestId('no-channels'))).toBeVisible();
    // Marks this document: it would be gone after a reload.
    await page.evaluate(() => {
      (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
    });

    const api = sessionApi(page);
    const name = uniqueName('e2e-watch');

    seed.track(CHANNEL_TYPE, name);
    const created = await api.post(steveUrl(CHANNEL_TYPE), channel(name));

    expect(created.status).toBe(201);
    // The websocket brings the change; the page reads its channel list again and shows it.
    const row = channelRow(page, name);

    await expect(row).toBeVisible();

    const latest = (await api.get(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name))).body;

    (latest.spec as Record<string, unknown>).syncInterval = '30m';
    expect((await api.put(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name), latest)).status).toBe(200);
    await expect(row).toContainText('30m');

    expect((await api.delete(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name))).status).toBe(204);
    await expect(row).toHaveCount(0);
    await expect(page.getByText(name, { exact: true })).toHaveCount(0);

    expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  });

  test('a pool created and deleted through the API appears on and leaves the open Workload pools page', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
    });
    const api = sessionApi(page);
    const name = uniqueName('e2e-watch-pool');

    seed.track(POOL_TYPE, name);
    expect((await api.post(steveUrl(POOL_TYPE), pool(name))).status).toBe(201);
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    expect((await api.delete(steveUrl(POOL_TYPE, TEST_NAMESPACE, name))).status).toBe(204);
    await expect(page.getByText(name, { exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  });

  test('after the websocket drops, the page reconnects and receives changes again', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('websocket drops');
    const control = await EmulatorControl.connect();
    const api = sessionApi(page);
    const name = uniqueName('e2e-reconnect');

    seed.track(POOL_TYPE, name);
    try {
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      await expect(page.getByTestId('pools-table')).toBeVisible();
      const reconnected = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/subscribe'), timeout: 60_000 });

      expect(await control.dropWebsockets()).toBeGreaterThan(0);
      await reconnected;

      const created = await api.post(steveUrl(POOL_TYPE), pool(name));

      expect(field(created.body, 'metadata.name')).toBe(name);
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
    } finally {
      await control.dispose();
    }
  });
});
