/** @jest-environment node */
/* global beforeAll, afterAll */
// Rights, links, refusals and watches as Steve serves them, over HTTP: rancher/steve
// pkg/schema/factory.go, pkg/resources/common/formatter.go, pkg/stores/proxy/error_wrapper.go,
// rancher/apiserver pkg/parse/validate.go, pkg/subscribe/debouncer.go.
import path from 'path';
import { WebSocket } from 'ws';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) jest';
const IMAGES = '/v1/elemental.cattle.io.managedosimages';
let sql: RunningEmulator;
let plain: RunningEmulator;

async function start(sqlCache: string): Promise<RunningEmulator> {
  return await startEmulator(parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', '--time-scale', '0', '--sql-cache', sqlCache], {}, path.resolve(__dirname, '../../..')));
}

beforeAll(async() => {
  [sql, plain] = await Promise.all([start('on'), start('off')]);
});

afterAll(async() => {
  await Promise.all([sql.close(), plain.close()]);
});

interface Session {
  cookie: string;
  csrf: string;
}

async function login(em: RunningEmulator, username: string): Promise<Session> {
  const res = await fetch(`${ em.url }/v1-public/login`, {
    method:  'POST',
    headers: { 'content-type': 'application/json' },
    body:    JSON.stringify({
      type: 'localProvider', username, password: 'password1234', responseType: 'cookie'
    }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('R_SESS='))?.split(';')[0] ?? '';
  const first = await fetch(`${ em.url }/v1/schemas/schema`, { headers: { cookie: session, 'user-agent': BROWSER } });
  const csrf = first.headers.getSetCookie().find((c) => c.startsWith('CSRF='))?.split(';')[0].slice(5) ?? '';

  return { cookie: `${ session }; CSRF=${ csrf }`, csrf };
}

async function call(em: RunningEmulator, session: Session, method: string, url: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${ em.url }${ url }`, {
    method,
    headers: {
      'content-type': 'application/json', 'user-agent': BROWSER, cookie: session.cookie, 'x-api-csrf': session.csrf
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

function pool(namespace: string, name: string): Record<string, unknown> {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name, namespace }, spec: { osImage: 'registry.example.test/os:1' }
  };
}

describe('Steve rights and links (the editor may write pools in fleet-default only)', () => {
  it('puts PUT, PATCH, DELETE and POST in the schema when granted in any namespace', async() => {
    const editor = await login(sql, 'editor');

    expect((await call(sql, editor, 'GET', '/v1/schemas/elemental.cattle.io.managedosimage')).body).toMatchObject({ resourceMethods: ['GET', 'DELETE', 'PUT', 'PATCH'], collectionMethods: ['GET', 'POST'] });
    expect((await call(sql, editor, 'GET', '/v1/schemas/elemental.cattle.io.managedosversionchannel')).body).toMatchObject({ resourceMethods: ['GET'], collectionMethods: ['GET'] });
  });

  it('gives each object update, remove and patch links only where the user may', async() => {
    const admin = await login(sql, 'admin');
    const editor = await login(sql, 'editor');

    expect((await call(sql, admin, 'POST', IMAGES, pool('fleet-local', 'links-local'))).status).toBe(201);
    expect((await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'links-default'))).status).toBe(201);
    const own = (await call(sql, editor, 'GET', `${ IMAGES }/fleet-default/links-default`)).body.links as Record<string, string>;
    const other = (await call(sql, editor, 'GET', `${ IMAGES }/fleet-local/links-local`)).body.links as Record<string, string>;

    expect(Object.keys(own).sort()).toEqual(['patch', 'remove', 'self', 'update', 'view']);
    expect(Object.keys(other).sort()).toEqual(['self', 'view']);
    const adminLinks = (await call(sql, admin, 'GET', `${ IMAGES }/fleet-local/links-local`)).body.links as Record<string, string>;

    expect(adminLinks.patch).toBe(adminLinks.self);
  });

  it('answers a method missing from the schema with Steve\'s own refusal, and a namespace RBAC refuses with Kubernetes\' Forbidden', async() => {
    const admin = await login(sql, 'admin');
    const viewer = await login(sql, 'viewer');
    const editor = await login(sql, 'editor');
    const created = (await call(sql, admin, 'POST', IMAGES, pool('fleet-local', 'refused'))).body;
    const refusedByMethod = await call(sql, viewer, 'PUT', `${ IMAGES }/fleet-local/refused`, created);

    expect(refusedByMethod).toEqual({
      status: 403,
      body:   {
        type: 'error', status: 403, code: 'PermissionDenied', message: 'Method PUT not supported'
      }
    });
    const refusedByRbac = await call(sql, editor, 'PUT', `${ IMAGES }/fleet-local/refused`, created);

    expect(refusedByRbac).toEqual({
      status: 403,
      body:   {
        type:    'error',
        status:  403,
        code:    'Forbidden',
        message: 'managedosimages.elemental.cattle.io "refused" is forbidden: User "u-q7c4t" cannot update resource "managedosimages" in API group "elemental.cattle.io" in the namespace "fleet-local"',
      }
    });
    expect((await call(sql, editor, 'POST', IMAGES, pool('fleet-local', 'nope'))).body).toMatchObject({ code: 'Forbidden' });
    expect((await call(sql, editor, 'POST', IMAGES, pool('fleet-default', 'mine'))).status).toBe(201);
    expect((await call(sql, viewer, 'POST', IMAGES, pool('fleet-default', 'nope'))).body).toMatchObject({ code: 'PermissionDenied', message: 'Method POST not supported' });
  });

  it('answers checkPermissions per namespace, as formatter.go does', async() => {
    const editor = await login(sql, 'editor');
    const list = (await call(sql, editor, 'GET', '/v1/namespaces?checkPermissions=elemental.cattle.io.managedosimage')).body.data as { id: string; resourcePermissions: Record<string, Record<string, string>> }[];
    const perms = (ns: string) => Object.keys(list.find((n) => n.id === ns)?.resourcePermissions['elemental.cattle.io.managedosimage'] ?? {}).sort();

    expect(perms('fleet-default')).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(perms('fleet-local')).toEqual(['get', 'list', 'watch']);
  });
});

interface Message {
  name: string;
  data?: { metadata?: { name?: string } };
  revision?: string;
}

function watch(em: RunningEmulator, session: Session, subscription: Record<string, unknown>): { messages: Message[]; close: () => void; opened: Promise<void> } {
  const ws = new WebSocket(`${ em.url.replace('http', 'ws') }/v1/subscribe`, { headers: { cookie: session.cookie, 'user-agent': BROWSER } });
  const messages: Message[] = [];
  const opened = new Promise<void>((resolve) => ws.on('open', () => {
    ws.send(JSON.stringify(subscription));
    resolve();
  }));

  ws.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as Message));

  return {
    messages, close: () => ws.close(), opened
  };
}

const until = async(check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;

  while (!check() && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('watches as Steve starts them', () => {
  it('with the SQL cache, starts a watch without a revision from now: no initial events', async() => {
    const admin = await login(sql, 'admin');
    const w = watch(sql, admin, { resourceType: 'elemental.cattle.io.managedosversion' });

    await w.opened;
    await until(() => w.messages.some((m) => m.name === 'resource.start'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(w.messages.filter((m) => m.name === 'resource.create')).toEqual([]);
    await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'after-start'));
    const images = watch(sql, admin, { resourceType: 'elemental.cattle.io.managedosimage' });

    await images.opened;
    await until(() => images.messages.some((m) => m.name === 'resource.start'));
    await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'seen-live'));
    await until(() => images.messages.some((m) => m.name === 'resource.create'));
    expect(images.messages.filter((m) => m.name === 'resource.create').map((m) => m.data?.metadata?.name)).toEqual(['seen-live']);
    w.close();
    images.close();
  });

  it('without the SQL cache, starts it with every current object, as a Kubernetes watch', async() => {
    const admin = await login(plain, 'admin');
    const w = watch(plain, admin, { resourceType: 'elemental.cattle.io.managedosversionchannel' });

    await w.opened;
    await until(() => w.messages.filter((m) => m.name === 'resource.create').length >= 3);
    expect(w.messages.filter((m) => m.name === 'resource.create').length).toBeGreaterThanOrEqual(3);
    const features = (await call(plain, admin, 'GET', '/v1/management.cattle.io.features/ui-sql-cache')).body as { spec: { value: boolean } };

    expect(features.spec.value).toBe(false);
    w.close();
  });

  it('notifies resource.changes at once the first time, then at most every debounceMs', async() => {
    const admin = await login(sql, 'admin');
    const w = watch(sql, admin, {
      resourceType: 'elemental.cattle.io.managedosimage', mode: 'resource.changes', debounceMs: 400
    });
    const changes = () => w.messages.filter((m) => m.name === 'resource.changes').length;

    await w.opened;
    await until(() => w.messages.some((m) => m.name === 'resource.start'));
    const started = Date.now();

    await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'debounce-1'));
    await until(() => changes() === 1);
    expect(Date.now() - started).toBeLessThan(300);
    await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'debounce-2'));
    await call(sql, admin, 'POST', IMAGES, pool('fleet-default', 'debounce-3'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(changes()).toBe(1);
    await until(() => changes() === 2);
    expect(changes()).toBe(2);
    w.close();
  });
});
