// Kubernetes API semantics through the dashboard's session: 409 on a stale resourceVersion, 403 for
// the viewer's writes, 422 with the field path for an invalid ManagedOSImage, 404, generateName.
// Runs against the emulator and a real Rancher alike: each test writes its own pools under names unique
// to the run, and support/seed.ts deletes them after it, also when it fails.

import { field, records, sessionApi, steveUrl } from './support/api';
import { TEST_NAMESPACE } from './support/env';
import { loginAs } from './support/login';
import { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, POOL_TYPE } from './support/names';
import { uniqueName, useSeed } from './support/seed';

const IMAGES_KUBE = `/apis/elemental.cattle.io/v1beta1/namespaces/${ TEST_NAMESPACE }/managedosimages`;

/** Waits until the operator has stopped writing the image's status (its Ready condition is True). */
async function settled(page: Page, name: string): Promise<Record<string, unknown>> {
  let latest: Record<string, unknown> = {};

  await expect.poll(async() => {
    latest = (await sessionApi(page).get(steveUrl(POOL_TYPE, TEST_NAMESPACE, name))).body;

    return records(field(latest, 'status.conditions')).find((c) => c.type === 'Ready')?.status;
  }, { timeout: 30_000 }).toBe('True');

  return latest;
}

function pool(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type:     POOL_TYPE,
    metadata: { name, namespace: TEST_NAMESPACE },
    spec:     {
      osImage: 'registry.example.test/e2e/os:1.0', clusterTargets: [{ clusterName: 'e2e-no-such-cluster' }], ...spec
    },
  };
}

const seed = useSeed();

test.describe('API semantics', () => {
  test('create fills in uid, creationTimestamp, resourceVersion, generation and generateName', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const body = pool('');

    body.metadata = { generateName: 'e2e-gen-', namespace: TEST_NAMESPACE };
    const res = await api.post(steveUrl(POOL_TYPE), body);

    expect(res.status).toBe(201);
    const name = String(field(res.body, 'metadata.name'));

    seed.track(POOL_TYPE, name);
    expect(name).toMatch(/^e2e-gen-[a-z0-9]{5}$/);
    expect(field(res.body, 'metadata.uid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(field(res.body, 'metadata.creationTimestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(field(res.body, 'metadata.resourceVersion'))).toBeGreaterThan(0);
    expect(field(res.body, 'metadata.generation')).toBe(1);
    expect(res.body.id).toBe(`${ TEST_NAMESPACE }/${ name }`);
    // The CRD's defaults are applied as the API server applies them.
    expect(field(res.body, 'spec.drain')).toEqual({
      deleteLocalData: true, force: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60
    });
  });

  test('a write with a stale resourceVersion gets 409 Conflict', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const name = uniqueName('e2e-conflict');
    const first = await api.post(steveUrl(POOL_TYPE), pool(name));

    expect(first.status).toBe(201);
    seed.track(POOL_TYPE, name);

    const current = await settled(page, name);
    const stale = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;
    const update = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;

    (update.spec as Record<string, unknown>).concurrency = 2;
    const ok = await api.put(steveUrl(POOL_TYPE, TEST_NAMESPACE, name), update);

    expect(ok.status).toBe(200);
    expect(field(ok.body, 'metadata.resourceVersion')).not.toBe(field(current, 'metadata.resourceVersion'));
    expect(field(ok.body, 'metadata.generation')).toBe(2);

    (stale.spec as Record<string, unknown>).concurrency = 3;
    const conflict = await api.put(steveUrl(POOL_TYPE, TEST_NAMESPACE, name), stale);

    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('Conflict');
    expect(String(conflict.body.message)).toContain('the object has been modified');

    const viaKube = await api.put(`${ IMAGES_KUBE }/${ name }`, {
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: field(stale, 'metadata') as Record<string, unknown>, spec: stale.spec
    });

    expect(viaKube.status).toBe(409);
    expect(viaKube.body).toMatchObject({
      kind: 'Status', reason: 'Conflict', code: 409
    });
  });

  test('the viewer\'s writes get 403', async({ page }) => {
    await loginAs(page, 'admin');
    const name = uniqueName('e2e-forbidden');
    const made = await sessionApi(page).post(steveUrl(POOL_TYPE), pool(name));

    expect(made.status).toBe(201);
    seed.track(POOL_TYPE, name);
    await page.context().clearCookies();

    await loginAs(page, 'viewer');
    const api = sessionApi(page);
    const read = await api.get(steveUrl(POOL_TYPE, TEST_NAMESPACE, name));

    expect(read.status).toBe(200);
    expect(field(read.body, 'links.update')).toBeUndefined();
    expect(field(read.body, 'links.remove')).toBeUndefined();

    // Deleted after the test should a write wrongly succeed.
    seed.track(POOL_TYPE, `${ name }-2`);
    seed.track(POOL_TYPE, `${ name }-3`);
    const update = await api.put(steveUrl(POOL_TYPE, TEST_NAMESPACE, name), read.body as Record<string, unknown>);
    const create = await api.post(steveUrl(POOL_TYPE), pool(`${ name }-2`));
    const remove = await api.delete(steveUrl(POOL_TYPE, TEST_NAMESPACE, name));

    for (const res of [update, create, remove]) {
      expect(res.status).toBe(403);
    }
    const viaKube = await api.post(IMAGES_KUBE, {
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name: `${ name }-3` }, spec: {}
    });

    expect(viaKube.status).toBe(403);
    expect(viaKube.body).toMatchObject({
      kind: 'Status', reason: 'Forbidden', code: 403
    });
  });

  test('an invalid ManagedOSImage gets 422 naming the field path', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const name = uniqueName('e2e-invalid');

    seed.track(POOL_TYPE, name);
    const res = await api.post(steveUrl(POOL_TYPE), pool(name, { concurrency: 'abc' }));

    expect(res.status).toBe(422);
    expect(String(res.body.message)).toContain('spec.concurrency');
    expect(String(res.body.message)).toContain('must be of type integer');

    const viaKube = await api.post(IMAGES_KUBE, {
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name }, spec: { concurrency: 'abc', osImage: 'x' }
    });

    expect(viaKube.status).toBe(422);
    expect(viaKube.body).toMatchObject({
      kind: 'Status', reason: 'Invalid', code: 422
    });
    const causes = records(field(viaKube.body, 'details.causes'));

    expect(causes.map((c) => c.field)).toContain('spec.concurrency');

    const notCreated = await api.get(steveUrl(POOL_TYPE, TEST_NAMESPACE, name));

    expect(notCreated.status).toBe(404);
  });

  test('a missing object is 404 NotFound', async({ page }) => {
    await loginAs(page, 'admin');
    const res = await sessionApi(page).get(steveUrl(CHANNEL_TYPE, TEST_NAMESPACE, uniqueName('e2e-no-such-channel')));

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NotFound');
  });
});
