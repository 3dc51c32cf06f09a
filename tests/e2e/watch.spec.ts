// Changes made through the API reach an open page over the subscribe websocket, without a reload:
// a new channel appears, a changed one is updated in the dashboard's store, a deleted one goes;
// after the websocket drops, the dashboard reconnects and keeps receiving changes.

import { Page } from '@playwright/test';
import { field, sessionApi, steveUrl } from './support/api';
import { TEST_NAMESPACE, onEmulator } from './support/env';
import { EmulatorControl } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, CHANNELS, POOL_TYPE, POOLS } from './support/names';

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

/** The object as the dashboard's store holds it (what the page renders from). */
function inStore(page: Page, id: string, path: string): Promise<unknown> {
  return page.evaluate(({ type, id, path }) => {
    const app = (document.querySelector('#app') as unknown as { __vue_app__?: { config: { globalProperties: { $store: { getters: Record<string, (t: string, i: string) => unknown> } } } } }).__vue_app__;
    let value = app?.config.globalProperties.$store.getters['management/byId'](type, id);

    for (const part of path.split('.')) {
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    }

    return value;
  }, {
    type: CHANNEL_TYPE, id, path
  });
}

test.describe('watches', () => {
  const names: string[] = [];

  test.afterEach(async({ page }) => {
    for (const name of names.splice(0)) {
      await sessionApi(page).delete(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name));
    }
  });

  test('a channel created, changed and deleted through the API updates the open Channels page', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByText('sl-micro-6.1-base').first()).toBeVisible();
    // Marks this document: it would be gone after a reload.
    await page.evaluate(() => {
      (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
    });

    const api = sessionApi(page);
    const name = `e2e-watch-${ Date.now().toString(36) }`;

    names.push(name);
    const created = await api.post(steveUrl(CHANNEL_TYPE), channel(name));

    expect(created.status).toBe(201);
    // The websocket brings it into the dashboard's store; the page must then show it.
    await expect.poll(() => inStore(page, `${ TEST_NAMESPACE }/${ name }`, 'metadata.name')).toBe(name);
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();

    const latest = (await api.get(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name))).body;

    (latest.spec as Record<string, unknown>).syncInterval = '30m';
    expect((await api.put(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name), latest)).status).toBe(200);
    await expect.poll(() => inStore(page, `${ TEST_NAMESPACE }/${ name }`, 'spec.syncInterval')).toBe('30m');

    expect((await api.delete(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, name))).status).toBe(204);
    await expect.poll(() => inStore(page, `${ TEST_NAMESPACE }/${ name }`, 'metadata.name')).toBeUndefined();
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
    const name = `e2e-watch-pool-${ Date.now().toString(36) }`;
    const created = await api.post(steveUrl(POOL_TYPE), {
      type:     POOL_TYPE,
      metadata: { name, namespace: TEST_NAMESPACE },
      spec:     { osImage: 'registry.example.test/e2e/os:1.0', clusterTargets: [{ clusterName: 'e2e-no-such-cluster' }] },
    });

    expect(created.status).toBe(201);
    try {
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    } finally {
      expect((await api.delete(steveUrl(POOL_TYPE, TEST_NAMESPACE, name))).status).toBe(204);
    }
    await expect(page.getByText(name, { exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  });

  test('after the websocket drops, the page reconnects and receives changes again', async({ page }) => {
    test.skip(!onEmulator(), 'needs the emulator to drop the websocket');
    const control = await EmulatorControl.connect();
    const api = sessionApi(page);
    const name = `e2e-reconnect-${ Date.now().toString(36) }`;

    try {
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(POOLS));
      await expect(page.getByText('edge-munich', { exact: true }).first()).toBeVisible();
      const reconnected = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/subscribe'), timeout: 60_000 });

      expect(await control.dropWebsockets()).toBeGreaterThan(0);
      await reconnected;

      const created = await api.post(steveUrl(POOL_TYPE), {
        type:     POOL_TYPE,
        metadata: { name, namespace: TEST_NAMESPACE },
        spec:     { osImage: 'registry.example.test/e2e/os:1.0', clusterTargets: [{ clusterName: 'e2e-no-such-cluster' }] },
      });

      expect(field(created.body, 'metadata.name')).toBe(name);
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
    } finally {
      await api.delete(steveUrl(POOL_TYPE, TEST_NAMESPACE, name));
      await control.dispose();
    }
  });
});
