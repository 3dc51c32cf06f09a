/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { WriteError } from '../../api/resources';
import { CHANGELOG_URL_ANNOTATION } from '../../domain';
import { useChangelogSourcesStore } from '../changelog-sources';

const KEY = 'fleet-default/stable';
const CHANNEL = {
  metadata: {
    name: 'stable', namespace: 'fleet-default', resourceVersion: '7', annotations: {}
  },
  spec: { type: 'json' },
};
const TEMPLATE = 'https://files.example/{name}.updates.log';

/** The PUT fails with `error` (or succeeds when undefined); a read afterwards is what `stored` makes of the sent object. */
function shell(error: unknown, stored: (sent: typeof CHANNEL) => unknown) {
  const puts: unknown[] = [];
  const dispatch = jest.fn((action: string, payload: { data?: typeof CHANNEL }) => {
    if (action === 'management/request') {
      puts.push(payload.data);

      return error ? Promise.reject(error) : Promise.resolve(payload.data);
    }
    if (action === 'management/find') {
      return Promise.resolve(stored(puts[puts.length - 1] as typeof CHANNEL));
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  return { store: { dispatch, getters: { 'auth/principalId': 'local://admin' } }, puts };
}

function loaded() {
  const sources = useChangelogSourcesStore();

  sources.channels = { [KEY]: CHANNEL };
  sources.drafts = {
    [KEY]: {
      namespace: 'fleet-default', name: 'stable', template: '', tarUrl: ''
    }
  };
  sources.setDraft(KEY, 'template', TEMPLATE);

  return sources;
}

describe('changelog sources save', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    window.sessionStorage.clear();
  });

  it('says saved when the PUT landed and only its answer was lost', async() => {
    const sources = loaded();
    const { store } = shell({ message: 'Network Error', code: 'ERR_NETWORK' }, (sent) => ({ ...sent, metadata: { ...sent.metadata, resourceVersion: '8' } }));

    await sources.saveChannel(store, KEY);
    expect(sources.saveOf(KEY)).toMatchObject({ state: 'saved', notice: { tone: 'success', text: { key: 'osUpgrades.sources.savedReadBack' } } });
    // The next save carries the resourceVersion read back.
    expect((sources.channels[KEY].metadata as { resourceVersion: string }).resourceVersion).toBe('8');
  });

  it('says nothing was written after a 5xx only when the read shows the channel as before', async() => {
    const sources = loaded();

    await sources.saveChannel(shell({ message: 'boom', _status: 502 }, () => CHANNEL).store, KEY);
    expect(sources.saveOf(KEY)).toMatchObject({ state: 'error', notice: { settled: false, text: { key: 'osUpgrades.sources.noAnswer.notWritten', values: { message: 'boom' } } } });
    await sources.saveChannel(shell({ message: 'boom', _status: 502 }, () => Promise.reject(Object.assign(new Error('unreadable'), { _status: 500 }))).store, KEY);
    expect(sources.saveOf(KEY)).toMatchObject({ state: 'error', notice: { settled: true, text: { key: 'osUpgrades.sources.noAnswer.unknown' } } });
  });

  it('after a 401 keeps the template and gives it back to the same person after the new login', async() => {
    const sources = loaded();
    const { store } = shell(new WriteError('must authenticate', 401, 'Unauthorized'), () => CHANNEL);

    await sources.saveChannel(store, KEY);
    expect(sources.saveOf(KEY)).toMatchObject({ state: 'unauthorized', notice: { action: 'loginAgain', text: { key: 'osUpgrades.sources.unauthorized' } } });

    setActivePinia(createPinia());
    const other = loaded();

    other.setDraft(KEY, 'template', '');
    other.restoreKept({ ...store, getters: { 'auth/principalId': 'local://viewer' } });
    expect(other.drafts[KEY].template).toBe('');
    other.restoreKept(store);
    expect(other.drafts[KEY].template).toBe(TEMPLATE);
    expect(other.restoredAt).toBeGreaterThan(0);
    // Given back once, and only what was typed: nothing is saved until Save.
    expect(store.dispatch).toHaveBeenCalledTimes(1);
  });

  it('writes the template as an annotation of the channel read', async() => {
    const sources = loaded();
    const { store, puts } = shell(undefined, () => CHANNEL);

    await sources.saveChannel(store, KEY);
    expect(sources.saveOf(KEY)).toMatchObject({ state: 'saved', notice: { text: { key: 'osUpgrades.sources.saved' } } });
    expect((puts[0] as typeof CHANNEL).metadata.annotations).toEqual({ [CHANGELOG_URL_ANNOTATION]: TEMPLATE });
  });

  it('writes on the new read after a 409 from the operator\'s sync, and writes nothing when someone else changed the channel', async() => {
    const synced = {
      ...CHANNEL, metadata: { ...CHANNEL.metadata, resourceVersion: '8' }, status: { lastSyncedTime: '2026-12-01T10:00:00Z' }
    };
    const edited = {
      ...CHANNEL,
      metadata: {
        ...CHANNEL.metadata, resourceVersion: '9', annotations: { [CHANGELOG_URL_ANNOTATION]: 'https://other/{name}.log' }
      }
    };

    for (const [latest, state, puts] of [[synced, 'saved', ['7', '8']], [edited, 'error', ['7']]] as const) {
      setActivePinia(createPinia());
      const sources = loaded();
      const answers = [new WriteError('conflict', 409, 'Conflict'), undefined];
      const sent: (typeof CHANNEL)[] = [];
      const dispatch = jest.fn((action: string, payload: { data?: typeof CHANNEL }) => {
        if (action === 'management/request') {
          sent.push(payload.data as typeof CHANNEL);
          const error = answers.shift();

          return error ? Promise.reject(error) : Promise.resolve(payload.data);
        }

        return Promise.resolve(latest);
      });

      await sources.saveChannel({ dispatch, getters: {} }, KEY);
      expect(sources.saveOf(KEY).state).toBe(state);
      expect(sent.map((s) => s.metadata.resourceVersion)).toEqual(puts);
    }
  });
});
