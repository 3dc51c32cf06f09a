/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { convertVersions, MAX_CHANNELS, useChannelVersionsStore } from '../channel-versions';

interface FakeQuery {
  namespace: string;
  channel: string;
  onChange?: (revision?: string) => void;
  requests: (string | undefined)[];
  stopped: boolean;
}

const mockQueries: FakeQuery[] = [];
let mockPages: Record<string, unknown[]> = {};

jest.mock('../../api/version-queries', () => ({
  ChannelVersionsQuery: class {
    fake: FakeQuery;
    namespace: string;
    channel: string;

    constructor(_store: unknown, namespace: string, channel: string, onChange?: (revision?: string) => void) {
      this.namespace = namespace;
      this.channel = channel;
      this.fake = {
        namespace, channel, onChange, requests: [], stopped: false
      };
      mockQueries.push(this.fake);
    }

    async request(revision?: string) {
      this.fake.requests.push(revision);
      const items = mockPages[`${ this.fake.namespace }/${ this.fake.channel }`];

      if (!items) {
        throw new Error('channel unreadable');
      }

      return {
        items, revision: revision ?? '10', count: items.length
      };
    }

    // Not paging (shell 3.0.5): no kept list is read (jsdom has no IndexedDB anyway).
    paged() {
      return false;
    }

    async stop() {
      this.fake.stopped = true;
    }
  },
  versionsByName: jest.fn(),
}));

const shellStore = { dispatch: jest.fn(), getters: {} };

function version(name: string, resourceVersion: string, created: number, channel = 'c1') {
  return {
    metadata: {
      name, namespace: 'ns', resourceVersion, labels: { 'elemental.cattle.io/channel': channel }
    },
    spec: {
      version: `v${ name }`, type: 'container', metadata: { created }
    },
  };
}

beforeEach(() => {
  setActivePinia(createPinia());
  useChannelVersionsStore().reset();
  mockQueries.length = 0;
  mockPages = {};
});

describe('convertVersions', () => {
  it('converts each version once per resourceVersion and forgets the ones gone', () => {
    const converted = new Map();
    const first = convertVersions([version('a', '1', 1), version('b', '1', 2)], converted);
    const second = convertVersions([version('a', '1', 1), version('b', '2', 3)], converted);

    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].created).toBe(3);
    expect(Object.isFrozen(second[1])).toBe(true);
    convertVersions([version('b', '2', 3)], converted);
    expect([...converted.keys()]).toEqual(['b']);
  });
});

describe('channel versions store', () => {
  it('reads a channel once, newest first, and answers again from the store', async() => {
    mockPages['ns/c1'] = [version('old', '1', 100), version('new', '2', 200)];
    const store = useChannelVersionsStore();
    const [a, b] = await Promise.all([store.load(shellStore, 'ns', 'c1'), store.load(shellStore, 'ns', 'c1')]);

    expect(a.map((v) => v.name)).toEqual(['new', 'old']);
    expect(b).toBe(a);
    expect(await store.load(shellStore, 'ns', 'c1')).toBe(a);
    expect(mockQueries).toHaveLength(1);
    expect(mockQueries[0].requests).toEqual([undefined]);
    expect(store.versions('ns', 'c1')).toBe(a);
    expect(store.versions('ns', 'other')).toEqual([]);
  });

  it('reads the channel again at the announced revision, reusing unchanged records', async() => {
    mockPages['ns/c1'] = [version('a', '1', 100)];
    const store = useChannelVersionsStore();
    const before = await store.load(shellStore, 'ns', 'c1');

    mockPages['ns/c1'] = [version('a', '1', 100), version('b', '5', 300)];
    mockQueries[0].onChange?.('12');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const after = store.versions('ns', 'c1');

    expect(mockQueries[0].requests).toEqual([undefined, '12']);
    expect(after.map((v) => v.name)).toEqual(['b', 'a']);
    expect(after[1]).toBe(before[0]);
    expect(store.channelState('ns', 'c1')).toMatchObject({ state: 'ready', revision: '12' });
  });

  it('reads again after the read under way when a change is announced meanwhile', async() => {
    mockPages['ns/c1'] = [version('a', '1', 100)];
    const store = useChannelVersionsStore();
    const first = store.load(shellStore, 'ns', 'c1');

    // Announced while the first read is still on its way: that answer may predate the change.
    mockQueries[0].onChange?.('15');
    mockPages['ns/c1'] = [version('a', '1', 100), version('b', '5', 300)];
    await first;
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(mockQueries[0].requests).toEqual([undefined, '15']);
    expect(store.versions('ns', 'c1').map((v) => v.name)).toEqual(['b', 'a']);
  });

  it('says why a channel could not be read, and reads it again when asked again', async() => {
    const store = useChannelVersionsStore();

    await expect(store.load(shellStore, 'ns', 'broken')).rejects.toThrow('channel unreadable');
    expect(store.channelState('ns', 'broken')).toEqual({ state: 'error', error: 'channel unreadable' });
    mockPages['ns/broken'] = [version('a', '1', 1, 'broken')];
    expect((await store.load(shellStore, 'ns', 'broken')).map((v) => v.name)).toEqual(['a']);
  });

  it('keeps at most MAX_CHANNELS channels, dropping and unwatching the least recently used', async() => {
    const store = useChannelVersionsStore();

    for (let i = 0; i <= MAX_CHANNELS; i++) {
      mockPages[`ns/c${ i }`] = [version(`v${ i }`, '1', i, `c${ i }`)];
      await store.load(shellStore, 'ns', `c${ i }`);
    }
    expect(mockQueries[0].stopped).toBe(true);
    expect(store.channelState('ns', 'c0')).toBeUndefined();
    expect(mockQueries.slice(1).every((q) => !q.stopped)).toBe(true);
  });
});
