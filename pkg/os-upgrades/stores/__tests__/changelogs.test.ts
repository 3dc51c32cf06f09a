/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { ChangelogClient } from '../../api/changelog-client';
import { fakeHttp, Reply } from '../../api/__tests__/fake-http';
import { useChangelogsStore } from '../changelogs';

const SERVER = 'https://rancher.example.com';
const logUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.updates.log`;
const version = (name: string) => ({ name, namespace: 'fleet-default' });
const shellStore = { dispatch: jest.fn().mockResolvedValue(undefined), getters: {} };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function storeWith(routes: Record<string, Reply>) {
  const fake = fakeHttp(routes);
  const store = useChangelogsStore();

  // A live source: its 404s are missing files, and nothing waits for a probe.
  store.useClient(new ChangelogClient({
    serverOrigin: SERVER, adapter: fake.adapter, liveSources: ['default']
  }));

  return { store, fake };
}

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('changelogs store', () => {
  it('keeps one result per version and hands the logs to the aggregation by name', async() => {
    const { store } = storeWith({ [logUrl('a')]: { status: 200, body: '[{"id":"SUSE-1"}]' }, [logUrl('c')]: { status: 500 } });

    await store.load(shellStore, 'log', [version('a'), version('b'), version('c')], undefined);

    expect(store.log(version('a'))).toEqual({ state: 'ok', value: [expect.objectContaining({ id: 'SUSE-1' })] });
    expect(store.log(version('b'))).toEqual({ state: 'missing' });
    expect(store.log(version('c'))).toMatchObject({ state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.status' } });
    expect(Object.keys(store.logsByName([version('a'), version('b'), version('c')]))).toEqual(['a']);
    expect(store.progress('log', [version('a'), version('b'), version('c'), version('d')])).toEqual({ done: 3, total: 4 });
  });

  it('sums up what came back: a web page or an error is a file that could not be read, never a missing one', async() => {
    const { store } = storeWith({
      [logUrl('a')]:    { status: 200, body: '[]' },
      [logUrl('page')]: { status: 404, body: '<!DOCTYPE html><html><body>Cannot GET</body></html>' },
      [logUrl('down')]: { status: 503 },
    });
    const versions = [version('a'), version('page'), version('down'), version('gone')];

    await store.load(shellStore, 'log', versions, undefined);

    expect(store.answers('log', versions)).toEqual({
      verdict: 'answered', total: 4, read: 1, missing: 1, noService: 0, failed: 2, pending: 0
    });
    expect(store.answers('log', [version('page'), version('down')]).verdict).toBe('unreachable');
  });

  it('shows loading while a file is on its way, and progress counts only settled files', async() => {
    const { store, fake } = storeWith({ [logUrl('slow')]: { hang: true }, [logUrl('fast')]: { status: 200, body: '[]' } });
    const loading = store.load(shellStore, 'log', [version('slow'), version('fast')], undefined);

    await flush();
    expect(store.log(version('slow'))).toEqual({ state: 'loading' });
    expect(store.log(version('fast'))).toEqual({ state: 'ok', value: [] });
    expect(store.progress('log', [version('slow'), version('fast')])).toEqual({ done: 1, total: 2 });
    fake.release(logUrl('slow'), { status: 200, body: '[]' });
    await loading;
    expect(store.progress('log', [version('slow'), version('fast')])).toEqual({ done: 2, total: 2 });
  });

  it('forgets a load its caller cancelled, so the next page loads it again', async() => {
    const routes: Record<string, Reply> = { [logUrl('a')]: { hang: true } };
    const { store } = storeWith(routes);
    const controller = new AbortController();
    const loading = store.load(shellStore, 'log', [version('a')], undefined, controller.signal);

    await flush();
    controller.abort();
    await loading;
    expect(store.log(version('a'))).toBeUndefined();

    routes[logUrl('a')] = { status: 200, body: '[]' };
    await store.load(shellStore, 'log', [version('a')], undefined);
    expect(store.log(version('a'))).toEqual({ state: 'ok', value: [] });
  });

  it('keeps loading a file another caller still needs', async() => {
    const { store, fake } = storeWith({ [logUrl('a')]: { hang: true } });
    const leaving = new AbortController();
    const first = store.load(shellStore, 'log', [version('a')], undefined, leaving.signal);
    const second = store.load(shellStore, 'log', [version('a')], undefined);

    await flush();
    leaving.abort();
    await first;
    expect(store.log(version('a'))).toEqual({ state: 'loading' });
    fake.release(logUrl('a'), { status: 200, body: '[]' });
    await second;
    expect(store.log(version('a'))).toEqual({ state: 'ok', value: [] });
  });

  it('does not fetch again what it has, but retries what failed', async() => {
    const routes: Record<string, Reply> = { [logUrl('a')]: { status: 200, body: '[]' }, [logUrl('b')]: { fail: 'network' } };
    const { store, fake } = storeWith(routes);

    await store.load(shellStore, 'log', [version('a'), version('b')], undefined);
    routes[logUrl('b')] = { status: 200, body: '[]' };
    await store.load(shellStore, 'log', [version('a'), version('b')], undefined);

    expect(fake.requests.map((r) => r.url)).toEqual([logUrl('a'), logUrl('b'), logUrl('b')]);
    expect(store.log(version('b'))).toEqual({ state: 'ok', value: [] });
  });

  it('creates its client once, with the allow-list from the Rancher setting', async() => {
    const store = useChangelogsStore();
    const dispatch = jest.fn().mockResolvedValue({ value: 'https://cdn.example.com' });

    store.useClient(undefined);
    const [a, b] = await Promise.all([store.client({ dispatch, getters: {} }), store.client({ dispatch, getters: {} })]);

    expect(a).toBe(b);
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(a.urls({ name: 'v1' }, { metadata: { annotations: { 'os-upgrades.cattle.io/changelog-url': 'https://cdn.example.com/{name}' } } }).log).toBe('https://cdn.example.com/v1');
  });
});
