/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { SocketLike } from '../../api/downstream';
import { TYPE } from '../../config';
import { useNodeRolloutStore } from '../node-rollout';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const fleetCluster = (name: string, id?: string) => ({
  metadata: {
    name, namespace: 'fleet-default', labels: { site: 'x', ...(id ? { 'management.cattle.io/cluster-name': id } : {}) }
  }
});

const pool = {
  metadata: { name: 'p', namespace: 'fleet-default' },
  spec:     { managedOSVersionName: 'v2', clusterTargets: [{ clusterSelector: { matchLabels: { site: 'x' } } }] },
};
const versions = [{
  name: 'v2', namespace: 'fleet-default', channel: '', version: '', type: 'container', displayName: '', image: 'r/os:v2', platforms: [], inSync: true
}];
const plan = {
  metadata: { name: 'os-upgrader-p', namespace: 'cattle-system' },
  spec:     { version: 'v2' },
  status:   {
    latestVersion: 'v2', latestHash: 'h', applying: []
  }
};
const node = (name: string, tag: string, hash: string) => ({
  metadata: { name, labels: { 'plan.upgrade.cattle.io/os-upgrader-p': hash, 'elemental.cattle.io/tag': tag } }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { osImage: 'SUSE Linux Micro 6.1' } }
});

class FakeSocket implements SocketLike {
  readyState = 1;
  sent: string[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }

  close() {
    this.closed = true;
  }

  emit(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

/** `member`: Steve's answers to a cluster member without the System project (Plans 404, no cattle-system namespace). */
const REVISIONS: Record<string, string> = {
  nodes: '100', 'batch.jobs': '90', 'upgrade.cattle.io.plans': '95'
};

function setup(downstream: Record<string, { status?: number; nodes?: unknown[]; member?: boolean }>) {
  const sockets: FakeSocket[] = [];
  const dispatch = jest.fn((action: string, payload: { type?: string; url?: string }) => {
    if (action === 'management/findAll') {
      return Promise.resolve(payload.type === TYPE.FLEET_CLUSTER ? [fleetCluster('a', 'c-m-a'), fleetCluster('b', 'c-m-b'), fleetCluster('c')] : []);
    }
    const [, id, type] = /^\/k8s\/clusters\/([^/]+)\/v1\/([^/]+)/.exec(payload.url ?? '') ?? [];
    const cluster = downstream[id];

    if (!cluster || cluster.status) {
      return Promise.reject(Object.assign(new Error('no'), { _status: cluster?.status ?? 503 }));
    }
    if (cluster.member && (type === 'upgrade.cattle.io.plans' || type === 'namespaces')) {
      return Promise.reject(Object.assign(new Error('not found'), { _status: 404 }));
    }
    const data = type === 'nodes' ? cluster.nodes ?? [] : type === 'upgrade.cattle.io.plans' ? [plan] : [];

    // Each type's list has its own revision (Steve's SQL cache: the last event of that type).
    return Promise.resolve({ data, revision: REVISIONS[type] ?? '1' });
  });
  const store = useNodeRolloutStore();

  store.socketFactory = (url) => {
    const socket = new FakeSocket(url);

    sockets.push(socket);

    return socket;
  };

  return {
    store, sockets, shell: { dispatch, getters: {} }
  };
}

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('node rollout store', () => {
  it('reads each targeted cluster, says why one cannot be read, and summarizes from what it read', async() => {
    const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [node('a1', 'v2', 'h'), node('a2', 'v1', 'old')] }, 'c-m-b': { status: 403 } });

    await store.loadFleet(shell);
    expect(store.clusterIdsOf([pool])).toEqual(['c-m-a', 'c-m-b']);
    store.follow('page', store.clusterIdsOf([pool]));
    await flush();

    const summary = store.summary(pool, versions);

    expect(summary.clusters.map((c) => [c.cluster, c.reading])).toEqual([['a', 'read'], ['b', 'forbidden'], ['c', 'unmapped']]);
    expect(summary.verdict).toBe('unknown');
    expect(summary.counts).toMatchObject({
      total: 2, updated: 1, waiting: 1
    });
    expect(sockets.map((s) => s.url)).toEqual(['/k8s/clusters/c-m-a/v1/subscribe']);
  });

  it('follows the watch, each type from its own list\'s revision: a node event changes the summary without reading again', async() => {
    const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [node('a1', 'v1', 'old')] } });

    await store.loadFleet(shell);
    store.follow('page', ['c-m-a']);
    await flush();
    sockets[0].onopen?.({});
    expect(sockets[0].sent.map((m) => JSON.parse(m))).toEqual([
      { resourceType: 'node', resourceVersion: '100' },
      {
        resourceType: 'batch.job', namespace: 'cattle-system', resourceVersion: '90'
      },
      {
        resourceType: 'upgrade.cattle.io.plan', namespace: 'cattle-system', resourceVersion: '95'
      },
    ]);
    expect(store.nodeRows(pool, versions).map((r) => r.state)).toEqual(['waiting']);
    sockets[0].emit({
      name: 'resource.change', resourceType: 'node', data: node('a1', 'v2', 'h')
    });
    expect(store.nodeRows(pool, versions).map((r) => r.state)).toEqual(['updated']);
    expect(shell.dispatch.mock.calls.filter(([action]) => action === 'management/request')).toHaveLength(4);
  });

  it('reads a cluster where the person sees the nodes but not the Plans and Jobs once, and says so instead of retrying', async() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [node('a1', 'v2', 'h'), node('a2', 'v1', 'old')], member: true } });

      await store.loadFleet(shell);
      store.follow('page', ['c-m-a']);
      for (let i = 0; i < 8; i++) {
        await Promise.resolve();
      }
      const reading = store.readings['c-m-a'];

      expect(reading).toMatchObject({ kind: 'read', hidden: ['plans', 'jobs'] });
      expect(store.nodeRows(pool, versions).map((r) => r.state)).toEqual(['updated', 'unknown']);
      const reads = shell.dispatch.mock.calls.length;

      jest.advanceTimersByTime(30000);
      expect(shell.dispatch.mock.calls).toHaveLength(reads);
      // Only the nodes are watched.
      sockets[0].onopen?.({});
      expect(sockets[0].sent.map((m) => JSON.parse(m).resourceType)).toEqual(['node']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('lets a cluster go when no owner asks for it any more, and keeps it while one does', async() => {
    const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [] } });

    await store.loadFleet(shell);
    store.follow('page', ['c-m-a']);
    store.follow('panel', ['c-m-a']);
    await flush();
    store.release('page');
    expect(sockets[0].closed).toBe(false);
    store.release('panel');
    expect(sockets[0].closed).toBe(true);
    expect(store.readings['c-m-a']).toBeUndefined();
  });

  it('keeps a page\'s clusters watched a while after it is left, so a visit back reads none of them again', async() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [node('a1', 'v2', 'h')] } });

      await store.loadFleet(shell);
      store.follow('page', ['c-m-a']);
      for (let i = 0; i < 6; i++) {
        await Promise.resolve();
      }
      const reads = shell.dispatch.mock.calls.length;

      store.release('page', 60000);
      jest.advanceTimersByTime(59000);
      expect(sockets[0].closed).toBe(false);
      store.follow('page', ['c-m-a']);
      expect(store.readings['c-m-a']?.kind).toBe('read');
      jest.advanceTimersByTime(5000);
      expect(sockets[0].closed).toBe(false);
      expect(shell.dispatch.mock.calls).toHaveLength(reads);
      expect(sockets).toHaveLength(1);

      store.release('page', 60000);
      jest.advanceTimersByTime(60000);
      expect(sockets[0].closed).toBe(true);
      expect(store.readings['c-m-a']).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('works a pool\'s summary out again when the pool is written, and keeps it while nothing changed', async() => {
    const { store, shell } = setup({ 'c-m-a': { nodes: [node('a1', 'v2', 'h')] } });
    const live = {
      ...pool, metadata: { ...pool.metadata, resourceVersion: '1' }, spec: { ...pool.spec }
    };
    const both = [...versions, {
      ...versions[0], name: 'v3', image: 'r/os:v3'
    }];

    await store.loadFleet(shell);
    store.follow('page', ['c-m-a', 'c-m-b']);
    await flush();
    const first = store.summary(live, both);

    expect(first.image).toBe('os:v2');
    expect(first.counts).toMatchObject({ total: 1, updated: 1 });
    expect(store.summary(live, [...both])).toBe(first);

    // The shell's store writes its models in place: a new pin comes with a new resourceVersion.
    live.spec.managedOSVersionName = 'v3';
    live.metadata.resourceVersion = '2';
    const written = store.summary(live, both);

    expect(written.image).toBe('os:v3');
    expect(written.counts).toMatchObject({ total: 1, updated: 0 });
  });

  it('reads again after the watch is lost', async() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [] } });

      await store.loadFleet(shell);
      store.follow('page', ['c-m-a']);
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
      expect(sockets).toHaveLength(1);
      sockets[0].onclose?.({});
      jest.advanceTimersByTime(5000);
      for (let i = 0; i < 6; i++) {
        await Promise.resolve();
      }
      expect(sockets).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('node rollout store reset', () => {
  it('closes every socket and forgets every reading', async() => {
    const { store, shell, sockets } = setup({ 'c-m-a': { nodes: [node('a1', 'v2', 'h')] } });

    await store.loadFleet(shell);
    store.follow('page', ['c-m-a']);
    await flush();
    store.reset();
    expect(sockets[0].closed).toBe(true);
    expect(store.readings).toEqual({});
    expect(store.fleetClusters).toEqual([]);
    expect(store.shell).toBeUndefined();
  });
});
