// The emulator's own endpoints: changelog files on its file host and the operator's answer, injected faults,
// ManagedOSImage rollout progress, reset. Emulator only.

import { field, records, sessionApi, steveUrl } from './support/api';
import { EmulatorControl, requireEmulator } from './support/emulator';
import { loginAs } from './support/login';
import { expect, test } from './support/test';
import { NS, POOL_TYPE } from './support/names';

test.describe('emulator endpoints', () => {
  let control: EmulatorControl;

  test.beforeEach(async() => {
    requireEmulator();
    control = await EmulatorControl.connect();
  });

  test.afterEach(async() => {
    await control?.clearFaults();
    await control?.dispose();
  });

  test('serves changelogs and package lists from its file host, 404 for a version without; /elemental/changelog answers as today\'s operator', async({ page }) => {
    await loginAs(page, 'admin');
    const log = await page.request.get('/changelog-files/base-v2.2.0-3.8-os.updates.log');

    expect(log.status()).toBe(200);
    const advisories = JSON.parse(await log.text()) as { id: string }[];

    expect(advisories.map((a) => a.id)).toContain('SUSE-SLE-Micro-6.1-2024-112');

    const packages = await page.request.get('/changelog-files/base-v2.2.0-3.8-os.packages');

    expect(packages.status()).toBe(200);
    expect(await packages.text()).toMatch(/^[^|\n]+\|[^|]*\|[^|]+\|[^|]+\|[^|]+\|/m);

    const missing = await page.request.get('/changelog-files/base-v2.2.0-3.9-os.updates.log', { failOnStatusCode: false });

    expect(missing.status()).toBe(404);

    const scale = await page.request.get('/changelog-files/scale-v2.2.0-7.1-os.updates.log');

    expect(scale.status()).toBe(200);

    // rancher/elemental-operator pkg/server/server.go: any API but registration and seedimage.
    const operator = await page.request.get('/elemental/changelog/base-v2.2.0-3.8-os/base-v2.2.0-3.8-os.updates.log', { failOnStatusCode: false });

    expect(operator.status()).toBe(400);
    expect(await operator.text()).toBe('unknwon api: changelog\n');
  });

  test('injects latency, a status, a malformed and an oversized body, N times', async({ page }) => {
    await loginAs(page, 'admin');
    const path = '/changelog-files/base-v2.2.0-3.8-os.updates.log';

    await control.addFault({
      path, status: 503, times: 1
    });
    expect((await page.request.get(path, { failOnStatusCode: false })).status()).toBe(503);
    expect((await page.request.get(path)).status()).toBe(200);

    await control.addFault({
      path: '*.updates.log', latencyMs: 1500, times: 1
    });
    const started = Date.now();

    await page.request.get(path);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);

    await control.addFault({
      path, body: 'malformed', times: 1
    });
    const malformed = await (await page.request.get(path)).text();

    expect(() => JSON.parse(malformed)).toThrow();

    await control.addFault({
      path, body: 'oversized', bytes: 3 * 1024 * 1024, times: 1
    });
    const oversized = await page.request.get(path);

    expect((await oversized.body()).length).toBe(3 * 1024 * 1024);
  });

  test('a ManagedOSImage write moves through Fleet\'s conditions to Ready', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const name = `e2e-rollout-${ Date.now().toString(36) }`;

    try {
      const created = await api.post(steveUrl(POOL_TYPE), {
        type:     POOL_TYPE,
        metadata: { name, namespace: NS },
        spec:     { managedOSVersionName: 'base-v2.2.0-3.12-os', clusterTargets: [{ clusterGroup: 'berlin' }] },
      });

      expect(created.status).toBe(201);
      const messages = new Set<string>();

      await expect.poll(async() => {
        const image = (await api.get(steveUrl(POOL_TYPE, NS, name))).body;
        const ready = records(field(image, 'status.conditions')).find((c) => c.type === 'Ready');

        if (ready?.message) {
          messages.add(String(ready.message));
        }

        return ready?.status;
      }, { timeout: 30_000, intervals: [200] }).toBe('True');

      expect([...messages].some((m) => m.startsWith('WaitApplied(2)') || m.startsWith('NotReady(2)'))).toBe(true);
      expect([...messages].join(' ')).toContain('Cluster fleet-default/edge-berlin-01');
      const bundle = await api.get(steveUrl('fleet.cattle.io.bundle', NS, `mos-${ name }`));

      expect(bundle.status).toBe(200);
    } finally {
      await api.delete(steveUrl(POOL_TYPE, NS, name));
    }
  });

  test('reset brings back the seed', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    expect((await api.delete(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(204);
    expect((await api.get(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(404);
    await control.reset();
    expect((await api.get(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(200);
  });
});
