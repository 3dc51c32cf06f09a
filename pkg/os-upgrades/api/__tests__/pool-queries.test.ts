/* global jest */
import stevePaginationUtils from '@shell/plugins/steve/steve-pagination-utils';
import { poolsLabelledWithVersion } from '../pool-queries';

interface Call {
  action: string;
  payload: { type: string; opt: { pagination?: unknown; transient?: boolean }; matching?: unknown };
}

/** A shell store that pages pools or not, answering every read with one pool. */
function shellStore(pages: boolean) {
  const calls: Call[] = [];
  const store = {
    getters:  { 'management/paginationEnabled': (args: { id: string }) => pages && args.id === 'elemental.cattle.io.managedosimage' },
    dispatch: jest.fn((action: string, payload: Call['payload']) => {
      calls.push({ action, payload });

      return Promise.resolve({ data: [{ metadata: { name: 'pool-a' } }], pagination: { result: { count: 1, revision: '3' } } });
    }),
  };
  const query = (i: number) => decodeURIComponent(stevePaginationUtils.createParamsForPagination({ opt: { pagination: calls[i].payload.opt.pagination } as never }) ?? '');

  return {
    store, calls, query
  };
}

describe('pool queries', () => {
  it('reads only the pools of the namespace labelled with the version, transiently, in one request', async() => {
    const { store, calls, query } = shellStore(true);

    expect(await poolsLabelledWithVersion(store, 'fleet-default', 'v2-2-0-3-12')).toEqual([{ metadata: { name: 'pool-a' } }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ action: 'management/findPage', payload: { type: 'elemental.cattle.io.managedosimage', opt: { transient: true } } });
    expect(query(0).split('&').sort()).toEqual([
      'filter=metadata.labels[elemental.cattle.io/managed-os-version-name] IN (v2-2-0-3-12)',
      'filter=metadata.namespace="fleet-default"',
      // FilterArgs: every match, in one page.
      'pagesize=100000',
    ]);
  });

  it('asks the store by label selector where the shell does not page pools', async() => {
    const { store, calls } = shellStore(false);

    expect(await poolsLabelledWithVersion(store, 'fleet-default', 'v2-2-0-3-12')).toHaveLength(1);
    expect(calls).toEqual([{
      action:  'management/findLabelSelector',
      payload: {
        type: 'elemental.cattle.io.managedosimage', matching: { namespace: 'fleet-default', labelSelector: { matchLabels: { 'elemental.cattle.io/managed-os-version-name': 'v2-2-0-3-12' } } }, opt: { transient: true }
      },
    }]);
  });
});
