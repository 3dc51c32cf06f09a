/* global jest */
import stevePaginationUtils from '@shell/plugins/steve/steve-pagination-utils';
import { ChannelVersionsQuery, countChannelVersions, NAMES_PER_REQUEST, versionsByName } from '../version-queries';

interface FindPageCall {
  type: string;
  opt: { pagination: unknown; transient: boolean; watch: boolean };
}

/** A shell store answering findPage with `count` and the query string the shell would send. */
function shellStore() {
  const calls: FindPageCall[] = [];
  const store = {
    getters:  {},
    dispatch: jest.fn((action: string, payload: FindPageCall) => {
      calls.push(payload);

      return Promise.resolve({ data: [{ metadata: { name: `answer-${ calls.length }` } }], pagination: { result: { count: 42, revision: '7' } } });
    }),
  };
  const query = (i: number) => decodeURIComponent(stevePaginationUtils.createParamsForPagination({ opt: { pagination: calls[i].opt.pagination } as never }) ?? '');

  return {
    store, calls, query
  };
}

describe('version queries', () => {
  it('counts a channel with one page of one, filtered by namespace and channel label only', async() => {
    const { store, calls, query } = shellStore();

    expect(await countChannelVersions(store, 'fleet-default', 'sl-micro-6.1-base')).toBe(42);
    expect(store.dispatch).toHaveBeenCalledWith('management/findPage', expect.objectContaining({ type: 'elemental.cattle.io.managedosversion' }));
    expect(calls[0].opt).toMatchObject({ transient: true, watch: false });
    expect(query(0).split('&').sort()).toEqual([
      'filter=metadata.labels[elemental.cattle.io/channel] IN (sl-micro-6.1-base)',
      'filter=metadata.namespace="fleet-default"',
      'page=1',
      'pagesize=1',
    ]);
  });

  it('reads pinned versions by name in batches, each name once', async() => {
    const { store, calls, query } = shellStore();
    const names = Array.from({ length: NAMES_PER_REQUEST + 3 }, (_, i) => `v${ i }`);
    const found = await versionsByName(store, 'fleet-default', [...names, 'v0', '']);

    expect(calls).toHaveLength(2);
    expect(found).toHaveLength(2);
    const first = query(0);

    expect(first).toContain('filter=metadata.namespace="fleet-default"');
    expect(first).toContain(`filter=${ names.slice(0, NAMES_PER_REQUEST).map((n) => `metadata.name=${ n }`).join(',') }`);
    expect(query(1)).toContain('filter=metadata.name=v50,metadata.name=v51,metadata.name=v52');
  });

  describe('a channel\'s versions', () => {
    /** A dashboard store that pages the type (its `paginationEnabled` getter), answering `answers` in turn. */
    function pagingStore(answers: (() => Promise<unknown>)[]) {
      const listeners: ((event: { revision?: string }) => void)[] = [];
      const store = {
        getters:  { 'management/paginationEnabled': (args: { id: string }) => args.id === 'elemental.cattle.io.managedosversion' },
        dispatch: jest.fn((action: string, payload: { id?: string; callback?: (event: { revision?: string }) => void }) => {
          if (action === 'management/watchEvent' && payload.callback) {
            listeners.push(payload.callback);
          }

          return action === 'management/findPage' ? (answers.shift() ?? answers[0])() : Promise.resolve();
        }),
      };

      return { store, listeners };
    }
    const page = (revision: string) => () => Promise.resolve({ data: [{ metadata: { name: 'v1' } }], pagination: { result: { count: 1, revision } } });

    it('reads the channel transiently at a revision, and listens once to the type\'s resource.changes events until stopped', async() => {
      const { store, listeners } = pagingStore([page('10'), page('12')]);
      const changes: (string | undefined)[] = [];
      const query = new ChannelVersionsQuery(store, 'fleet-default', 'sl-micro-6.1-base', (revision) => changes.push(revision));

      expect(await query.request()).toEqual({
        items: [{ metadata: { name: 'v1' } }], revision: '10', count: 1
      });
      expect((await query.request('12')).revision).toBe('12');
      const [, second] = store.dispatch.mock.calls.filter(([action]) => action === 'management/findPage');

      expect(second[1]).toMatchObject({
        type: 'elemental.cattle.io.managedosversion',
        opt:  {
          transient: true, watch: false, revision: '12'
        }
      });
      const watches = store.dispatch.mock.calls.filter(([action]) => action === 'management/watchEvent');

      expect(watches).toHaveLength(1);
      expect(watches[0][1]).toMatchObject({ event: 'resource.changes', params: { type: 'elemental.cattle.io.managedosversion', mode: 'resource.changes' } });
      listeners[0]({ revision: '13' });
      expect(changes).toEqual(['13']);

      await query.stop();
      expect(store.dispatch).toHaveBeenCalledWith('management/unwatchEvent', expect.objectContaining({ event: 'resource.changes', id: watches[0][1].id }));
    });

    it('asks again while a replica does not know the revision yet, and gives up on any other error', async() => {
      // The shell's store rejects with Steve's error body, not an Error.
      const unknown = () => Promise.reject(Object.assign(new Error('unknown revision'), { status: 400, code: 'unknown revision' }));
      const { store } = pagingStore([unknown, page('20')]);

      expect((await new ChannelVersionsQuery(store, 'fleet-default', 'c').request('20')).revision).toBe('20');
      const failing = pagingStore([() => Promise.reject(Object.assign(new Error('forbidden'), { status: 403 }))]);

      await expect(new ChannelVersionsQuery(failing.store, 'fleet-default', 'c').request('20')).rejects.toMatchObject({ status: 403 });
      expect(failing.store.dispatch.mock.calls.filter(([action]) => action === 'management/findPage')).toHaveLength(1);
    });

    it('uses the label selector through the store, unwatched, where the shell does not page the type', async() => {
      const { store } = shellStore();

      await new ChannelVersionsQuery(store, 'fleet-default', 'c', () => undefined).request();
      expect(store.dispatch).toHaveBeenCalledWith('management/findLabelSelector', {
        type: 'elemental.cattle.io.managedosversion', matching: { namespace: 'fleet-default', labelSelector: { matchLabels: { 'elemental.cattle.io/channel': 'c' } } }, opt: { transient: true }
      });
      expect(store.dispatch.mock.calls.some(([action]) => action === 'management/watchEvent')).toBe(false);
    });
  });
});
