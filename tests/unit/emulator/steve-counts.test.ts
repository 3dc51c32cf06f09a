/** @jest-environment node */
/* global jest */
// Steve's `count` object and its watch (rancher/steve pkg/resources/counts/counts.go, buffer.go).
import { KubeObject, ObjectStore } from '../../emulator/kube/store';
import { itemCount } from '../../emulator/steve/counts';
import { SteveSubscription, SubscriberSocket } from '../../emulator/steve/watch';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';

const TYPE = 'elemental.cattle.io.managedosversionchannel';

function channel(name: string, namespace: string, ready?: 'True' | 'False', labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSVersionChannel',
    metadata:   {
      name, namespace, labels
    },
    ...(ready ? {
      status: {
        conditions: [{
          type: 'Ready', status: ready, reason: 'Synchronizing', message: 'syncing'
        }]
      }
    } : {}),
  } as KubeObject;
}

describe('the count object', () => {
  it('counts each type\'s objects, those transitioning or in error, and the same per namespace, leaving zeros out', () => {
    expect(itemCount([channel('a', 'fleet-default'), channel('b', 'fleet-default', 'False'), channel('c', 'fleet-local')])).toEqual({
      summary: {
        count: 3, states: { 'in-progress': 1 }, transitioning: 1
      },
      namespaces: {
        'fleet-default': {
          count: 2, states: { 'in-progress': 1 }, transitioning: 1
        },
        'fleet-local': { count: 1 },
      },
    });
    expect(itemCount([])).toEqual({ summary: {} });
  });
});

describe('the count watch', () => {
  let store: ObjectStore;
  let sent: { name: string; data?: { counts?: Record<string, unknown> } }[];

  function put(object: KubeObject, action: 'create' | 'change'): void {
    store.put(TYPE, { ...object, metadata: { ...object.metadata, resourceVersion: String(store.nextRevision()) } }, action);
  }

  beforeEach(() => {
    jest.useFakeTimers();
    store = new ObjectStore();
    sent = [];
    const listeners: Record<string, (raw: { toString(): string }) => void> = {};
    const socket: SubscriberSocket = {
      readyState: 1,
      send:       (text) => sent.push(JSON.parse(text)),
      on:         (event: string, listener: (raw: { toString(): string }) => void) => {
        listeners[event] = listener;
      },
    } as SubscriberSocket;

    new SteveSubscription(socket, { // eslint-disable-line no-new
      store,
      storedType:    () => undefined,
      isVirtualType: (name) => name === 'count',
      counts:        (_, types) => ({ id: 'count', counts: Object.fromEntries((types ?? []).map((type) => [type, itemCount(store.list(type))])) }),
      serverVersion: 'test',
      pingMs:        60000,
      sqlCache:      true,
    }, SYSTEM_ACTOR, 'http://localhost');
    listeners.message({ toString: () => JSON.stringify({ resourceType: 'count' }) });
  });

  afterEach(() => jest.useRealTimers());

  const changes = () => sent.filter((m) => m.name === 'resource.change');

  it('sends the first change at once with only the changed type, and nothing for a label edit', () => {
    put(channel('a', 'fleet-default'), 'create');
    expect(changes()).toHaveLength(1);
    expect(changes()[0].data?.counts).toEqual({ [TYPE]: { summary: { count: 1 }, namespaces: { 'fleet-default': { count: 1 } } } });

    put(channel('a', 'fleet-default', undefined, { step: 'edited' }), 'change');
    jest.advanceTimersByTime(10000);
    expect(changes()).toHaveLength(1);
  });

  it('sends a state change, and merges later changes into one every 5 s', () => {
    put(channel('a', 'fleet-default'), 'create');
    put(channel('a', 'fleet-default', 'False'), 'change');
    put(channel('b', 'fleet-default'), 'create');
    expect(changes()).toHaveLength(1);

    jest.advanceTimersByTime(5000);
    expect(changes()).toHaveLength(2);
    expect(changes()[1].data?.counts).toEqual({
      [TYPE]: {
        summary: {
          count: 2, states: { 'in-progress': 1 }, transitioning: 1
        },
        namespaces: {
          'fleet-default': {
            count: 2, states: { 'in-progress': 1 }, transitioning: 1
          }
        }
      }
    });
  });
});
