/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { useChannelCountsStore } from '../channel-counts';

const CHANNELS = [
  {
    namespace: 'fleet-default', channel: 'base', syncedAt: 't1'
  },
  {
    namespace: 'fleet-default', channel: 'kernel', syncedAt: 't1'
  },
  {
    namespace: 'fleet-default', channel: 'empty', syncedAt: 't1'
  },
];
const SUMMARY = { summary: [{ property: 'metadata.labels[elemental.cattle.io/channel]', counts: { base: { total: 80 }, kernel: { total: 3 } } }], data: [] };

/** A shell store of a Rancher at `version` paging versions, answering the summary list with `summary`, and each page of one with its count. */
function shell(summary: unknown, version = 'v2.15.0') {
  const requests: string[] = [];
  const dispatch = jest.fn((action: string, payload: { url?: string; opt?: { pagination?: { labelSelector?: { matchLabels?: Record<string, string> } } } }) => {
    if (action === 'management/request') {
      requests.push(payload.url ?? '');

      return Promise.resolve(summary);
    }
    if (action === 'management/findPage') {
      const channel = payload.opt?.pagination?.labelSelector?.matchLabels?.['elemental.cattle.io/channel'] ?? '';

      requests.push(`page of ${ channel }`);

      return Promise.resolve({ data: [{}], pagination: { result: { count: channel.length } } });
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  const getters = {
    'management/byId':              (type: string, id: string) => (type === 'management.cattle.io.setting' && id === 'server-version' ? { value: version } : undefined),
    'management/paginationEnabled': () => true,
  };

  return { store: { dispatch, getters }, requests };
}

describe('channel counts store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('counts every channel of a namespace from one summary request, a channel it does not name as empty', async() => {
    const counts = useChannelCountsStore();
    const { store, requests } = shell(SUMMARY);

    await counts.load(store as never, CHANNELS);

    expect(requests).toHaveLength(1);
    expect(requests[0]).toBe('/v1/elemental.cattle.io.managedosversions/fleet-default?summary=metadata.labels%5Belemental.cattle.io%2Fchannel%5D&summaryonly=true');
    expect(CHANNELS.map((c) => counts.countOf(c.namespace, c.channel))).toEqual([
      { state: 'ready', count: 80 }, { state: 'ready', count: 3 }, { state: 'ready', count: 0 }
    ]);
    // Nothing synced since: nothing is asked again.
    await counts.load(store as never, CHANNELS);
    expect(requests).toHaveLength(1);
  });

  it('counts channel by channel on a Rancher before 2.15, whose Steve would answer every item with the summary', async() => {
    const counts = useChannelCountsStore();
    const { store, requests } = shell(SUMMARY, 'v2.14.4');

    await counts.load(store as never, CHANNELS);

    expect(requests).toEqual(['page of base', 'page of kernel', 'page of empty']);
    expect(counts.countOf('fleet-default', 'base')).toEqual({ state: 'ready', count: 4 });
  });

  it('counts channel by channel where Steve answers no summary, and does not ask for one again', async() => {
    const counts = useChannelCountsStore();
    const { store, requests } = shell({ data: [{}], count: 83 });

    await counts.load(store as never, CHANNELS);

    expect(requests.filter((r) => r.startsWith('page of'))).toEqual(['page of base', 'page of kernel', 'page of empty']);
    expect(counts.countOf('fleet-default', 'kernel')).toEqual({ state: 'ready', count: 6 });
    await counts.load(store as never, [{
      namespace: 'fleet-default', channel: 'base', syncedAt: 't2'
    }]);
    expect(requests.filter((r) => r.startsWith('/v1/'))).toHaveLength(1);
  });
});
