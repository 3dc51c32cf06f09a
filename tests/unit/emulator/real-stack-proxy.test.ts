/** @jest-environment node */
// The real-stack proxy against tiny fake servers: a Steve request passed on as the user with the
// headers that keep its links on the emulator, and the subscribe websocket split by type.
import http from 'http';
import { AddressInfo } from 'net';
import { WebSocket, WebSocketServer } from 'ws';
import { contextOf } from '../../emulator/core/http';
import { RealStackProxy } from '../../emulator/real-stack/proxy';
import { splitSubscription } from '../../emulator/real-stack/subscribe-split';
import { USERS } from '../../emulator/rancher/users';

const admin = USERS[0];

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('RealStackProxy', () => {
  it('passes a Steve request on as the logged-in user, without the browser\'s credentials, with the emulator as the links\' host', async() => {
    const seen: http.IncomingHttpHeaders[] = [];
    const steve = http.createServer((req, res) => {
      seen.push({ ...req.headers, path: req.url });
      res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'x=1' });
      res.end('{"id":"fleet-default/a"}');
    });
    const port = await listen(steve);
    const proxy = new RealStackProxy({
      steve: `http://127.0.0.1:${ port }`, kubeApi: 'http://127.0.0.1:1', adminToken: 't'
    });
    const front = http.createServer((req, res) => {
      const ctx = contextOf(req, res);

      ctx.body = Buffer.from('{"metadata":{"name":"a"}}');
      proxy.steve(ctx, admin, '/v1/elemental.cattle.io.managedosimages', '/k8s/clusters/local').catch(() => res.destroy());
    });
    const frontPort = await listen(front);
    const answer = await fetch(`http://localhost:${ frontPort }/k8s/clusters/local/v1/elemental.cattle.io.managedosimages?x=1`, {
      method:  'POST',
      headers: {
        cookie: 'R_SESS=secret', authorization: 'Bearer mine', 'content-type': 'application/json'
      },
      body: '{}'
    });

    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(await answer.json()).toEqual({ id: 'fleet-default/a' });
    expect(seen[0]).toMatchObject({
      path:                '/v1/elemental.cattle.io.managedosimages?x=1',
      'impersonate-user':  admin.id,
      'impersonate-group': 'system:authenticated',
      'x-api-host':        `localhost:${ frontPort }`,
      'x-forwarded-proto': 'http',
      'x-api-url-prefix':  '/k8s/clusters/local',
    });
    expect(seen[0].cookie).toBeUndefined();
    expect(seen[0].authorization).toBeUndefined();
    await Promise.all([close(steve), close(front)]);
  });
});

describe('splitSubscription', () => {
  it('sends the stack\'s types up to real Steve and the rest to the emulator, and merges their answers without Steve\'s pings', async() => {
    const upstreamServer = http.createServer();
    const upstream = new WebSocketServer({ server: upstreamServer });
    const upstreamSeen: string[] = [];
    const upstreamHeaders: http.IncomingHttpHeaders[] = [];

    upstream.on('connection', (ws, req) => {
      upstreamHeaders.push(req.headers);
      ws.send(JSON.stringify({ name: 'ping', data: {} }));
      ws.on('message', (raw) => {
        upstreamSeen.push(raw.toString());
        ws.send(JSON.stringify({ name: 'resource.start', resourceType: JSON.parse(raw.toString()).resourceType }));
      });
    });
    const upstreamPort = await listen(upstreamServer);
    const frontServer = http.createServer();
    const front = new WebSocketServer({ server: frontServer });
    const localSeen: string[] = [];

    front.on('connection', (ws) => splitSubscription(ws, (end) => {
      end.on('message', (raw) => {
        localSeen.push(raw.toString());
        end.send(JSON.stringify({
          name: 'resource.start', resourceType: JSON.parse(raw.toString()).resourceType, from: 'emulator'
        }));
      });
    }, { url: `ws://127.0.0.1:${ upstreamPort }/v1/subscribe`, headers: { 'impersonate-user': admin.id } }));
    const frontPort = await listen(frontServer);
    const browser = new WebSocket(`ws://127.0.0.1:${ frontPort }/v1/subscribe`);
    const received: Record<string, unknown>[] = [];

    browser.on('message', (raw) => received.push(JSON.parse(raw.toString())));
    await new Promise((resolve) => browser.on('open', resolve));
    // Sent before the upstream socket is open: kept until it is.
    browser.send(JSON.stringify({ resourceType: 'elemental.cattle.io.managedosversion', mode: 'resource.changes' }));
    browser.send(JSON.stringify({ resourceType: 'management.cattle.io.setting' }));
    browser.send(JSON.stringify({ resourceType: 'count' }));
    for (let i = 0; i < 200 && received.length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    // The count watch goes to both sides (its counts are merged: the next test); the rest by type.
    expect(upstreamSeen.map((m) => JSON.parse(m).resourceType)).toEqual(['elemental.cattle.io.managedosversion', 'count']);
    expect(localSeen.map((m) => JSON.parse(m).resourceType)).toEqual(['management.cattle.io.setting', 'count']);
    expect(received.map((m) => [m.name, m.resourceType]).sort()).toEqual([
      ['resource.start', 'count'], ['resource.start', 'elemental.cattle.io.managedosversion'], ['resource.start', 'management.cattle.io.setting'],
    ]);
    expect(upstreamHeaders[0]['impersonate-user']).toBe(admin.id);

    // Real Steve's socket going away closes the browser's, which subscribes again.
    const closed = new Promise((resolve) => browser.on('close', resolve));

    upstream.clients.forEach((ws) => ws.terminate());
    await closed;
    upstream.close();
    front.close();
    await Promise.all([close(upstreamServer), close(frontServer)]);
  });
});

describe('splitSubscription: the count watch', () => {
  it('answers once for start, and sends every count change with both sides\' counts merged', async() => {
    const upstreamServer = http.createServer();
    const upstream = new WebSocketServer({ server: upstreamServer });

    upstream.on('connection', (ws) => ws.on('message', () => {
      ws.send(JSON.stringify({ name: 'resource.start', resourceType: 'count' }));
      ws.send(JSON.stringify({
        name: 'resource.change', resourceType: 'count', data: { id: 'count', counts: { namespace: { summary: { count: 4 } }, 'management.cattle.io.setting': { summary: { count: 0 } } } }
      }));
    }));
    const upstreamPort = await listen(upstreamServer);
    const frontServer = http.createServer();
    const front = new WebSocketServer({ server: frontServer });
    let localEnd: { send(text: string): void } | undefined;

    front.on('connection', (ws) => splitSubscription(ws, (end) => {
      localEnd = end;
      end.on('message', () => end.send(JSON.stringify({ name: 'resource.start', resourceType: 'count' })));
    }, { url: `ws://127.0.0.1:${ upstreamPort }/v1/subscribe`, headers: {} }, undefined, () => ({ id: 'count', counts: { 'management.cattle.io.setting': { summary: { count: 3 } } } })));
    const frontPort = await listen(frontServer);
    const browser = new WebSocket(`ws://127.0.0.1:${ frontPort }/v1/subscribe`);
    const received: { name: string; data?: { counts?: Record<string, { summary: { count: number } }> } }[] = [];
    const countsOf = (i: number) => Object.fromEntries(Object.entries(received[i].data?.counts ?? {}).map(([id, c]) => [id, c.summary.count]));
    const until = async(n: number) => {
      for (let i = 0; i < 200 && received.length < n; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };

    browser.on('message', (raw) => received.push(JSON.parse(raw.toString())));
    await new Promise((resolve) => browser.on('open', resolve));
    browser.send(JSON.stringify({ resourceType: 'count' }));
    await until(2);
    expect(received.map((m) => m.name).sort()).toEqual(['resource.change', 'resource.start']);
    expect(countsOf(received.findIndex((m) => m.name === 'resource.change'))).toEqual({ 'management.cattle.io.setting': 3, namespace: 4 });

    localEnd?.send(JSON.stringify({
      name: 'resource.change', resourceType: 'count', data: { id: 'count', counts: { 'management.cattle.io.setting': { summary: { count: 5 } }, namespace: { summary: { count: 99 } } } }
    }));
    await until(3);
    expect(countsOf(2)).toEqual({ 'management.cattle.io.setting': 5, namespace: 4 });

    const closed = new Promise((resolve) => browser.on('close', resolve));

    upstream.clients.forEach((ws) => ws.terminate());
    await closed;
    front.clients.forEach((ws) => ws.terminate());
    upstream.close();
    front.close();
    await Promise.all([close(upstreamServer), close(frontServer)]);
  });
});
