/* global jest */
import { creatableNamespacesOf, findAll, onReconnect } from '../resources';

function store(getters: Record<string, unknown> = {}, answer: unknown = []) {
  const dispatch = jest.fn((_action: string, _payload?: unknown) => Promise.resolve(answer));

  return { dispatch, getters };
}

describe('findAll', () => {
  it('hands the shell a fresh options object per call (the shell writes into it)', async() => {
    const s = store();
    const opt = {};

    await Promise.all([findAll(s, 'a', opt), findAll(s, 'b', opt)]);
    const [first, second] = s.dispatch.mock.calls.map((call) => (call[1] as { opt: object }).opt);

    expect(first).not.toBe(second);
    expect(first).not.toBe(opt);
  });

  it('re-lists a type the shell holds but no longer watches, and trusts a watched one', async() => {
    const unwatched = store({ 'management/haveAll': () => true, 'management/watchesOfType': () => [] });

    await findAll(unwatched, 'a');
    expect(unwatched.dispatch).toHaveBeenCalledWith('management/findAll', { type: 'a', opt: { force: true } });

    const watched = store({ 'management/haveAll': () => true, 'management/watchesOfType': () => [{ type: 'a' }] });

    await findAll(watched, 'a');
    expect(watched.dispatch).toHaveBeenCalledWith('management/findAll', { type: 'a', opt: {} });
  });
});

describe('creatableNamespacesOf', () => {
  it('reads Steve\'s checkPermissions answer, and says nothing when the request fails', async() => {
    const s = store({}, {
      data: [
        { metadata: { name: 'fleet-default' }, resourcePermissions: { t: { create: '/x' } } },
        { metadata: { name: 'fleet-local' }, resourcePermissions: { t: { get: '/x' } } },
      ]
    });

    expect(await creatableNamespacesOf(s, 't')).toEqual(['fleet-default']);
    expect(s.dispatch.mock.calls[0][1]).toMatchObject({ url: '/v1/namespaces?checkPermissions=t&exclude=metadata.managedFields' });
    const failing = { dispatch: jest.fn(() => Promise.reject(new Error('403'))), getters: {} };

    expect(await creatableNamespacesOf(failing, 't')).toBeUndefined();
  });
});

describe('onReconnect', () => {
  it('calls back after the shell re-opened a socket that had dropped, not on its first open', () => {
    let after: ((action: { type: string; payload?: unknown }) => void) | undefined;
    const unsubscribe = jest.fn();
    const s = {
      ...store(),
      subscribeAction: (handler: { after: typeof after }) => {
        after = handler.after;

        return unsubscribe;
      },
    };
    const reload = jest.fn();
    const stop = onReconnect(s, reload);

    after?.({ type: 'management/opened', payload: { currentTarget: { hasReconnected: false } } });
    after?.({ type: 'cluster/opened', payload: { currentTarget: { hasReconnected: true } } });
    expect(reload).not.toHaveBeenCalled();
    after?.({ type: 'management/opened', payload: { currentTarget: { hasReconnected: true } } });
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
    expect(unsubscribe).toHaveBeenCalled();
  });
});
