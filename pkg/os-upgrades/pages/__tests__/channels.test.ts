/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ChannelsPage from '../channels.vue';
import { TYPE } from '../../config';
import { CHANNEL_PAGE_SIZE } from '../../domain';
import { channelVersions } from '../../../../tests/support/fixtures';
import { mountGlobals, shellStore } from '../../components/common/__tests__/helpers';

const channel = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'fleet-default' },
  spec:     {
    type: 'json', options: { uri: `https://raw.githubusercontent.com/rancher/elemental-channels/main/channels/${ name }.json` }, syncInterval: '1h', enabled: true
  },
  status: {
    lastSyncedTime:                '2024-11-27T16:07:32Z',
    failedSynchronizationAttempts: 0,
    conditions:                    [{
      type: 'Ready', status: 'True', reason: 'Synchronized'
    }]
  },
  ...extra,
});

beforeEach(() => setActivePinia(createPinia()));

/** The package's own read of the channels (api/resources.ts listOwn), without Steve's relationships. */
const CHANNELS_URL = `/v1/${ TYPE.CHANNEL }s?pagesize=100000&exclude=metadata.managedFields&exclude=metadata.relationships`;

function isChannelRead(action: string, payload: unknown): boolean {
  return action === 'management/request' && (payload as { url?: string }).url === CHANNELS_URL;
}

function mountWith(channels: unknown[] | Error, versions: unknown[] = []) {
  const dispatch = jest.fn((action: string, payload: { type: string }) => {
    if (channels instanceof Error) {
      return Promise.reject(channels);
    }

    if (isChannelRead(action, payload)) {
      return Promise.resolve({ data: channels });
    }
    if (action === 'management/findPage') {
      // A page of one: Steve's count of the channel's versions (its label), no version body needed.
      const { pagination } = (payload as unknown as { opt: { pagination: { pageSize: number; labelSelector: { matchLabels: Record<string, string> } } } }).opt;
      const label = pagination.labelSelector.matchLabels['elemental.cattle.io/channel'];
      const matching = versions.filter((version) => (version as { metadata: { labels?: Record<string, string> } }).metadata.labels?.['elemental.cattle.io/channel'] === label);

      return Promise.resolve({ data: matching.slice(0, pagination.pageSize), pagination: { result: { count: matching.length } } });
    }

    return Promise.resolve(payload.type === TYPE.CHANNEL ? channels : versions);
  });
  const globals = mountGlobals(shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>));

  return {
    dispatch,
    wrapper: mount(ChannelsPage, {
      global: {
        ...globals,
        stubs: {
          ...globals.stubs,
          Loading:       true,
          'router-link': { props: ['to'], template: '<a :data-to="JSON.stringify(to)"><slot /></a>' },
          // The shell's table needs the whole shell store; this one renders the cells it is given.
          SortableTable: {
            name:     'SortableTable',
            props:    ['rows', 'headers', 'paging', 'rowsPerPage'],
            template: `<table><tr v-for="row in rows" :key="row.id" class="row"><td v-for="col in headers" :key="col.name" :class="'cell-' + col.name"><slot :name="'cell:' + col.name" :row="row">{{ row[col.value] }}</slot></td></tr></table>`,
          },
        },
      },
    }),
  };
}


/** The channels page with its table drawn as a list of the channel names. */
function mountWithNames(store: Parameters<typeof mountGlobals>[0]) {
  const globals = mountGlobals(store);

  return mount(ChannelsPage, {
    global: {
      ...globals,
      stubs: {
        ...globals.stubs, Loading: true, 'router-link': true, SortableTable: { props: ['rows'], template: '<ul><li v-for="row in rows" :key="row.id" class="row">{{ row.name }}</li></ul>' },
      },
    },
  });
}

describe('channels page', () => {
  it('lists every channel with its source, sync and how many versions it has, without reading any version', async() => {
    const { wrapper, dispatch } = mountWith([channel('sl-micro-6.1-base'), channel('unstable')], [...channelVersions('sl-micro-6.1-base'), ...channelVersions('unstable')]);

    await flushPromises();

    // The channels read for the page alone, without the relationships real Steve gives an owner per version it owns.
    expect(dispatch).toHaveBeenCalledWith('management/request', { url: CHANNELS_URL });
    expect(dispatch.mock.calls.some(([action, payload]) => action === 'management/findAll' && payload.type === TYPE.CHANNEL)).toBe(false);
    // No list of versions: one count per channel (a page of one), nothing else of that type.
    const versionCalls = dispatch.mock.calls.filter(([, payload]) => payload.type === TYPE.VERSION);

    expect(versionCalls.map(([action]) => action)).toEqual(['management/findPage', 'management/findPage']);
    expect(versionCalls.every(([, payload]) => (payload as unknown as { opt: { pagination: { pageSize: number } } }).opt.pagination.pageSize === 1)).toBe(true);
    const row = wrapper.findAll('.row')[0];

    expect(row.find('.cell-versions').text()).toBe('6');
    expect(wrapper.findAll('.row')[1].find('.cell-versions').text()).toBe(String(channelVersions('unstable').length));
    expect(row.find('.cell-source').text()).toContain('uri: https://raw.githubusercontent.com/rancher/elemental-channels/main/channels/sl-micro-6.1-base.json');
    // As Rancher shows times: how long ago (the shell's LiveDate), the date on hover.
    expect(row.find('.cell-lastSync').text()).toMatch(/^osUpgrades\.time\.ago .*"time":"\d+ unit\.day /);
    expect(row.find('.cell-syncState').text()).toContain('osUpgrades.channels.sync.synced');
    expect(JSON.parse(row.find('.cell-name a').attributes('data-to') ?? '{}')).toMatchObject({ name: 'os-upgrades-c-cluster-channel', params: { namespace: 'fleet-default', name: 'sl-micro-6.1-base' } });
  });

  it('shows a failed sync with its attempts and the reason the operator gave', async() => {
    const failing = channel('broken', {
      status: {
        failedSynchronizationAttempts: 4,
        conditions:                    [{
          type: 'Ready', status: 'False', reason: 'ChannelSyncFailed', message: 'fetching https://example.invalid: 404'
        }]
      }
    });
    const { wrapper } = mountWith([failing]);

    await flushPromises();
    const cell = wrapper.find('.cell-syncState');

    expect(cell.text()).toContain('osUpgrades.channels.sync.failed');
    expect(cell.text()).toContain('osUpgrades.channels.failedAttempts {"count":4}');
    expect(cell.text()).toContain('ChannelSyncFailed: fetching https://example.invalid: 404');
    expect(wrapper.find('.cell-lastSync').text()).toBe('osUpgrades.channels.never');
    expect(wrapper.find('.cell-versions').text()).toBe('0');
  });

  it('shows a sync in progress as synchronizing with the operator\'s message, and no failed attempts when the count is omitted', async() => {
    const syncing = channel('syncing', {
      status: {
        conditions: [{
          type: 'Ready', status: 'False', reason: 'Synchronizing', message: 'started synchronization pod'
        }]
      }
    });
    const { wrapper } = mountWith([syncing]);

    await flushPromises();
    const cell = wrapper.find('.cell-syncState');

    expect(cell.text()).toContain('osUpgrades.channels.sync.synchronizing');
    expect(cell.text()).not.toContain('osUpgrades.channels.sync.failed');
    expect(cell.text()).not.toContain('failedAttempts');
    expect(cell.text()).toContain('Synchronizing: started synchronization pod');
  });

  it('reads its lists again from the server after the shell\'s websocket reconnected, and shows what changed', async() => {
    let after: ((action: { type: string; payload?: unknown }) => void) | undefined;
    const served = [channel('sl-micro-6.1-base')];
    const dispatch = jest.fn((action: string, payload: unknown) => Promise.resolve(isChannelRead(action, payload) ? { data: [...served] } : []));
    const store = {
      ...shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>),
      subscribeAction: (handler: { after: typeof after }) => {
        after = handler.after;

        return () => undefined;
      },
    };
    const wrapper = mountWithNames(store);

    await flushPromises();
    expect(wrapper.findAll('.row').map((row) => row.text())).toEqual(['sl-micro-6.1-base']);
    served.push(channel('unstable'));
    after?.({ type: 'management/opened', payload: { currentTarget: { hasReconnected: true } } });
    await flushPromises();

    expect(dispatch.mock.calls.filter(([action, payload]) => isChannelRead(action, payload))).toHaveLength(2);
    expect(wrapper.findAll('.row').map((row) => row.text())).toEqual(['sl-micro-6.1-base', 'unstable']);
  });

  it('follows a change of the channels (Steve\'s resource.changes event) without a reload', async() => {
    const served = [channel('sl-micro-6.1-base')];
    const changes: ((event: { revision?: string }) => void)[] = [];
    const dispatch = jest.fn((action: string, payload: unknown) => {
      const { params, callback } = (payload ?? {}) as { params?: { type?: string; mode?: string }; callback?: (event: { revision?: string }) => void };

      if (action === 'management/watchEvent' && params?.type === TYPE.CHANNEL && params.mode === 'resource.changes' && callback) {
        changes.push(callback);
      }

      return Promise.resolve(isChannelRead(action, payload) ? { data: [...served] } : []);
    });
    const wrapper = mountWithNames(shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>));

    await flushPromises();
    expect(wrapper.findAll('.row').map((row) => row.text())).toEqual(['sl-micro-6.1-base']);
    served.push(channel('unstable'));
    changes.forEach((change) => change({ revision: '2' }));
    await flushPromises();

    expect(changes).toHaveLength(1);
    expect(wrapper.findAll('.row').map((row) => row.text())).toEqual(['sl-micro-6.1-base', 'unstable']);
  });

  it('shows hostile channel fields as text, never as markup or links', async() => {
    const hostile = channel('hostile', { spec: { type: '<img src=x onerror=alert(1)>', options: { image: 'javascript:alert(1)' } } });
    const { wrapper } = mountWith([hostile]);

    await flushPromises();
    expect(wrapper.find('img').exists()).toBe(false);
    expect(wrapper.find('.cell-type').text()).toBe('<img src=x onerror=alert(1)>');
    expect(wrapper.find('.cell-source').text()).toBe('image: javascript:alert(1)');
    expect(wrapper.find('.cell-source a').exists()).toBe(false);
  });

  it('draws the channels a page at a time, so a fleet of hundreds of channels costs what a page costs', async() => {
    const { wrapper } = mountWith(Array.from({ length: 120 }, (_, i) => channel(`channel-${ String(i).padStart(3, '0') }`)));

    await flushPromises();
    const table = wrapper.findComponent({ name: 'SortableTable' });

    expect(table.props('rows')).toHaveLength(120);
    expect(table.props('paging')).toBe(true);
    expect(table.props('rowsPerPage')).toBe(CHANNEL_PAGE_SIZE);
  });

  it('says when there is no channel', async() => {
    const { wrapper } = mountWith([]);

    await flushPromises();
    expect(wrapper.find('[data-testid="no-channels"]').exists()).toBe(true);
  });

  it('shows the error instead of the table when the channels cannot be read', async() => {
    const { wrapper } = mountWith(new Error('forbidden'));

    await flushPromises();
    expect(wrapper.find('.row').exists()).toBe(false);
    expect(wrapper.text()).toContain('osUpgrades.channels.loadError {"message":"forbidden"}');
  });
});
