/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import stevePaginationUtils from '@shell/plugins/steve/steve-pagination-utils';
import { firstPoolPage } from '../../domain';
import { usePoolPageStore } from '../pool-page';
import { usePinnedVersionsStore } from '../pinned-versions';

const POOL = 'elemental.cattle.io.managedosimage';
const VERSION = 'elemental.cattle.io.managedosversion';

interface Call {
  type: string;
  id?: string;
  params?: { type: string };
  callback?: (event: { revision?: string }) => void;
  opt?: { pagination: unknown; transient: boolean; revision?: string };
}

/** A shell store paging pools: `count` pools named pool-001…, answered a page at a time; versions by name. */
function shellStore(count: number) {
  const calls: Call[] = [];
  const watchers: Call[] = [];
  const store = {
    getters:  { 'management/paginationEnabled': () => true },
    dispatch: jest.fn((action: string, payload: Call) => {
      if (action === 'management/watchEvent') {
        watchers.push(payload);

        return Promise.resolve();
      }
      if (action !== 'management/findPage') {
        return Promise.resolve();
      }
      calls.push(payload);
      const query = new URLSearchParams(stevePaginationUtils.createParamsForPagination({ opt: { pagination: payload.opt?.pagination } as never }) ?? '');

      if (payload.type === VERSION) {
        const names = (query.getAll('filter').find((f) => f.startsWith('metadata.name=')) ?? '').split(',').map((f) => f.replace(/^metadata\.name="?|"$/g, ''));

        return Promise.resolve({
          data: names.filter((n) => n !== 'gone').map((name) => ({
            metadata: {
              name, namespace: 'fleet-default', resourceVersion: '1'
            },
            spec: { version: 'v1', type: 'container' }
          })),
          pagination: { result: { count: names.length } }
        });
      }
      const page = Number(query.get('page'));
      const size = Number(query.get('pagesize'));
      const names = Array.from({ length: count }, (_, i) => `pool-${ String(i + 1).padStart(3, '0') }`).slice((page - 1) * size, page * size);

      return Promise.resolve({ data: names.map((name) => ({ metadata: { name } })), pagination: { result: { count, revision: '5' } } });
    }),
  };
  const query = (i: number) => decodeURIComponent(stevePaginationUtils.createParamsForPagination({ opt: { pagination: calls[i].opt?.pagination } as never }) ?? '');
  const changed = (type: string, revision: string) => watchers.filter((w) => w.params?.type === type).forEach((w) => w.callback?.({ revision }));

  return {
    store, calls, query, changed
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => setActivePinia(createPinia()));

describe('the pools list\'s page of pools', () => {
  it('reads one page, sorted by name, with the count of every pool, and shows it again without a request', async() => {
    const { store, calls, query } = shellStore(200);
    const page = usePoolPageStore();

    await page.show(store, firstPoolPage(50));
    expect(page.pools).toHaveLength(50);
    expect(page.count).toBe(200);
    expect(calls[0]).toMatchObject({ type: POOL, opt: { transient: true } });
    expect(query(0).split('&')).toEqual(expect.arrayContaining(['page=1', 'pagesize=50', 'sort=metadata.name,metadata.namespace']));

    await page.show(store, firstPoolPage(50));
    expect(calls).toHaveLength(1);
  });

  it('reads the page again at the revision of a change of any pool, and another page when asked', async() => {
    const { store, calls, changed } = shellStore(120);
    const page = usePoolPageStore();

    await page.show(store, firstPoolPage(50));
    changed(POOL, '9');
    await flush();
    expect(calls[1].opt?.revision).toBe('9');

    await page.show(store, {
      ...firstPoolPage(50), page: 3, search: 'pool-1'
    });
    expect(page.pools.map((p) => (p as { metadata: { name: string } }).metadata.name)).toEqual(['pool-101', 'pool-102', 'pool-103', 'pool-104', 'pool-105', 'pool-106', 'pool-107', 'pool-108', 'pool-109', 'pool-110', 'pool-111', 'pool-112', 'pool-113', 'pool-114', 'pool-115', 'pool-116', 'pool-117', 'pool-118', 'pool-119', 'pool-120']);
    expect(calls.some((call) => JSON.stringify(call.opt?.pagination).includes('pool-1'))).toBe(true);
  });

  it('shows the last page that has pools when the one asked for is past the end', async() => {
    const { store } = shellStore(60);
    const page = usePoolPageStore();

    await page.show(store, { ...firstPoolPage(50), page: 4 });
    expect(page.request.page).toBe(2);
    expect(page.pools).toHaveLength(10);
  });

  it('stops watching and forgets the page on reset', async() => {
    const { store, calls } = shellStore(10);
    const page = usePoolPageStore();

    await page.show(store, firstPoolPage());
    page.reset();
    expect(store.dispatch).toHaveBeenCalledWith('management/unwatchEvent', expect.objectContaining({ id: 'os-upgrades/pools/page' }));
    await page.show(store, firstPoolPage());
    expect(calls).toHaveLength(2);
  });
});

describe('the versions the pools in view pin', () => {
  it('reads each name once, keeps the ones missing, and reads the held names again when a version changes', async() => {
    const { store, calls, changed } = shellStore(0);
    const pins = usePinnedVersionsStore();
    const names = new Map([['fleet-default', ['a', 'b', 'gone']]]);

    await pins.ensure(store, names);
    expect(pins.versionsOf(names).map((v) => v.name)).toEqual(['a', 'b']);
    await pins.ensure(store, new Map([['fleet-default', ['b', 'gone']]]));
    expect(calls).toHaveLength(1);

    changed(VERSION, '3');
    await flush();
    expect(calls).toHaveLength(2);
    pins.reset();
  });
});
