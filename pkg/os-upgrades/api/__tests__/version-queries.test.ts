/* global jest */
import stevePaginationUtils from '@shell/plugins/steve/steve-pagination-utils';
import { countChannelVersions, NAMES_PER_REQUEST, versionsByName } from '../version-queries';

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
});
