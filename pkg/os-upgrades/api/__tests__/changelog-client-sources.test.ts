/**
 * @jest-environment node
 */
import 'fake-indexeddb/auto';
import { packTar } from 'modern-tar';
import { fileCacheKey, PACKAGES_TAR_ANNOTATION, CHANGELOG_URL_ANNOTATION } from '../../domain';
import { ChangelogClient, MISSING_KEPT_MS } from '../changelog-client';
import { PersistentFileCache } from '../persistent-cache';
import { fakeHttp } from './fake-http';

const SERVER = 'https://rancher.example.com';
const TAR = `${ SERVER }/files/sl-micro-6.1-base.packages.tar`;
const LIST = 'curl|(none)|8.14.1|160000.2.2|x86_64|obs://x|curl\n';
const channel = { metadata: { annotations: { [PACKAGES_TAR_ANNOTATION]: '/files/sl-micro-6.1-base.packages.tar' } } };
const logUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.updates.log`;

async function tarFetch(status = 200, contentType = 'application/x-tar') {
  const tar = await packTar([
    {
      header: {
        name: 'v1-os.packages', size: LIST.length, type: 'file'
      },
      body: LIST
    },
    {
      header: {
        name: 'v2-os.packages', size: 6, type: 'file'
      },
      body: 'broken'
    },
  ]);
  const calls: string[] = [];
  const fetchImpl = (async(url: string) => {
    calls.push(url);

    return new Response(status === 200 ? tar : 'unknwon api: changelog\n', { status, headers: { 'content-type': contentType } });
  }) as unknown as typeof fetch;

  return { fetchImpl, calls };
}

describe('ChangelogClient: package lists from a channel\'s tar', () => {
  it('reads the tar once for every version of the channel', async() => {
    const { fetchImpl, calls } = await tarFetch();
    const client = new ChangelogClient({
      serverOrigin: SERVER, adapter: fakeHttp({}).adapter, fetchImpl
    });
    const [v1, v2, v3] = await Promise.all(['v1-os', 'v2-os', 'v3-os'].map((name) => client.fetchPackages({ name }, channel)));

    expect(v1).toEqual({ state: 'ok', value: [expect.objectContaining({ name: 'curl', version: '8.14.1' })] });
    expect(v2).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.packageListError.badLine' } });
    expect(v3).toEqual({ state: 'missing' });
    expect(calls).toEqual([TAR]);
  });

  it('refuses a tar on an origin nobody allowed, without a request', async() => {
    const { fetchImpl, calls } = await tarFetch();
    const client = new ChangelogClient({
      serverOrigin: SERVER, adapter: fakeHttp({}).adapter, fetchImpl
    });
    const foreign = { metadata: { annotations: { [PACKAGES_TAR_ANNOTATION]: 'https://evil.example/x.tar' } } };

    expect(await client.fetchPackages({ name: 'v1-os' }, foreign)).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.untrustedOrigin' } });
    expect(calls).toEqual([]);
  });

  it('refuses a tar that came, after a redirect, from another origin, naming it', async() => {
    const { fetchImpl } = await tarFetch();
    const redirecting = (async(url: string, init?: Parameters<typeof fetch>[1]) => {
      const response = await fetchImpl(url, init);

      Object.defineProperty(response, 'url', { value: 'http://localhost:9999/other.tar' });

      return response;
    }) as unknown as typeof fetch;
    const client = new ChangelogClient({
      serverOrigin: SERVER, adapter: fakeHttp({}).adapter, fetchImpl: redirecting
    });

    expect(await client.fetchPackages({ name: 'v1-os' }, channel)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.redirected', values: { origin: 'http://localhost:9999' } } });
  });

  it('says "no service" for the operator\'s 400 or an HTML page where the tar should be', async() => {
    const html = await tarFetch(200, 'text/html');
    const unknown = await tarFetch(400, 'text/plain');

    expect(await new ChangelogClient({
      serverOrigin: SERVER, adapter: fakeHttp({}).adapter, fetchImpl: html.fetchImpl
    }).fetchPackages({ name: 'v1-os' }, channel)).toMatchObject({ state: 'noService', reason: 'html' });
    expect(await new ChangelogClient({
      serverOrigin: SERVER, adapter: fakeHttp({}).adapter, fetchImpl: unknown.fetchImpl
    }).fetchPackages({ name: 'v1-os' }, channel)).toMatchObject({ state: 'noService', reason: 'unknownApi' });
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !await check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ChangelogClient: the cache kept across sessions', () => {
  beforeEach(() => new PersistentFileCache().clear());

  it('a new session reads published files from the cache, without a request', async() => {
    const log = JSON.stringify([{
      id: 'SUSE-1', severity: 'low', title: 't', date: '1732636077'
    }]);
    const first = fakeHttp({ [logUrl('v1')]: { status: 200, body: log } });

    expect((await new ChangelogClient({
      serverOrigin: SERVER, adapter: first.adapter, cache: new PersistentFileCache(), userId: 'u1'
    }).fetchLog({ name: 'v1' }, undefined)).state).toBe('ok');
    await until(async() => (await new PersistentFileCache().usage()).entries === 1);
    const second = fakeHttp({});
    const again = await new ChangelogClient({
      serverOrigin: SERVER, adapter: second.adapter, cache: new PersistentFileCache(), userId: 'u1'
    }).fetchLog({ name: 'v1' }, undefined);

    expect(again).toEqual({ state: 'ok', value: [expect.objectContaining({ id: 'SUSE-1' })] });
    expect(second.requests).toHaveLength(0);
    // Another user does not read the first one's same-origin (credentialed) file.
    const other = fakeHttp({ [logUrl('v1')]: { status: 200, body: '[]' } });

    expect(await new ChangelogClient({
      serverOrigin: SERVER, adapter: other.adapter, cache: new PersistentFileCache(), userId: 'u2'
    }).fetchLog({ name: 'v1' }, undefined)).toEqual({ state: 'ok', value: [] });
    expect(other.requests).toHaveLength(1);
  });

  it('never keeps errors or "no service" answers', async() => {
    const cache = new PersistentFileCache();
    const http = fakeHttp({ [logUrl('v1')]: { status: 400, body: 'unknwon api: changelog\n' }, [logUrl('v2')]: { status: 503 } });
    const client = new ChangelogClient({
      serverOrigin: SERVER, adapter: http.adapter, cache
    });

    await client.fetchLog({ name: 'v2' }, undefined);
    await client.fetchLog({ name: 'v1' }, undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await cache.get(fileCacheKey(logUrl('v1'), true, ''))).toBeUndefined();
    expect(await cache.get(fileCacheKey(logUrl('v2'), true, ''))).toBeUndefined();
  });

  it('remembers a file found missing for a while, then asks again', async() => {
    const files = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/files/{name}.updates.log' } } };
    const url = (name: string) => `${ SERVER }/files/${ name }.updates.log`;
    let now = 1_000_000;
    const session = (http: ReturnType<typeof fakeHttp>) => new ChangelogClient({
      serverOrigin: SERVER, adapter: http.adapter, cache: new PersistentFileCache(), now: () => now
    });
    const first = fakeHttp({ [url('v1')]: { status: 200, body: '[]' }, [url('v2')]: { status: 404 } });
    const client = session(first);

    expect((await client.fetchLog({ name: 'v1' }, files)).state).toBe('ok');
    expect(await client.fetchLog({ name: 'v2' }, files)).toEqual({ state: 'missing' });
    await until(async() => (await new PersistentFileCache().usage()).entries === 2);

    const later = fakeHttp({});

    expect(await session(later).fetchLog({ name: 'v2' }, files)).toEqual({ state: 'missing' });
    expect(later.requests).toHaveLength(0);

    now += MISSING_KEPT_MS + 1;
    const published = fakeHttp({ [url('v2')]: { status: 200, body: '[]' } });

    expect(await session(published).fetchLog({ name: 'v2' }, files)).toEqual({ state: 'ok', value: [] });
    expect(published.requests).toHaveLength(1);
  });
  it('never takes a dev server\'s HTML 404 page for a missing file, nor keeps it', async() => {
    const files = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/changelog-files/{name}.updates.log' } } };
    const url = (name: string) => `${ SERVER }/changelog-files/${ name }.updates.log`;
    const page = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /changelog-files/v1.updates.log</pre>\n</body>\n</html>\n';
    const cache = new PersistentFileCache();
    const devServer = fakeHttp({ [url('v1')]: { status: 404, body: page }, [url('v2')]: { status: 404, body: page } });
    const client = new ChangelogClient({
      serverOrigin: SERVER, adapter: devServer.adapter, cache
    });

    expect(await client.fetchLog({ name: 'v1' }, files)).toMatchObject({ state: 'noService', reason: 'html' });
    expect(await client.fetchLog({ name: 'v2' }, files)).toMatchObject({ state: 'noService', reason: 'html' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await cache.get(fileCacheKey(url('v1'), true, ''))).toBeUndefined();

    // With the proxy fixed, the next session reads the file.
    const proxied = fakeHttp({ [url('v1')]: { status: 200, body: '[]' } });

    expect(await new ChangelogClient({
      serverOrigin: SERVER, adapter: proxied.adapter, cache
    }).fetchLog({ name: 'v1' }, files)).toEqual({ state: 'ok', value: [] });
  });

  it('asks again for a file an older version kept as missing (it may have been an HTML 404 page)', async() => {
    const files = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/files/{name}.updates.log' } } };
    const url = `${ SERVER }/files/old.updates.log`;
    const cache = new PersistentFileCache();

    await cache.put(fileCacheKey(url, true, ''), { osUpgradesMissingSince: 1_000_000 }, 64);
    const http = fakeHttp({ [url]: { status: 200, body: '[]' } });

    expect(await new ChangelogClient({
      serverOrigin: SERVER, adapter: http.adapter, cache, now: () => 1_000_001
    }).fetchLog({ name: 'old' }, files)).toEqual({ state: 'ok', value: [] });
    expect(http.requests).toHaveLength(1);
  });

  it('a web page for one file of a source that serves files is that file\'s error, not "missing"', async() => {
    const files = { metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: '/files/{name}.updates.log' } } };
    const url = (name: string) => `${ SERVER }/files/${ name }.updates.log`;
    const http = fakeHttp({ [url('v1')]: { status: 200, body: '[]' }, [url('v2')]: { status: 404, body: '<html><body><h1>404 Not Found</h1></body></html>' } });
    const client = new ChangelogClient({ serverOrigin: SERVER, adapter: http.adapter });

    expect((await client.fetchLog({ name: 'v1' }, files)).state).toBe('ok');
    expect(await client.fetchLog({ name: 'v2' }, files)).toEqual({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.html', values: { status: 404 } } });
  });
});
