/** @jest-environment node */
/* global beforeAll, afterAll */
import path from 'path';
import { WebSocket } from 'ws';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) jest';
let running: RunningEmulator;

beforeAll(async() => {
  const options = parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '20', '--time-scale', '0', '--rollout-step-ms', '20'], {}, path.resolve(__dirname, '../../..'));

  running = await startEmulator(options);
});

afterAll(async() => {
  await running.close();
});

interface Session {
  cookie: string;
  csrf: string;
}

async function login(username: string): Promise<Session> {
  const res = await fetch(`${ running.url }/v1-public/login`, {
    method:  'POST',
    headers: { 'content-type': 'application/json' },
    body:    JSON.stringify({
      type: 'localProvider', username, password: 'password1234', responseType: 'cookie'
    }),
  });

  expect(res.status).toBe(200);
  const session = res.headers.getSetCookie().find((c) => c.startsWith('R_SESS='))?.split(';')[0] ?? '';
  const first = await fetch(`${ running.url }/v1/schemas/schema`, { headers: { cookie: session, 'user-agent': BROWSER } });
  const csrf = first.headers.getSetCookie().find((c) => c.startsWith('CSRF='))?.split(';')[0].slice(5) ?? '';

  return { cookie: `${ session }; CSRF=${ csrf }`, csrf };
}

function call(session: Session | undefined, method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(`${ running.url }${ url }`, {
    method,
    headers: {
      'content-type': 'application/json', 'user-agent': BROWSER, ...(session ? { cookie: session.cookie, 'x-api-csrf': session.csrf } : {})
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('the emulator over HTTP', () => {
  it('answers 401 without a session, tells the dashboard whether it is logged in, and serves public settings', async() => {
    const res = await call(undefined, 'GET', '/v1/elemental.cattle.io.managedosversionchannels');

    expect(res.status).toBe(401);
    expect(res.headers.get('x-api-cattle-auth')).toBe('false');
    const settings = await (await call(undefined, 'GET', '/v1/management.cattle.io.settings')).json() as { data: { id: string }[] };

    expect(settings.data.map((s) => s.id)).toContain('ui-banners');
    expect(settings.data.map((s) => s.id)).not.toContain('server-url');
    expect((await call(undefined, 'POST', '/v1-public/login', { username: 'admin', password: 'wrong' })).status).toBe(401);
  });

  it('logs in with a cookie session, checks CSRF on writes, logs out', async() => {
    const session = await login('admin');
    const channels = await call(session, 'GET', '/v1/elemental.cattle.io.managedosversionchannels');

    expect(channels.status).toBe(200);
    expect(channels.headers.get('x-api-cattle-auth')).toBe('true');
    const noCsrf = await fetch(`${ running.url }/v1/userpreferences/user-h5cqk`, {
      method: 'PUT', headers: { cookie: session.cookie, 'user-agent': BROWSER }, body: JSON.stringify({ data: {} })
    });

    expect(noCsrf.status).toBe(401);
    expect(await noCsrf.json()).toMatchObject({ code: 'InvalidCSRFToken' });
    expect((await call(session, 'POST', '/v1/logout', {})).status).toBe(200);
    expect((await call(session, 'GET', '/v1/elemental.cattle.io.managedosversionchannels')).status).toBe(401);
  });

  it('gives the viewer read-only schemas and the admin full ones', async() => {
    const viewer = await login('viewer');
    const admin = await login('admin');
    const schemaOf = async(s: Session) => await (await call(s, 'GET', '/v1/schemas/elemental.cattle.io.managedosimage')).json() as Record<string, unknown>;

    // attributes.verbs are the verbs the API serves (discovery), the same for everyone.
    expect(await schemaOf(viewer)).toMatchObject({
      resourceMethods: ['GET'], collectionMethods: ['GET'], attributes: { verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] }
    });
    expect(await schemaOf(admin)).toMatchObject({ resourceMethods: ['GET', 'DELETE', 'PUT', 'PATCH'], collectionMethods: ['GET', 'POST'] });
  });

  it('stores the user preferences the dashboard writes', async() => {
    const session = await login('admin');

    expect((await call(session, 'PUT', '/v1/userpreferences/user-h5cqk', { data: { theme: '"ui-dark"' } })).status).toBe(200);
    const prefs = await (await call(session, 'GET', '/v1/userpreferences')).json() as { data: { data: Record<string, string> }[] };

    expect(prefs.data[0].data).toEqual({ theme: '"ui-dark"' });
    expect((await call(session, 'PUT', '/v1/userpreferences/user-h5cqk', { data: { theme: 1 } })).status).toBe(400);
  });

  it('lists with labelSelector, namespace, vai filters, sort and pages', async() => {
    const session = await login('admin');
    const get = async(url: string) => await (await call(session, 'GET', url)).json() as { count: number; pages?: number; data: { id: string }[] };
    const base = '/v1/elemental.cattle.io.managedosversions';

    const byLabel = await get(`${ base }?labelSelector=${ encodeURIComponent('elemental.cattle.io/channel=sl-micro-6.1-base') }`);

    expect(byLabel.data.map((v) => v.id).sort()).toEqual([
      'fleet-default/base-v2.2.0-3.12-os', 'fleet-default/base-v2.2.0-3.4-iso', 'fleet-default/base-v2.2.0-3.5-iso',
      'fleet-default/base-v2.2.0-3.7-iso', 'fleet-default/base-v2.2.0-3.8-os', 'fleet-default/base-v2.2.0-3.9-os',
    ]);
    const empty = await get(`${ base }/fleet-local`);

    // Steve leaves out an empty list's count (rancher/apiserver types.go `count,omitempty`).
    expect(empty.data).toEqual([]);
    expect(empty).not.toHaveProperty('count');
    const filtered = await get(`${ base }?filter=spec.type=iso&filter=metadata.labels[elemental.cattle.io/channel]=sl-micro-6.2-base`);

    expect(filtered.data.map((v) => v.id)).toEqual(['fleet-default/base-v2.3.0-6.1-iso']);
    const page = await get(`${ base }?filter=metadata.labels[elemental.cattle.io/channel]=sl-micro-6.1-scale&sort=-metadata.name&page=2&pagesize=5`);

    // With the SQL cache Steve counts, but never sets pages (rancher/steve pkg/stores/sqlproxy).
    expect(page.count).toBe(20);
    expect(page).not.toHaveProperty('pages');
    expect(page.data).toHaveLength(5);
  });

  it('pushes create, change and remove over /v1/subscribe, and replays from a revision', async() => {
    const session = await login('admin');
    const list = await (await call(session, 'GET', '/v1/elemental.cattle.io.managedosimages')).json() as { revision: string };
    const messages: Record<string, unknown>[] = [];
    const ws = new WebSocket(`${ running.url.replace('http', 'ws') }/v1/subscribe?sockId=1`, { headers: { cookie: session.cookie } });

    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: list.revision }));

    const created = await call(session, 'POST', '/v1/elemental.cattle.io.managedosimages', { metadata: { name: 'ws-pool', namespace: 'fleet-default' }, spec: { osImage: 'x' } });

    expect(created.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(session, 'DELETE', '/v1/elemental.cattle.io.managedosimages/fleet-default/ws-pool')).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const names = messages.map((m) => m.name);

    expect(names[0]).toBe('resource.start');
    expect(names).toContain('resource.create');
    expect(names).toContain('resource.change');
    expect(names[names.length - 1]).toBe('resource.remove');
    expect(messages.find((m) => m.name === 'resource.create')).toMatchObject({ resourceType: 'elemental.cattle.io.managedosimage', data: { id: 'fleet-default/ws-pool', type: 'elemental.cattle.io.managedosimage' } });

    // A second watch from the first revision replays everything since.
    const replay: Record<string, unknown>[] = [];

    ws.removeAllListeners('message');
    ws.on('message', (data) => replay.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.send(JSON.stringify({
      resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: list.revision, namespace: 'fleet-default'
    }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(replay.map((m) => m.name).filter((n) => n !== 'resource.start')).toEqual(names.filter((n) => n !== 'resource.start'));
    ws.close();
  });

  it('resumes a watch only from a revision of its own type, as Steve\'s SQL cache does', async() => {
    const session = await login('admin');
    const revisionOf = async(type: string) => ((await (await call(session, 'GET', `/v1/${ type }s`)).json()) as { revision: string }).revision;
    const images = await revisionOf('elemental.cattle.io.managedosimage');
    const channels = await revisionOf('elemental.cattle.io.managedosversionchannel');
    const ws = new WebSocket(`${ running.url.replace('http', 'ws') }/v1/subscribe?sockId=1`, { headers: { cookie: session.cookie } });
    const messages: { name?: string; resourceType?: string; data?: { error?: string } }[] = [];

    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => ws.once('open', resolve));
    expect(images).not.toBe(channels);
    // Each list's revision is that of its type's newest change.
    const newest = (type: string) => running.emulator.store.typeRevision(type);

    expect([images, channels]).toEqual([String(newest('elemental.cattle.io.managedosimage')), String(newest('elemental.cattle.io.managedosversionchannel'))]);
    ws.send(JSON.stringify({ resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: channels }));
    ws.send(JSON.stringify({ resourceType: 'elemental.cattle.io.managedosversionchannel', resourceVersion: channels }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    ws.close();

    expect(messages.filter((m) => m.resourceType === 'elemental.cattle.io.managedosimage').map((m) => m.data?.error ?? m.name)).toEqual(['resource.start', 'resourceversion too old', 'resource.stop']);
    expect(messages.filter((m) => m.resourceType === 'elemental.cattle.io.managedosversionchannel').map((m) => m.name)).toEqual(['resource.start']);
  });

  it('refuses a websocket without a session', async() => {
    const ws = new WebSocket(`${ running.url.replace('http', 'ws') }/v1/subscribe`);
    const failed = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(false));
      ws.once('error', () => resolve(true));
    });

    expect(failed).toBe(true);
  });

  it('answers /elemental/changelog as today\'s operator: 400 "unknwon api" as text, logged in or not (Rancher proxies it first)', async() => {
    const viewer = await login('viewer');
    const url = '/elemental/changelog/base-v2.3.0-6.1-os/base-v2.3.0-6.1-os.updates.log';

    for (const session of [viewer, undefined]) {
      const answer = await call(session, 'GET', url);

      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await answer.text()).toBe('unknwon api: changelog\n');
    }
  });

  it('answers /elemental/ with an index.html and 200 when no operator is installed', async() => {
    await running.emulator.setChangelogMode('none');
    try {
      const answer = await call(undefined, 'GET', '/elemental/changelog/base-v2.3.0-6.1-os/base-v2.3.0-6.1-os.updates.log');

      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await answer.text()).toMatch(/^<!doctype html>/i);
    } finally {
      await running.emulator.setChangelogMode('operator');
    }
  });

  it('answers a cookie login with an empty 200 and the session cookie', async() => {
    const res = await fetch(`${ running.url }/v1-public/login`, {
      method:  'POST',
      headers: { 'content-type': 'application/json' },
      body:    JSON.stringify({
        type: 'localProvider', username: 'admin', password: 'password1234', responseType: 'cookie'
      }),
    });

    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('R_SESS='))).toBe(true);
  });

  it('serves the seed\'s changelog files from its static file host, and one channel\'s package tar', async() => {
    const log = await call(undefined, 'GET', '/changelog-files/base-v2.3.0-6.1-os.updates.log');

    expect(log.status).toBe(200);
    expect(Array.isArray(JSON.parse(await log.text()))).toBe(true);
    expect((await call(undefined, 'GET', '/changelog-files/base-v2.2.0-3.9-os.updates.log')).status).toBe(404);
    expect((await call(undefined, 'GET', '/changelog-files/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    const tar = await call(undefined, 'GET', '/changelog-files/sl-micro-6.1-base.packages.tar');

    expect(tar.status).toBe(200);
    expect(tar.headers.get('content-type')).toBe('application/x-tar');
    const { unpackTar } = await import('modern-tar');
    const names = (await unpackTar(new Uint8Array(await tar.arrayBuffer()))).map((entry) => entry.header.name);

    expect(names).toContain('base-v2.2.0-3.12-os.packages');
    const admin = await login('admin');
    const channel = await (await call(admin, 'GET', '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/sl-micro-6.1-base')).json() as { metadata: { annotations: Record<string, string> } };

    expect(channel.metadata.annotations).toMatchObject({ 'os-upgrades.cattle.io/changelog-url': '/changelog-files/{name}.updates.log', 'os-upgrades.cattle.io/packages-tar-url': '/changelog-files/sl-micro-6.1-base.packages.tar' });
  });
});
