// The emulator's own endpoints: changelog files on its file host and the operator's answer, injected
// faults, reset (emulator only, @emulator). And what the emulator imitates of the operator and Fleet,
// checked wherever the specs run (a real Rancher too): a ManagedOSImage written through the API moves
// through Fleet's conditions to Ready, on a channel and a cluster the test chose (support/seed.ts).

import { field, records, sessionApi, steveUrl } from './support/api';
import { EMULATOR_TAG, EmulatorControl, requireEmulator } from './support/emulator';
import { loginAs } from './support/login';
import { expect, test } from './support/test';
import { NS, POOL_TYPE } from './support/names';
import { useSeed } from './support/seed';
import { BASE, targetCluster } from './support/seed-pages';

const seed = useSeed();

test.describe('emulator endpoints', { tag: EMULATOR_TAG }, () => {
  let control: EmulatorControl;

  test.beforeEach(async() => {
    requireEmulator('the emulator\'s own endpoints');
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

  test('reset brings back the seed', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    expect((await api.delete(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(204);
    expect((await api.get(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(404);
    await control.reset();
    expect((await api.get(steveUrl(POOL_TYPE, NS, 'edge-munich'))).status).toBe(200);
  });
});

test.describe('the operator and Fleet', () => {
  test('a ManagedOSImage write moves through Fleet\'s conditions to Ready', async() => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const cluster = await targetCluster(seed);
    // Fleet's conditions are about the bundle reaching the cluster, not the nodes: the Plan selects
    // no node, so no node is cordoned and rebooted. One that was, when this test's cleanup deleted the
    // pool mid-upgrade, stayed cordoned and not ready for every later test on the cluster.
    const name = await seed.pool('e2e-rollout', {
      managedOSVersionName: channel.version(BASE.middle),
      clusterTargets:       cluster.targets,
      nodeSelector:         { matchLabels: { 'e2e.os-upgrades.cattle.io/no-node': 'true' } },
    });
    const messages = new Set<string>();
    const ready = async() => {
      const image = await seed.get(POOL_TYPE, name);
      const condition = records(field(image, 'status.conditions')).find((c) => c.type === 'Ready');

      if (condition?.message) {
        messages.add(String(condition.message));
      }

      return condition?.status;
    };

    // The operator wrote the Fleet bundle of the pool's Plan (rancher/elemental-operator
    // controllers/managedosimage_controller.go names it mos-<name>).
    await expect.poll(async() => !!await seed.get('fleet.cattle.io.bundle', `mos-${ name }`), { timeout: 30_000 }).toBe(true);
    if (!cluster.nodes.length) {
      test.info().annotations.push({ type: 'stopped', description: `${ cluster.name ? `cluster ${ cluster.name } runs` : 'no cluster to target:' } no Elemental node: checked up to the bundle the operator wrote` });

      return;
    }
    await expect.poll(ready, { timeout: 30_000, intervals: [200] }).toBe('True');
    // Before it was Ready, Fleet waited for the one cluster to apply it, naming it.
    expect([...messages].some((m) => m.startsWith('WaitApplied(1)') || m.startsWith('NotReady(1)'))).toBe(true);
    expect([...messages].join(' ')).toContain(`Cluster ${ NS }/${ cluster.name }`);
  });
});
