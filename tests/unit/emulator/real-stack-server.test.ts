/** @jest-environment node */
/* global beforeAll, afterAll */
// The emulator started with --backend real-stack in front of one fake server standing in for real
// Steve and the API server: which requests it keeps, which it passes on, as whom.
import http from 'http';
import path from 'path';
import { AddressInfo } from 'net';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) jest';
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
const fake = http.createServer((req, res) => {
  seen.push({
    method: req.method ?? '', url: req.url ?? '', headers: req.headers
  });
  res.setHeader('content-type', 'application/json');
  const url = new URL(req.url ?? '/', 'http://x');

  if (url.searchParams.get('watch') === '1') {
    res.writeHead(200);
    res.flushHeaders();

    return;
  }
  if (url.pathname.startsWith('/apis/') || url.pathname.startsWith('/api/')) {
    res.writeHead(req.method === 'POST' ? 201 : 200);
    res.end(JSON.stringify(req.method === 'GET' ? {
      kind: 'List', metadata: { resourceVersion: '5' }, items: []
    } : { metadata: { name: 'x', resourceVersion: '6' } }));

    return;
  }
  res.end(JSON.stringify(url.pathname === '/v1/schemas' ? { type: 'collection', data: [{ id: 'namespace' }, { id: 'management.cattle.io.setting', real: true }] } : { answeredBy: 'real', path: url.pathname }));
});
let running: RunningEmulator;
let cookie = '';
let csrf = '';

beforeAll(async() => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${ (fake.address() as AddressInfo).port }`;
  const env = {
    REAL_STACK_DIR: '/nonexistent', REAL_STACK_STEVE: url, REAL_STACK_KUBE_API: url
  };

  Object.assign(process.env, env);
  const options = parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', '--backend', 'real-stack', '--fixtures', 'tests/fixtures/clusters'], {}, path.resolve(__dirname, '../../..'));

  running = await startEmulator(options);
  const login = await fetch(`${ running.url }/v1-public/login`, {
    method:  'POST',
    headers: { 'content-type': 'application/json' },
    body:    JSON.stringify({
      type: 'localProvider', username: 'editor', password: 'password1234', responseType: 'cookie'
    }),
  });
  const session = login.headers.getSetCookie().find((c) => c.startsWith('R_SESS='))?.split(';')[0] ?? '';
  const first = await fetch(`${ running.url }/v1/management.cattle.io.settings`, { headers: { cookie: session, 'user-agent': BROWSER } });

  csrf = first.headers.getSetCookie().find((c) => c.startsWith('CSRF='))?.split(';')[0].slice(5) ?? '';
  cookie = `${ session }; CSRF=${ csrf }`;
});

afterAll(async() => {
  await running.close();
  fake.closeAllConnections();
  await new Promise((resolve) => fake.close(resolve));
  for (const key of ['REAL_STACK_DIR', 'REAL_STACK_STEVE', 'REAL_STACK_KUBE_API']) {
    delete process.env[key];
  }
});

function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${ running.url }${ url }`, {
    headers: {
      cookie, 'user-agent': BROWSER, ...headers
    }
  });
}

describe('the emulator with --backend real-stack', () => {
  it('wrote the operator chart\'s Metadata record and listed the operator\'s types on the API server with the admin token', () => {
    const writes = seen.filter((r) => r.method === 'POST').map((r) => r.url);

    expect(writes).toEqual(['/api/v1/namespaces', '/apis/elemental.cattle.io/v1beta1/namespaces/cattle-elemental-system/metadata']);
    expect(seen.filter((r) => r.method === 'GET' && !r.url.includes('watch')).map((r) => r.url).sort()).toEqual([
      '/apis/elemental.cattle.io/v1beta1/managedosimages', '/apis/elemental.cattle.io/v1beta1/managedosversionchannels',
      '/apis/elemental.cattle.io/v1beta1/managedosversions', '/apis/fleet.cattle.io/v1alpha1/bundles',
    ]);
    expect(seen.every((r) => r.headers.authorization === 'Bearer real-stack-admin')).toBe(true);
  });

  it('keeps Rancher\'s settings and passes the stack\'s types to real Steve as the user', async() => {
    seen.length = 0;
    const settings = await (await get('/v1/management.cattle.io.settings')).json() as { data: unknown[] };

    expect(settings.data.length).toBeGreaterThan(0);
    expect(seen).toEqual([]);
    expect(await (await get('/v1/elemental.cattle.io.managedosversions?filter=a')).json()).toEqual({ answeredBy: 'real', path: '/v1/elemental.cattle.io.managedosversions' });
    expect(seen[0].url).toBe('/v1/elemental.cattle.io.managedosversions?filter=a');
    expect(seen[0].headers).toMatchObject({ 'impersonate-user': 'u-q7c4t', 'impersonate-group': 'system:authenticated' });
    expect(seen[0].headers.cookie).toBeUndefined();
  });

  it('serves /k8s/clusters/local from the stack, with its prefix for the links; the API server with the token impersonating the user', async() => {
    seen.length = 0;
    await get('/k8s/clusters/local/v1/namespaces');
    await get('/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages');

    expect(seen.map((r) => [r.url, r.headers['x-api-url-prefix'], r.headers.authorization, r.headers['impersonate-user']])).toEqual([
      ['/v1/namespaces', '/k8s/clusters/local', undefined, 'u-q7c4t'],
      ['/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages', undefined, 'Bearer real-stack-admin', 'u-q7c4t'],
    ]);
  });

  it('merges the schema list and refuses a browser\'s write without the CSRF token before passing it on', async() => {
    const schemas = await (await get('/v1/schemas')).json() as { data: { id: string; real?: boolean }[] };
    const ids = schemas.data.map((s) => s.id);

    expect(ids).toContain('namespace');
    expect(schemas.data.find((s) => s.id === 'management.cattle.io.setting')?.real).toBeUndefined();
    seen.length = 0;
    const write = await fetch(`${ running.url }/v1/elemental.cattle.io.managedosimages`, {
      method:  'POST',
      headers: {
        cookie, 'user-agent': BROWSER, 'content-type': 'application/json'
      },
      body: '{}'
    });

    expect(write.status).toBe(401);
    expect(seen).toEqual([]);
  });
});
