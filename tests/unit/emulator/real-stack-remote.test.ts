/** @jest-environment node */
// The remote controller client against a tiny fake API server: its cache from a list, kept by a
// watch, its writes over REST, and a new list when the watch ends.
import http from 'http';
import { FakeHttpServer } from './fake-api-server';
import { RemoteControllerApi, resourcePath } from '../../emulator/real-stack/remote-api';
import { TypeRegistry, builtinTypes } from '../../emulator/kube/resource-types';
import { KubeObject, StoreEvent } from '../../emulator/kube/store';

const CHANNELS = '/apis/elemental.cattle.io/v1beta1/managedosversionchannels';

function channel(name: string, rv: number, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSVersionChannel',
    metadata:   {
      name, namespace: 'fleet-default', uid: `uid-${ name }`, resourceVersion: String(rv), creationTimestamp: '2026-01-01T00:00:00Z'
    },
    ...extra
  };
}

/** A fake API server: answers lists from `items`, holds watches open, records writes. */
class FakeApiServer extends FakeHttpServer {
  items: KubeObject[] = [channel('a', 10)];
  revision = 10;
  readonly requests: { method: string; url: string; auth?: string; body?: unknown }[] = [];
  event(type: string, object: KubeObject): void {
    for (const w of this.watches) {
      w.write(`${ JSON.stringify({ type, object }) }\n`);
    }
  }

  protected answer(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): void {
    const url = new URL(req.url ?? '/', 'http://x');

    this.requests.push({
      method: req.method ?? '', url: `${ url.pathname }${ url.search }`, auth: req.headers.authorization, body
    });
    res.setHeader('content-type', 'application/json');
    if (this.heldAsWatch(req, res, url)) {
      return;
    }
    if (req.method === 'GET') {
      res.end(JSON.stringify({
        kind: 'List', metadata: { resourceVersion: String(this.revision) }, items: this.items
      }));

      return;
    }
    if (req.method === 'PUT' && (body as KubeObject).metadata.resourceVersion !== '10') {
      res.writeHead(409);
      res.end(JSON.stringify({
        kind: 'Status', status: 'Failure', reason: 'Conflict', message: 'the object has been modified', code: 409
      }));

      return;
    }
    this.revision += 1;
    const written = { ...(body as KubeObject), metadata: { ...(body as KubeObject).metadata, resourceVersion: String(this.revision) } };

    res.writeHead(req.method === 'POST' ? 201 : 200);
    res.end(JSON.stringify(written));
  }
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('RemoteControllerApi: the emulated operator as a client of a real API server', () => {
  const types = new TypeRegistry(builtinTypes());
  const channelType = types.require('elemental.cattle.io.managedosversionchannel');
  let server: FakeApiServer;
  let api: RemoteControllerApi;

  beforeEach(async() => {
    server = new FakeApiServer();
    await server.listen();
    api = new RemoteControllerApi({ url: server.url, token: 'tok' }, types, [channelType]);
  });
  afterEach(async() => {
    api.stop();
    await server.close();
  });

  it('builds the REST paths of namespaced, core and status requests', () => {
    expect(resourcePath(channelType, 'fleet-default', 'a', 'status')).toBe(`/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosversionchannels/a/status`);
    expect(resourcePath(types.require('namespace'), undefined, 'x')).toBe('/api/v1/namespaces/x');
  });

  it('fills its cache from a list, then watches from the list\'s resourceVersion with the token', async() => {
    await api.start();
    expect((await api.find(channelType, 'fleet-default', 'a'))?.metadata.resourceVersion).toBe('10');
    await until(() => server.watches.length === 1);
    expect(server.requests.map((r) => r.url)).toEqual([CHANNELS, `${ CHANNELS }?watch=1&allowWatchBookmarks=true&resourceVersion=10`]);
    expect(server.requests.every((r) => r.auth === 'Bearer tok')).toBe(true);
  });

  it('keeps the cache by the watch\'s events and tells its listeners', async() => {
    const events: StoreEvent[] = [];

    await api.start();
    api.subscribe((e) => events.push(e));
    await until(() => server.watches.length === 1);
    server.event('ADDED', channel('b', 11));
    server.event('MODIFIED', channel('a', 12, { spec: { type: 'json' } }));
    server.event('DELETED', channel('b', 13));
    await until(() => events.length === 3);

    expect(events.map((e) => [e.action, e.object.metadata.name, e.revision])).toEqual([['create', 'b', 11], ['change', 'a', 12], ['remove', 'b', 13]]);
    expect((await api.list(channelType)).map((c) => [c.metadata.name, c.spec])).toEqual([['a', { type: 'json' }]]);
  });

  it('writes over REST, and its next read sees its own write before the watch brings it', async() => {
    await api.start();
    const current = await api.find(channelType, 'fleet-default', 'a') as KubeObject;
    const written = await api.update(channelType, 'fleet-default', 'a', { ...current, status: { syncedGeneration: 1 } }, 'status');

    expect(server.requests.at(-1)).toMatchObject({ method: 'PUT', url: `${ CHANNELS.replace('/managedos', '/namespaces/fleet-default/managedos') }/a/status` });
    expect(written.metadata.resourceVersion).toBe('11');
    expect((await api.find(channelType, 'fleet-default', 'a'))?.status).toEqual({ syncedGeneration: 1 });
    // An older event arriving after the write's answer does not take the cache back.
    server.event('MODIFIED', channel('a', 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api.find(channelType, 'fleet-default', 'a'))?.metadata.resourceVersion).toBe('11');
  });

  it('turns a refused write into the API server\'s error (a 409 on a stale resourceVersion)', async() => {
    await api.start();
    const stale = channel('a', 9);

    await expect(api.update(channelType, 'fleet-default', 'a', stale)).rejects.toMatchObject({
      status: 409, reason: 'Conflict', message: 'the object has been modified'
    });
  });

  it('lists again when its watch ends, and tells what changed meanwhile', async() => {
    const events: StoreEvent[] = [];

    await api.start();
    api.subscribe((e) => events.push(e));
    await until(() => server.watches.length === 1);
    server.items = [channel('c', 20)];
    server.revision = 20;
    server.watches.splice(0).forEach((w) => w.end());
    await until(() => events.length === 2);

    expect(events.map((e) => [e.action, e.object.metadata.name])).toEqual([['create', 'c'], ['remove', 'a']]);
    await until(() => server.watches.length === 1);
    expect(server.requests.at(-1)?.url).toContain('resourceVersion=20');
  });
});
