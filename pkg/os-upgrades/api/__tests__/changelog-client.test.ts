import { ChangelogClient } from '../changelog-client';
import { CHANGELOG_URL_ANNOTATION } from '../../domain';
import { fakeHttp, Reply } from './fake-http';

const SERVER = 'https://rancher.example.com';
const logUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.updates.log`;
const packagesUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.packages`;
const LOG = JSON.stringify([{
  id: 'SUSE-SLE-Micro-6.1-2024-123', severity: 'important', title: 'Security update for curl', date: '1732636077'
}]);
const PACKAGES = 'curl|(none)|8.14.1|160000.2.2|x86_64|obs://x|curl\n';

function clientWith(routes: Record<string, Reply>, options: { allowedOrigins?: string[]; concurrency?: number; maxBytes?: number } = {}) {
  const fake = fakeHttp(routes);
  const client = new ChangelogClient({
    serverOrigin: SERVER, adapter: fake.adapter, ...options
  });

  return { fake, client };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ChangelogClient', () => {
  it('fetches the log from the operator endpoint and validates it with the domain parser', async() => {
    const { client, fake } = clientWith({ [logUrl('v1')]: { status: 200, body: LOG } });
    const result = await client.fetchLog({ name: 'v1' }, undefined);

    expect(result).toEqual({
      state: 'ok',
      value: [expect.objectContaining({
        id: 'SUSE-SLE-Micro-6.1-2024-123', severity: 'important', date: 1732636077
      })]
    });
    // Same-origin requests carry the session cookie without "include", which would send it after a redirect too.
    expect(fake.requests[0].withCredentials).toBe(false);
    // The headers axios sent before the client called its adapter itself: a source sees no change.
    expect(fake.requests[0].method).toBe('get');
    expect(fake.requests[0].headers.toJSON()).toEqual({ Accept: 'application/json, text/plain, */*' });
  });

  it('refuses an answer that came, after a redirect, from an origin that is neither the server nor allowed, and says where from', async() => {
    const { client } = clientWith({
      [logUrl('v1')]: {
        status: 200, body: LOG, redirectedTo: 'http://localhost:9999/evil.log'
      }
    });

    expect(await client.fetchLog({ name: 'v1' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.redirected', values: { origin: 'http://localhost:9999' } } });
  });

  it('fetches the package list beside the log', async() => {
    const { client } = clientWith({ [packagesUrl('v1')]: { status: 200, body: PACKAGES } });

    expect(await client.fetchPackages({ name: 'v1' }, undefined)).toEqual({ state: 'ok', value: [expect.objectContaining({ name: 'curl', version: '8.14.1' })] });
  });

  it('reports a 404 of a configured URL as missing, not as an error', async() => {
    const { client } = clientWith({});
    const channel = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/files/{name}.updates.log' } } };

    expect(await client.fetchLog({ name: 'v1' }, channel)).toEqual({ state: 'missing' });
  });

  describe('no changelog service', () => {
    const UNKNOWN_API = { status: 400, body: 'unknwon api: changelog\n' };
    const INDEX = { status: 200, body: '<!DOCTYPE html><html><head></head><body></body></html>' };

    it.each([
      ['the current operator\'s 400 "unknwon api"', UNKNOWN_API, 'unknownApi'],
      ['Rancher\'s index.html', INDEX, 'html'],
      ['a 404 on the default path', { status: 404 }, 'notFound'],
    ])('asks once per session on %s, and answers every other file "no service" without a request', async(_, reply, reason) => {
      const names = ['a', 'b', 'c', 'd'];
      const { client, fake } = clientWith(Object.fromEntries(names.flatMap((name) => [[logUrl(name), reply], [packagesUrl(name), reply]])));
      const results = await Promise.all(names.map((name) => client.fetchLog({ name }, undefined)));

      expect(results).toEqual(names.map(() => ({
        state: 'noService', reason, source: 'default'
      })));
      expect(await client.fetchPackages({ name: 'a' }, undefined)).toEqual({
        state: 'noService', reason, source: 'default'
      });
      expect(fake.requests).toHaveLength(1);
      expect(client.sourceState('default')).toBe(reason);
    });

    it('keeps a real format error of a real file that image\'s error, and the source live', async() => {
      const { client } = clientWith({ [logUrl('a')]: { status: 200, body: '{broken' }, [logUrl('b')]: { status: 200, body: LOG } });

      expect(await client.fetchLog({ name: 'a' }, undefined)).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.error.invalidJson' } });
      expect((await client.fetchLog({ name: 'b' }, undefined)).state).toBe('ok');
      expect(client.sourceState('default')).toBe('live');
    });
  });

  it('reports a malformed log with the parser reason', async() => {
    const { client } = clientWith({ [logUrl('v1')]: { status: 200, body: '{"not":"a list"}' }, [logUrl('v2')]: { status: 200, body: '[{' } });

    expect(await client.fetchLog({ name: 'v1' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.error.notAList', values: {} } });
    expect(await client.fetchLog({ name: 'v2' }, undefined)).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.error.invalidJson' } });
  });

  it('reports a malformed package list under the changelog keys', async() => {
    const { client } = clientWith({ [packagesUrl('v1')]: { status: 200, body: 'just|three|fields\n' } });

    expect(await client.fetchPackages({ name: 'v1' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.packageListError.badLine', values: { line: 1 } } });
  });

  it('reports server errors, timeouts and network failures, each with its own reason', async() => {
    const { client } = clientWith({
      [logUrl('a')]: { status: 503 }, [logUrl('b')]: { fail: 'timeout' }, [logUrl('c')]: { fail: 'network' }
    });

    expect(await client.fetchLog({ name: 'a' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.status', values: { status: 503 } } });
    expect(await client.fetchLog({ name: 'b' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.timeout', values: { seconds: 15 } } });
    expect(await client.fetchLog({ name: 'c' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.network' } });
  });

  it('passes a timeout to every request', async() => {
    const { client, fake } = clientWith({ [logUrl('v1')]: { status: 200, body: '[]' } });

    await client.fetchLog({ name: 'v1' }, undefined);
    expect(fake.requests[0].timeout).toBe(15000);
  });

  describe('size cap', () => {
    it('aborts a download as soon as it passes the cap', async() => {
      const { client, fake } = clientWith({
        [logUrl('big')]: {
          progress: [500, 1500, 99999], status: 200, body: '[]'
        }
      }, { maxBytes: 1000 });

      expect(await client.fetchLog({ name: 'big' }, undefined)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.tooLarge', values: { limit: 1000 } } });
      expect((fake.requests[0].signal as AbortSignal).aborted).toBe(true);
    });

    it('checks the final length when no progress was reported', async() => {
      const { client } = clientWith({ [logUrl('big')]: { status: 200, body: `[${ ' '.repeat(2000) }]` } }, { maxBytes: 1000 });

      expect(await client.fetchLog({ name: 'big' }, undefined)).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.tooLarge' } });
    });
  });

  describe('URL order and trust', () => {
    it('follows the version changelogURL first', async() => {
      const { client, fake } = clientWith({ [`${ SERVER }/mine/v1.log`]: { status: 200, body: '[]' } });
      const channel = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/other/{name}.log' } } };

      expect(await client.fetchLog({ name: 'v1', changelogURL: '/mine/v1.log' }, channel)).toEqual({ state: 'ok', value: [] });
      expect(fake.requests.map((r) => r.url)).toEqual([`${ SERVER }/mine/v1.log`]);
    });

    it('refuses a channel URL on an origin nobody allowed, without sending anything', async() => {
      const { client, fake } = clientWith({});
      const channel = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: 'https://evil.example/{name}.log' } } };

      expect(await client.fetchLog({ name: 'v1' }, channel)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.untrustedOrigin', values: { origin: 'https://evil.example' } } });
      expect(fake.requests).toHaveLength(0);
    });

    it('fetches from an allowed origin without credentials', async() => {
      const { client, fake } = clientWith({ 'https://cdn.example/v1.log': { status: 200, body: '[]' } }, { allowedOrigins: ['https://cdn.example'] });
      const channel = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: 'https://cdn.example/{name}.log' } } };

      expect(await client.fetchLog({ name: 'v1' }, channel)).toEqual({ state: 'ok', value: [] });
      expect(fake.requests[0].withCredentials).toBe(false);
    });

    it('never fetches a javascript: URL', async() => {
      const { client, fake } = clientWith({});

      expect(await client.fetchLog({ name: 'v1', changelogURL: 'javascript:alert(1)' }, undefined)).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.notHttp' } });
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('cache', () => {
    it('fetches a file once per session, and shares a download between callers', async() => {
      const { client, fake } = clientWith({ [logUrl('v1')]: { status: 200, body: LOG }, [logUrl('gone')]: { status: 404 } });

      const [a, b] = await Promise.all([client.fetchLog({ name: 'v1' }, undefined), client.fetchLog({ name: 'v1' }, undefined)]);
      const c = await client.fetchLog({ name: 'v1' }, undefined);

      await client.fetchLog({ name: 'gone' }, undefined);
      await client.fetchLog({ name: 'gone' }, undefined);

      expect(a).toEqual(b);
      expect(c).toEqual(a);
      expect(fake.requests.map((r) => r.url)).toEqual([logUrl('v1'), logUrl('gone')]);
    });

    it('does not cache errors: the next call tries again', async() => {
      const routes: Record<string, Reply> = { [logUrl('v1')]: { status: 503 } };
      const { client, fake } = clientWith(routes);

      expect((await client.fetchLog({ name: 'v1' }, undefined)).state).toBe('error');
      routes[logUrl('v1')] = { status: 200, body: '[]' };
      expect(await client.fetchLog({ name: 'v1' }, undefined)).toEqual({ state: 'ok', value: [] });
      expect(fake.requests).toHaveLength(2);
    });
  });

  describe('concurrency and cancellation', () => {
    it('runs at most `concurrency` downloads at a time', async() => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      const routes = Object.fromEntries(names.map((name): [string, Reply] => [logUrl(name), { hang: true }]));
      const { client, fake } = clientWith(routes, { concurrency: 2 });
      const results = names.map((name) => client.fetchLog({ name }, undefined));

      // The first file probes the source alone; then at most two at a time.
      await flush();
      expect(fake.requests).toHaveLength(1);
      fake.release(logUrl('a'), { status: 200, body: '[]' });
      await flush();
      await flush();
      expect(fake.requests).toHaveLength(3);
      fake.release(logUrl('b'), { status: 200, body: '[]' });
      await flush();
      await flush();
      expect(fake.requests).toHaveLength(4);
      for (const name of names) {
        fake.release(logUrl(name), { status: 200, body: '[]' });
        await flush();
      }
      expect((await Promise.all(results)).map((r) => r.state)).toEqual(names.map(() => 'ok'));
    });

    it.each([['http/1.1', 6], ['h2', 32], ['', 6]])('without a limit given, follows the page connection (%s: %i at a time)', async(protocol, limit) => {
      const original = Object.getOwnPropertyDescriptor(performance, 'getEntriesByType');
      const asked: string[] = [];
      const spy = (kind: string) => {
        asked.push(kind);

        return [{ nextHopProtocol: protocol }];
      };

      Object.defineProperty(performance, 'getEntriesByType', { value: spy, configurable: true });
      try {
        const names = Array.from({ length: 40 }, (_, i) => `v${ i }`);
        const { client, fake } = clientWith(Object.fromEntries(names.map((name): [string, Reply] => [logUrl(name), { hang: true }])));

        names.forEach((name) => client.fetchLog({ name }, undefined));
        // The first file probes the source alone; then `limit` at a time.
        await flush();
        fake.release(logUrl('v0'), { status: 200, body: '[]' });
        for (let i = 0; i < 5; i++) {
          await flush();
        }
        expect(asked).toContain('navigation');
        expect(fake.requests).toHaveLength(1 + limit);
      } finally {
        if (original) {
          Object.defineProperty(performance, 'getEntriesByType', original);
        } else {
          delete (performance as { getEntriesByType?: unknown }).getEntriesByType;
        }
      }
    });

    it('aborts the download when its only caller no longer needs it, and does not cache that', async() => {
      const routes: Record<string, Reply> = { [logUrl('v1')]: { hang: true } };
      const { client, fake } = clientWith(routes);
      const controller = new AbortController();
      const result = client.fetchLog({ name: 'v1' }, undefined, controller.signal);

      await flush();
      controller.abort();
      expect(await result).toEqual({ state: 'cancelled' });
      expect((fake.requests[0].signal as AbortSignal).aborted).toBe(true);

      routes[logUrl('v1')] = { status: 200, body: '[]' };
      expect(await client.fetchLog({ name: 'v1' }, undefined)).toEqual({ state: 'ok', value: [] });
    });

    it('keeps a shared download going while another caller still waits for it', async() => {
      const { client, fake } = clientWith({ [logUrl('v1')]: { hang: true } });
      const leaving = new AbortController();
      const first = client.fetchLog({ name: 'v1' }, undefined, leaving.signal);
      const second = client.fetchLog({ name: 'v1' }, undefined);

      await flush();
      leaving.abort();
      expect(await first).toEqual({ state: 'cancelled' });
      expect((fake.requests[0].signal as AbortSignal).aborted).toBe(false);
      fake.release(logUrl('v1'), { status: 200, body: '[]' });
      expect(await second).toEqual({ state: 'ok', value: [] });
    });

    it('never starts a queued download whose caller left', async() => {
      const { client, fake } = clientWith({ [logUrl('a')]: { hang: true }, [logUrl('b')]: { status: 200, body: '[]' } }, { concurrency: 1 });
      const controller = new AbortController();

      client.fetchLog({ name: 'a' }, undefined);
      const queued = client.fetchLog({ name: 'b' }, undefined, controller.signal);

      await flush();
      controller.abort();
      expect(await queued).toEqual({ state: 'cancelled' });
      fake.release(logUrl('a'), { status: 200, body: '[]' });
      await flush();
      expect(fake.requests.map((r) => r.url)).toEqual([logUrl('a')]);
    });

    it('returns cancelled at once for a signal that already aborted', async() => {
      const { client, fake } = clientWith({ [logUrl('v1')]: { status: 200, body: '[]' } });

      expect(await client.fetchLog({ name: 'v1' }, undefined, AbortSignal.abort())).toEqual({ state: 'cancelled' });
      expect(fake.requests).toHaveLength(0);
    });
  });
});
