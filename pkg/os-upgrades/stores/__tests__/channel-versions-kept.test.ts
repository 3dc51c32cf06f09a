/**
 * @jest-environment node
 */
/* global jest, beforeAll */
// rule "Kept version list" in the store: a new session (a new Pinia, the same IndexedDB) takes a
// channel's list from the earlier one with a page of one, while nothing was written since.
import 'fake-indexeddb/auto';
import { createPinia, setActivePinia } from 'pinia';
import { useChannelVersionsStore } from '../channel-versions';

interface FakeServer {
  revision: string;
  items: unknown[];
  /** What each session asked: 'list' (every version) or 'head' (a page of one). */
  asked: string[];
  watched: number;
}

const mockServer: FakeServer = {
  revision: '10', items: [], asked: [], watched: 0
};

jest.mock('../../api/version-queries', () => ({
  ChannelVersionsQuery: class {
    namespace: string;
    channel: string;

    constructor(_store: unknown, namespace: string, channel: string) {
      this.namespace = namespace;
      this.channel = channel;
    }

    paged() {
      return true;
    }

    async request() {
      mockServer.asked.push('list');

      return {
        items: mockServer.items, revision: mockServer.revision, count: mockServer.items.length
      };
    }

    async head() {
      mockServer.asked.push('head');

      return {
        items: mockServer.items.slice(0, 1), revision: mockServer.revision, count: mockServer.items.length
      };
    }

    watch() {
      mockServer.watched++;
    }

    async stop() {
      return undefined;
    }
  },
  versionsByName: jest.fn(),
}));

const shellStore = { dispatch: jest.fn(), getters: {} };

function version(name: string, resourceVersion: string, created: number) {
  return {
    metadata: {
      name, namespace: 'ns', resourceVersion, labels: { 'elemental.cattle.io/channel': 'c1' }
    },
    spec: {
      version: `v${ name }`, type: 'container', metadata: { created, changelogURL: `https://example.com/${ name }.log` }
    },
  };
}

/** A new browser session: a new Pinia over the same IndexedDB. */
function newSession() {
  setActivePinia(createPinia());
  mockServer.asked = [];
  mockServer.watched = 0;

  return useChannelVersionsStore();
}

/** The list kept after a read is written a turn later. */
const written = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('channel versions kept between sessions', () => {
  beforeAll(async() => {
    mockServer.items = [version('old', '1', 100), version('new', '2', 200)];
    mockServer.revision = '10';
    await newSession().load(shellStore, 'ns', 'c1');
    await written();
  });

  it('a new session takes the kept list with a page of one while the revision has not moved', async() => {
    const versions = await newSession().load(shellStore, 'ns', 'c1');

    expect(mockServer.asked).toEqual(['head']);
    expect(versions.map((v) => [v.name, v.changelogURL])).toEqual([['new', 'https://example.com/new.log'], ['old', 'https://example.com/old.log']]);
    expect(Object.isFrozen(versions[0])).toBe(true);
    // Changes are still followed: the store's watch started as after a read.
    expect(mockServer.watched).toBe(1);
  });

  it('reads the whole list again once a version was written, and keeps that one', async() => {
    mockServer.items = [version('old', '1', 100), version('new', '3', 250)];
    mockServer.revision = '11';
    const versions = await newSession().load(shellStore, 'ns', 'c1');

    expect(mockServer.asked).toEqual(['head', 'list']);
    expect(versions.map((v) => [v.name, v.created])).toEqual([['new', 250], ['old', 100]]);
    await written();

    expect(await newSession().load(shellStore, 'ns', 'c1')).toHaveLength(2);
    expect(mockServer.asked).toEqual(['head']);
  });

  it('reads the whole list when the count differs at the same revision', async() => {
    mockServer.items = [version('old', '1', 100)];
    const versions = await newSession().load(shellStore, 'ns', 'c1');

    expect(mockServer.asked).toEqual(['head', 'list']);
    expect(versions.map((v) => v.name)).toEqual(['old']);
  });
});
