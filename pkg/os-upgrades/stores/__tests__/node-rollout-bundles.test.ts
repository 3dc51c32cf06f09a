/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { TYPE } from '../../config';
import { useNodeRolloutStore } from '../node-rollout';

const IMAGE = 'registry.example.com/os';
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A pool whose operator says it made its Bundle (so a Bundle not found is missing). */
const pool = (name: string) => ({
  metadata: { name, namespace: 'fleet-default' },
  spec:     { managedOSVersionName: 'v2' },
  status:   { conditions: [{ type: 'FleetBundleCreation', status: 'True' }] },
});
const versions = [{
  name: 'v2', namespace: 'fleet-default', channel: '', version: '', type: 'container', displayName: '', image: `${ IMAGE }:v2`, platforms: [], inSync: true
}];

/** The operator's Bundle of a pool: its Plan, and Fleet's Ready. */
function bundle(name: string, ready: string) {
  const plan = { kind: 'Plan', spec: { version: 'v2', upgrade: { image: IMAGE } } };

  return {
    metadata: {
      name, namespace: 'fleet-default', generation: 1
    },
    spec:   { resources: [{ name: 'plan.yaml', content: JSON.stringify(plan) }] },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: ready }] },
  };
}

interface NameField { field: string; value: string; exact: boolean }
interface PageOpt { pagination: { filters: { fields: NameField[] }[] } }

/** A shell that pages Bundles: a findPage answers the Bundles of the names asked; watchEvent keeps its callback. */
function setup(paged = true) {
  const stored = new Map([['mos-a', bundle('mos-a', 'False')], ['mos-other', bundle('mos-other', 'True')]]);
  const asked: string[][] = [];
  const watches: ((event: { revision?: string }) => void)[] = [];
  const dispatch = jest.fn((action: string, payload: { type?: string; opt?: PageOpt; callback?: (event: object) => void }) => {
    if (action === 'management/findPage' && payload.type === TYPE.FLEET_BUNDLE) {
      const names = (payload.opt as PageOpt).pagination.filters.flatMap((f) => f.fields).filter((f) => f.field === 'metadata.name').map((f) => f.value);

      asked.push(names);

      return Promise.resolve({ data: names.flatMap((name) => stored.get(name) ?? []), pagination: { result: { count: 1 } } });
    }
    if (action === 'management/findAll') {
      return Promise.resolve(payload.type === TYPE.FLEET_BUNDLE ? [...stored.values()] : []);
    }
    if (action === 'management/watchEvent') {
      watches.push(payload.callback as (event: object) => void);
    }

    return Promise.resolve();
  });
  const getters = { 'management/paginationEnabled': ({ id }: { id: string }) => paged && id === TYPE.IMAGE };

  return {
    store: useNodeRolloutStore(), shell: { dispatch, getters }, stored, asked, watches
  };
}

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('the pools list\'s Fleet Bundles', () => {
  it('reads only the Bundles of the pools in view, by name, and tells delivered, waiting and missing apart', async() => {
    const { store, shell, asked } = setup();

    await store.loadFleet(shell, { everyBundle: false });
    expect(shell.dispatch).not.toHaveBeenCalledWith('management/findAll', expect.objectContaining({ type: TYPE.FLEET_BUNDLE }));
    // A pool of no page yet: nothing is said about its Bundle.
    expect(store.summary(pool('b'), versions).verdict).not.toBe('bundleMissing');

    await store.followBundles(shell, [pool('a'), pool('b')]);
    expect(asked).toEqual([['mos-a', 'mos-b']]);
    expect(store.delivered(pool('a'), versions)).toBe(false);
    expect(store.summary(pool('a'), versions).verdict).not.toBe('bundleMissing');
    expect(store.summary(pool('b'), versions).verdict).toBe('bundleMissing');
  });

  it('reads them again when a Bundle changes, and not when the same pools are shown again', async() => {
    const {
      store, shell, stored, asked, watches
    } = setup();

    await store.followBundles(shell, [pool('a')]);
    await store.followBundles(shell, [pool('a')]);
    // A visit back: the page renders before it has its pools, then shows the same ones.
    store.releaseBundles(60_000);
    await store.followBundles(shell, []);
    await store.followBundles(shell, [pool('a')]);
    expect(asked).toHaveLength(1);

    stored.set('mos-a', bundle('mos-a', 'True'));
    watches.forEach((callback) => callback({ revision: '7' }));
    await flush();
    expect(asked).toHaveLength(2);
    expect(store.delivered(pool('a'), versions)).toBe(true);

    await store.followBundles(shell, [pool('other')]);
    expect(asked[2]).toEqual(['mos-other']);
    expect(store.delivered(pool('other'), versions)).toBe(true);
  });

  it('stops watching once the page is left, and forgets what it read', async() => {
    const { store, shell } = setup();

    await store.followBundles(shell, [pool('b')]);
    store.releaseBundles();
    expect(shell.dispatch).toHaveBeenCalledWith('management/unwatchEvent', expect.objectContaining({ params: expect.objectContaining({ type: TYPE.FLEET_BUNDLE }) }));
    expect(store.summary(pool('b'), versions).verdict).not.toBe('bundleMissing');
  });

  it('drops a read that answers after the page was left', async() => {
    const { store, shell } = setup();
    const reading = store.followBundles(shell, [pool('b')]);

    store.releaseBundles();
    await reading;
    expect(store.summary(pool('b'), versions).verdict).not.toBe('bundleMissing');
  });

  it('reads every Bundle where the shell does not page them', async() => {
    const { store, shell, asked } = setup(false);

    await store.loadFleet(shell, { everyBundle: false });
    await store.followBundles(shell, [pool('b')]);
    expect(asked).toEqual([]);
    expect(store.delivered(pool('other'), versions)).toBe(true);
    expect(store.summary(pool('b'), versions).verdict).toBe('bundleMissing');
  });
});
