/* global jest */
import { KubeObject } from '../../domain';
import { WriteError } from '../resources';
import { asIs, write } from '../write';

const TYPE = 'elemental.cattle.io.managedosversionchannel';

const channel = (resourceVersion: string, annotations: Record<string, string> = {}): KubeObject => ({
  metadata: {
    name: 'stable', namespace: 'fleet-default', resourceVersion, annotations
  },
  spec: { type: 'json' },
});

/** A fake shell store: each write gets the next answer, every read `stored`. */
function shell(answers: (() => Promise<unknown>)[], stored: () => Promise<unknown> = () => Promise.reject(Object.assign(new Error('gone'), { _status: 404 }))) {
  const sent: KubeObject[] = [];
  const dispatch = jest.fn((action: string, payload: { data?: KubeObject }) => {
    if (action === 'management/request') {
      sent.push(payload.data as KubeObject);

      return (answers.shift() as () => Promise<unknown>)();
    }
    if (action === 'management/find') {
      return stored();
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  return {
    store: { dispatch, getters: {} }, sent, dispatch
  };
}

const conflict = () => Promise.reject(new WriteError('the object has been modified', 409, 'Conflict'));

describe('write: the one write routine', () => {
  it('sends nothing when the plan refuses', async() => {
    const { store, dispatch } = shell([]);
    const reason = { key: 'osUpgrades.withdrawal.refusal.reasonRequired' };
    const outcome = await write(store, {
      type: TYPE, mode: 'update', before: channel('7'), plan: () => ({ ok: false, reason })
    });

    expect(outcome).toEqual({
      kind: 'refused', reason, before: channel('7')
    });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('after a 409 reads the object again and returns it: nothing was written', async() => {
    const latest = channel('9', { team: 'x' });
    const { store, sent } = shell([conflict], () => Promise.resolve(latest));
    const outcome = await write(store, {
      type: TYPE, mode: 'update', before: channel('7'), plan: asIs(channel('7', { a: 'b' }))
    });

    expect(outcome).toMatchObject({ kind: 'conflict', latest });
    expect(sent).toHaveLength(1);
  });

  it('after a 409 the object moved only in a way the plan does not depend on, plans again on the new read, at most `times` times', async() => {
    const moved = channel('9');
    const { store, sent } = shell([conflict, conflict, conflict], () => Promise.resolve(moved));
    const plan = jest.fn((before: KubeObject | undefined) => ({ ok: true as const, object: { ...before, spec: { type: 'custom' } } }));
    const outcome = await write(store, {
      type: TYPE, mode: 'update', before: channel('7'), plan, replan: { when: () => true, times: 2 }
    });

    expect(sent.map((object) => (object.metadata as { resourceVersion: string }).resourceVersion)).toEqual(['7', '9', '9']);
    expect(outcome).toMatchObject({ kind: 'conflict', before: moved });
  });

  it('after an unclear answer, a read holding what was sent means it was written', async() => {
    const sentObject = channel('7', { a: 'b' });
    const { store } = shell([() => Promise.reject(Object.assign(new Error('boom'), { _status: 502 }))], () => Promise.resolve({ ...sentObject, metadata: { ...(sentObject.metadata as object), resourceVersion: '8' } }));
    const outcome = await write(store, {
      type: TYPE, mode: 'update', before: channel('7'), plan: asIs(sentObject)
    });

    expect(outcome).toMatchObject({
      kind: 'written', readBack: true, stored: { metadata: { resourceVersion: '8' } }
    });
  });

  it('after an unclear answer, a read holding what was there before means nothing was written', async() => {
    const { store } = shell([() => Promise.reject(Object.assign(new Error('boom'), { _status: 502 }))], () => Promise.resolve(channel('7')));
    const outcome = await write(store, {
      type: TYPE, mode: 'update', before: channel('7'), plan: asIs(channel('7', { a: 'b' }))
    });

    expect(outcome).toMatchObject({
      kind: 'failed', message: 'boom', written: 'notWritten'
    });
  });
});
