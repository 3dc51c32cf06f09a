/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { applyWithdrawals, HISTORY_ANNOTATION, WITHDRAWN_ANNOTATION } from '../../domain';
import { WriteError } from '../../api/resources';
import { useWithdrawalStore } from '../withdrawals';

const CHANNEL = {
  id:       'fleet-default/stable',
  type:     'elemental.cattle.io.managedosversionchannel',
  links:    { update: 'x' },
  metadata: {
    name: 'stable', namespace: 'fleet-default', resourceVersion: '7', annotations: {}
  },
  spec: { type: 'json' },
};
const VERSIONS = applyWithdrawals([{
  name: 'v1', namespace: 'fleet-default', channel: 'stable', type: 'container', version: '1', inSync: true
}], [CHANNEL]);

function shell(respond: () => Promise<unknown> = () => Promise.resolve({})) {
  const writes: { url: string; method: string; data: typeof CHANNEL }[] = [];
  const dispatch = jest.fn((action: string, payload: unknown) => {
    if (action === 'management/request') {
      writes.push(payload as (typeof writes)[number]);

      return respond();
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  return { store: { dispatch, getters: {} }, writes };
}

/** The first PUT meets 409, the next lands; the channel read after the 409 is `latest`. */
function conflictThen(latest: unknown) {
  const answers = [() => Promise.reject(new WriteError('conflict', 409, 'Conflict')), () => Promise.resolve({})];
  const writes: { data: typeof CHANNEL }[] = [];
  const dispatch = jest.fn((action: string, payload: unknown) => {
    if (action === 'management/request') {
      writes.push(payload as { data: typeof CHANNEL });

      return (answers.shift() as () => Promise<unknown>)();
    }

    return action === 'management/find' ? Promise.resolve(latest) : Promise.reject(new Error(`unexpected ${ action }`));
  });

  return { store: { dispatch, getters: {} }, writes };
}

describe('withdrawal store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('writes the channel with the withdrawal and its history entry, with the resourceVersion read, and nothing of the shell model', async() => {
    const withdrawal = useWithdrawalStore();
    const { store, writes } = shell();

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(true);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ method: 'PUT', url: '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/stable' });
    expect(writes[0].data.metadata.resourceVersion).toBe('7');
    expect(writes[0].data).not.toHaveProperty('links');
    const annotations = writes[0].data.metadata.annotations as Record<string, string>;

    expect(JSON.parse(annotations[WITHDRAWN_ANNOTATION])).toEqual({
      v1: {
        reason: 'boot loop', by: 'admin', at: new Date(1700000000 * 1000).toISOString()
      }
    });
    expect(JSON.parse(annotations[HISTORY_ANNOTATION])[0]).toMatchObject({
      kind: 'withdraw', to: 'v1', comment: 'boot loop'
    });
    expect(withdrawal.request).toBeNull();
  });

  it('writes nothing without a reason', async() => {
    const withdrawal = useWithdrawalStore();
    const { store, writes } = shell();

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = '  ';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(false);
    expect(writes).toHaveLength(0);
    expect(withdrawal.notice).toMatchObject({ kind: 'refused', text: { key: 'osUpgrades.withdrawal.refusal.reasonRequired' } });
  });

  it('says a conflict wrote nothing and keeps the dialog open', async() => {
    const withdrawal = useWithdrawalStore();
    const { store } = shell(() => Promise.reject(new WriteError('conflict', 409, 'Conflict')));

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(false);
    expect(withdrawal.notice).toMatchObject({ kind: 'conflict', text: { key: 'osUpgrades.withdraw.conflict' } });
    expect(withdrawal.request).not.toBeNull();
  });

  it('after a conflict goes on from the channel as stored now, so confirming again writes on it', async() => {
    const withdrawal = useWithdrawalStore();
    const changed = {
      ...CHANNEL,
      metadata: {
        ...CHANNEL.metadata, resourceVersion: '9', annotations: { team: 'x' }
      }
    };
    const { store, writes } = conflictThen(changed);

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(false);
    expect(withdrawal.notice?.kind).toBe('conflict');
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(true);
    expect(writes.map((w) => w.data.metadata.resourceVersion)).toEqual(['7', '9']);
    expect(writes[1].data.metadata.annotations).toMatchObject({ team: 'x' });
  });

  it('writes at once on the new read when the 409 came from the operator\'s sync alone (its status)', async() => {
    const withdrawal = useWithdrawalStore();
    const synced = {
      ...CHANNEL, metadata: { ...CHANNEL.metadata, resourceVersion: '8' }, status: { lastSyncedTime: '2026-12-01T10:00:00Z' }
    };
    const { store, writes } = conflictThen(synced);

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(true);
    expect(writes.map((w) => w.data.metadata.resourceVersion)).toEqual(['7', '8']);
    expect(JSON.parse((writes[1].data.metadata.annotations as Record<string, string>)[WITHDRAWN_ANNOTATION])).toHaveProperty('v1.reason', 'boot loop');
    expect(withdrawal.request).toBeNull();
  });
});

describe('withdrawal store: a write without a clear answer is read back', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    window.sessionStorage.clear();
  });

  /** The PUT fails with `error`; the channel read afterwards is what `stored` makes of the sent object. */
  function dropped(error: unknown, stored: (sent: typeof CHANNEL) => unknown) {
    let sent: typeof CHANNEL | undefined;
    const dispatch = jest.fn((action: string, payload: { data?: typeof CHANNEL }) => {
      if (action === 'management/request') {
        sent = payload.data;

        return Promise.reject(error);
      }
      if (action === 'management/find') {
        return Promise.resolve(stored(sent as typeof CHANNEL));
      }

      return Promise.reject(new Error(`unexpected ${ action }`));
    });

    return { dispatch, getters: { 'auth/principalId': 'local://admin' } };
  }

  const networkError = { message: 'Network Error', code: 'ERR_NETWORK' };

  it('says the withdrawal is stored when only the answer was lost, and Confirm cannot send it twice', async() => {
    const withdrawal = useWithdrawalStore();

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(dropped(networkError, (sent) => ({ ...sent, metadata: { ...sent.metadata, resourceVersion: '8' } })), VERSIONS, 'admin', 1700000000)).toBe(true);
    expect(withdrawal.notice).toMatchObject({
      kind: 'written', tone: 'success', text: { key: 'osUpgrades.withdraw.writtenReadBack' }
    });
    expect(withdrawal.settled).toBe(true);
  });

  it('says nothing was written after a 5xx when the channel read again is as before, and lets the person try again', async() => {
    const withdrawal = useWithdrawalStore();

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    expect(await withdrawal.confirm(dropped({ message: 'boom', _status: 503 }, () => CHANNEL), VERSIONS, 'admin', 1700000000)).toBe(false);
    expect(withdrawal.notice).toMatchObject({
      kind: 'failed', text: { key: 'osUpgrades.withdraw.failed', values: { message: 'boom' } }, parts: { verdict: { key: 'osUpgrades.write.readBack.notWritten' } }
    });
    expect(withdrawal.notice?.action).toBeUndefined();
    expect(withdrawal.settled).toBe(false);
  });

  it('says someone else wrote the channel when it holds neither', async() => {
    const withdrawal = useWithdrawalStore();

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    await withdrawal.confirm(dropped({ message: 'boom', _status: 500 }, () => ({ ...CHANNEL, metadata: { ...CHANNEL.metadata, annotations: { team: 'x' } } })), VERSIONS, 'admin', 1700000000);
    expect(withdrawal.notice).toMatchObject({
      kind: 'failed', action: 'readAgain', parts: { verdict: { key: 'osUpgrades.write.readBack.other' } }
    });
    expect(withdrawal.settled).toBe(true);
  });

  it('reads the channel again when asked, and lets the person confirm on it', async() => {
    const withdrawal = useWithdrawalStore();
    const other = {
      ...CHANNEL,
      metadata: {
        ...CHANNEL.metadata, resourceVersion: '12', annotations: { team: 'x' }
      }
    };
    const store = dropped({ message: 'boom', _status: 500 }, () => other);

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop';
    await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000);
    await withdrawal.readAgain(store);
    expect(withdrawal.notice).toBeUndefined();
    expect(withdrawal.settled).toBe(false);
    expect(withdrawal.request?.channel).toMatchObject({ metadata: { resourceVersion: '12' } });
    expect(store.dispatch).toHaveBeenLastCalledWith('management/find', {
      type: 'elemental.cattle.io.managedosversionchannel', id: 'fleet-default/stable', opt: { force: true, watch: false }
    });
  });

  it('after a 401 keeps the reason for the same person and the same dialog only', async() => {
    const withdrawal = useWithdrawalStore();
    const store = dropped(new WriteError('must authenticate', 401, 'Unauthorized'), () => CHANNEL);

    withdrawal.open('withdraw', CHANNEL, VERSIONS[0]);
    withdrawal.text = 'boot loop on edge';
    expect(await withdrawal.confirm(store, VERSIONS, 'admin', 1700000000)).toBe(false);
    expect(withdrawal.notice).toMatchObject({
      kind: 'unauthorized', action: 'loginAgain', text: { key: 'osUpgrades.withdraw.unauthorized' }
    });

    setActivePinia(createPinia());
    const after = useWithdrawalStore();

    after.open('withdraw', CHANNEL, VERSIONS[0]);
    after.restoreText({ ...store, getters: { 'auth/principalId': 'local://viewer' } });
    expect(after.text).toBe('');
    after.open('restore', CHANNEL, VERSIONS[0]);
    after.restoreText(store);
    expect(after.text).toBe('');
    after.open('withdraw', CHANNEL, VERSIONS[0]);
    after.restoreText(store);
    expect(after.text).toBe('boot loop on edge');
    expect(after.restoredAt).toBeGreaterThan(0);
  });
});
