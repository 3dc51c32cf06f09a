/* global jest */
import { CHANGELOG_RESOURCE_TYPE } from '../../domain';
import { findOrCreateChangelogResource, UnclearCreate } from '../changelog-resources';

const CHANNEL = { name: 'sl-micro-6.1-base', namespace: 'fleet-default' };
const VERSION = 'base-v2.2.0-3.12-os';

/** No resource listed at first; the POST fails with `error`; then `after` is what the list and the read find. */
function shell(error: unknown, after: unknown[]) {
  let posted = false;
  const dispatch = jest.fn((action: string) => {
    if (action === 'management/findAll') {
      return Promise.resolve(posted ? after : []);
    }
    if (action === 'management/request') {
      posted = true;

      return Promise.reject(error);
    }
    if (action === 'management/find') {
      return after.length ? Promise.resolve(after[0]) : Promise.reject(Object.assign(new Error('not found'), { _status: 404 }));
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  return { dispatch, getters: {} };
}

describe('creating the ManagedOSChangelog of a version', () => {
  const created = {
    type:     CHANGELOG_RESOURCE_TYPE,
    metadata: {
      name: VERSION, namespace: 'fleet-default', resourceVersion: '3'
    },
    spec: {
      channelRef: CHANNEL, osVersion: VERSION, cleanupAfterMinutes: 60
    },
    status: { state: 'Started' },
  };

  it('follows the one it created when only the answer was lost', async() => {
    const store = shell({ message: 'Network Error', code: 'ERR_NETWORK' }, [created]);

    await expect(findOrCreateChangelogResource(store, CHANNEL, VERSION)).resolves.toMatchObject({ metadata: { name: VERSION } });
    // One create: a lost answer is never sent again.
    expect(store.dispatch.mock.calls.filter(([action]) => action === 'management/request')).toHaveLength(1);
  });

  it('says nothing was written when the read afterwards finds none', async() => {
    const failure = findOrCreateChangelogResource(shell({ message: 'boom', _status: 502 }, []), CHANNEL, VERSION);

    await expect(failure).rejects.toBeInstanceOf(UnclearCreate);
    await expect(failure).rejects.toMatchObject({ written: 'notWritten' });
  });
});
