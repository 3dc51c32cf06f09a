/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { PREVIOUS_VERSION_ANNOTATION, SELECTOR_ANNOTATION } from '../../domain';
import { WriteError } from '../../api/resources';
import { usePoolApprovalStore } from '../pool-approval';
import { setShownPools } from '../shown-pools';
import {
  MID, NEW, NOW, OLD, poolObject, version, VERSIONS
} from '../../domain/__tests__/pool-test-data';

const SELECTOR = '{"channel":"stable"}';

interface Written {
  url: string;
  method: string;
  data: {
    metadata: { resourceVersion?: string; annotations: Record<string, string>; fields?: unknown };
    spec: { managedOSVersionName?: string };
  };
}

/** A fake shell store: `find` returns `latest`, `request` (the write) answers with `respond`. */
function shellStore(latest: unknown, respond: () => Promise<unknown> = () => Promise.resolve({})) {
  const writes: Written[] = [];
  const dispatch = jest.fn((action: string, payload: unknown) => {
    if (action === 'management/request') {
      writes.push(payload as Written);

      return respond();
    }
    if (action === 'management/find') {
      return Promise.resolve(latest);
    }

    return Promise.reject(new Error(`unexpected ${ action }`));
  });

  return { store: { dispatch, getters: {} }, writes };
}

const context = (store: ReturnType<typeof shellStore>['store'], versions = VERSIONS) => ({
  store, versions, now: NOW, approvedBy: 'admin'
});

describe('approval store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setShownPools([]);
  });

  it('offers what the selector picks now and writes exactly that, with the resourceVersion it read', async() => {
    const approval = usePoolApprovalStore();
    const { store, writes } = shellStore(undefined);

    approval.open('approve', poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    }), VERSIONS, NOW);
    expect(approval.request).toMatchObject({
      expectedPin: OLD.name, versionName: NEW.name, resourceVersion: '41'
    });

    expect(await approval.confirm(context(store))).toBe(true);

    expect(writes).toHaveLength(1);
    expect(writes[0].method).toBe('PUT');
    expect(writes[0].url).toBe('/v1/elemental.cattle.io.managedosimages/fleet-default/edge');
    expect(writes[0].data.metadata.resourceVersion).toBe('41');
    expect(writes[0].data.spec.managedOSVersionName).toBe(NEW.name);
    expect(writes[0].data.metadata.annotations[PREVIOUS_VERSION_ANNOTATION]).toBe(OLD.name);
    expect(writes[0].data.metadata.annotations[SELECTOR_ANNOTATION]).toBe(SELECTOR);
    expect(approval.request).toBeNull();
    // No read of the one object afterwards: that would replace the page's watch of the list.
    expect(store.dispatch.mock.calls.map(([action]) => action)).toEqual(['management/request']);
  });

  it('writes once on a double click', async() => {
    const approval = usePoolApprovalStore();
    let release: (value: unknown) => void = () => undefined;
    const { store, writes } = shellStore(undefined, () => new Promise((resolve) => {
      release = resolve;
    }));

    approval.open('approve', poolObject({ selector: SELECTOR }), VERSIONS, NOW);
    const first = approval.confirm(context(store));
    const second = approval.confirm(context(store));

    release({});
    expect(await second).toBe(false);
    expect(await first).toBe(true);
    expect(writes).toHaveLength(1);
  });

  it('on a 409 writes nothing more, reads the pool again and offers its new state', async() => {
    const approval = usePoolApprovalStore();
    const changed = poolObject({
      pin: MID.name, selector: SELECTOR, resourceVersion: '42'
    });
    const { store, writes } = shellStore(changed, () => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })));

    approval.open('approve', poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    }), VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(false);
    expect(writes).toHaveLength(1);
    expect(approval.notice).toMatchObject({ kind: 'conflict', text: { key: 'osUpgrades.approve.conflict' } });
    expect(store.dispatch).toHaveBeenCalledWith('management/find', {
      type: 'elemental.cattle.io.managedosimage', id: 'fleet-default/edge', opt: { force: true, watch: false }
    });
    expect(approval.request).toMatchObject({
      expectedPin: MID.name, versionName: NEW.name, resourceVersion: '42'
    });
  });

  it('sends nothing when the watch already brought someone else\'s approval of the image, and says so', async() => {
    const approval = usePoolApprovalStore();
    const approved = poolObject({
      pin: NEW.name, selector: SELECTOR, resourceVersion: '42'
    });
    const { store, writes } = shellStore(approved);
    const byId = jest.fn(() => approved);

    approval.open('approve', poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    }), VERSIONS, NOW);

    expect(await approval.confirm(context({ ...store, getters: { 'management/byId': byId } }))).toBe(false);
    expect(byId).toHaveBeenCalledWith('elemental.cattle.io.managedosimage', 'fleet-default/edge');
    expect(writes).toHaveLength(0);
    expect(approval.notice).toMatchObject({ kind: 'alreadyDone', text: { key: 'osUpgrades.approve.alreadyAt', values: { image: NEW.name } } });
  });

  it('sends nothing when the pools list\'s page shows someone else\'s approval before the shell\'s own copy does', async() => {
    const approval = usePoolApprovalStore();
    const read = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    });
    const { store, writes } = shellStore(undefined);

    // Where the shell pages pools, the row is the page's copy, read again at each change; the
    // shell's own copy follows its websocket and may still hold the pool as the dialog read it.
    setShownPools([poolObject({
      pin: NEW.name, selector: SELECTOR, resourceVersion: '42'
    })]);
    approval.open('approve', read, VERSIONS, NOW);

    expect(await approval.confirm(context({ ...store, getters: { 'management/byId': () => read } }))).toBe(false);
    expect(writes).toHaveLength(0);
    expect(approval.notice).toMatchObject({ kind: 'alreadyDone', text: { key: 'osUpgrades.approve.alreadyAt', values: { image: NEW.name } } });
  });

  it('on a 409 from someone else\'s approval of the same image, says the pool is already at it', async() => {
    const approval = usePoolApprovalStore();
    const approved = poolObject({
      pin: NEW.name, selector: SELECTOR, resourceVersion: '42'
    });
    const { store, writes } = shellStore(approved, () => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })));

    approval.open('approve', poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    }), VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(false);
    expect(writes).toHaveLength(1);
    expect(approval.notice).toMatchObject({ kind: 'alreadyDone', text: { key: 'osUpgrades.approve.alreadyAt', values: { image: NEW.name } } });
  });

  it('on a 409 that only a status update caused, writes what the dialog showed with the new resourceVersion', async() => {
    const approval = usePoolApprovalStore();
    const shown = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    });
    const progressed = {
      ...poolObject({
        pin: OLD.name, selector: SELECTOR, resourceVersion: '45'
      }),
      status: { conditions: [{ type: 'Ready', status: 'False' }] }
    };
    const answers = [() => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })), () => Promise.resolve({})];
    const { store, writes } = shellStore(progressed, () => (answers.shift() as () => Promise<unknown>)());

    approval.open('approve', shown, VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(true);
    expect(writes.map((w) => [w.data.metadata.resourceVersion, w.data.spec.managedOSVersionName])).toEqual([['41', NEW.name], ['45', NEW.name]]);
    expect(approval.notice).toBeUndefined();
  });

  it('on a 409 that only the operator\'s own label caused, writes again and remembers the write as pending', async() => {
    const approval = usePoolApprovalStore();
    const shown = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41', status: { conditions: [{ type: 'Ready', status: 'True' }] }
    });
    const labelled = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '46', status: { conditions: [{ type: 'Ready', status: 'True' }] }
    });

    (labelled.metadata as Record<string, unknown>).labels = { 'elemental.cattle.io/managed-os-version-name': OLD.name };
    const stored = { ...labelled, spec: { ...(labelled.spec as object), managedOSVersionName: NEW.name } };
    const answers = [() => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })), () => Promise.resolve(stored)];
    const { store, writes } = shellStore(labelled, () => (answers.shift() as () => Promise<unknown>)());

    approval.open('approve', shown, VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(true);
    expect(writes.map((w) => w.data.metadata.resourceVersion)).toEqual(['41', '46']);
    expect(approval.pending['fleet-default/edge']).toEqual({ pin: NEW.name, conditions: '[{"status":"True","type":"Ready"}]' });
  });

  it('on a 409 where a person changed a label, writes nothing more', async() => {
    const approval = usePoolApprovalStore();
    const shown = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '41'
    });
    const changed = poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '46'
    });

    (changed.metadata as Record<string, unknown>).labels = { team: 'other' };
    const { store, writes } = shellStore(changed, () => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })));

    approval.open('approve', shown, VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(false);
    expect(writes).toHaveLength(1);
    expect(approval.notice).toMatchObject({ kind: 'conflict', text: { key: 'osUpgrades.approve.conflict' } });
  });

  it('writes nothing when the selector picks another image than the dialog showed', async() => {
    const approval = usePoolApprovalStore();
    const newest = version('os-v2.2.2-1', 'v2.2.2-1', 0.5);
    const object = poolObject({ pin: OLD.name, selector: SELECTOR });
    const { store, writes } = shellStore(object);

    approval.open('approve', object, VERSIONS, NOW);
    expect(approval.request?.versionName).toBe(NEW.name);

    expect(await approval.confirm(context(store, [...VERSIONS, newest]))).toBe(false);

    expect(writes).toHaveLength(0);
    expect(approval.notice).toMatchObject({
      kind: 'refused', text: { key: 'osUpgrades.approve.refused' }, parts: { reason: { key: 'osUpgrades.pool.refusal.selectionChanged' } }
    });
    expect(approval.request?.versionName).toBe(newest.name);
  });

  it('rolls back to the previous pin through the same write', async() => {
    const approval = usePoolApprovalStore();
    const { store, writes } = shellStore(undefined);

    approval.open('rollback', poolObject({
      pin: NEW.name, selector: SELECTOR, annotations: { [PREVIOUS_VERSION_ANNOTATION]: OLD.name }
    }), VERSIONS, NOW);
    expect(approval.request?.versionName).toBe(OLD.name);

    expect(await approval.confirm(context(store))).toBe(true);
    expect(writes[0].data.spec.managedOSVersionName).toBe(OLD.name);
    expect(writes[0].data.metadata.annotations[PREVIOUS_VERSION_ANNOTATION]).toBe(NEW.name);
  });

  it('keeps the dialog open with a clear notice on a 403', async() => {
    const approval = usePoolApprovalStore();
    const { store } = shellStore(undefined, () => Promise.reject(new WriteError('forbidden', 403, 'Forbidden')));

    approval.open('approve', poolObject({ selector: SELECTOR }), VERSIONS, NOW);

    expect(await approval.confirm(context(store))).toBe(false);
    expect(approval.notice).toMatchObject({
      kind: 'forbidden', tone: 'error', text: { key: 'osUpgrades.approve.forbidden' }
    });
    expect(approval.request).not.toBeNull();
  });

  it('sends a plain Kubernetes object, without the shell model fields', async() => {
    const approval = usePoolApprovalStore();
    const { store, writes } = shellStore(undefined);
    const object = poolObject({ selector: SELECTOR });
    const model = {
      ...object, id: 'fleet-default/edge', type: 'elemental.cattle.io.managedosimage', links: { self: 'x' }
    };

    (object.metadata as Record<string, unknown>).fields = ['edge'];
    approval.open('approve', model, VERSIONS, NOW);
    await approval.confirm(context(store));

    expect(Object.keys(writes[0].data).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(writes[0].data.metadata.fields).toBeUndefined();
  });
});

describe('promotion through the approval store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setShownPools([]);
  });

  it('writes the offered image with kind promote, its source and the soak as the comment', async() => {
    const approval = usePoolApprovalStore();
    const { store, writes } = shellStore(undefined);

    approval.openPromotion(poolObject({ pin: OLD.name, resourceVersion: '3' }), VERSIONS, NOW, MID.name, 'fleet-default/canary', 'Soaked 30 h');
    expect(approval.request).toMatchObject({
      kind: 'promote', versionName: MID.name, source: 'fleet-default/canary'
    });
    expect(approval.comment).toBe('Soaked 30 h');
    expect(await approval.confirm(context(store))).toBe(true);
    expect(writes[0].data.spec.managedOSVersionName).toBe(MID.name);
    const history = JSON.parse(writes[0].data.metadata.annotations['os-upgrades.cattle.io/history']);

    expect(history[history.length - 1]).toMatchObject({
      kind: 'promote', from: OLD.name, to: MID.name, comment: 'Soaked 30 h'
    });
  });
});
