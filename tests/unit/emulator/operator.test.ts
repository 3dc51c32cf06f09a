/** @jest-environment node */
import { CHANNEL_LABEL, LAST_SYNC_ANNOTATION, NO_LONGER_IN_SYNC_ANNOTATION, parseGoDuration } from '../../emulator/operator/operator';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import {
  annotations, emulatorWith, entry, fixtures, ready
} from './helpers';

const VERSION = 'elemental.cattle.io.managedosversion';
const CHANNEL = 'elemental.cattle.io.managedosversionchannel';

describe('simulated operator: channel sync', () => {
  it('turns each channel file entry into a ManagedOSVersion with label, owner and last-sync annotation', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1.0.1'), entry('os-2', 'v1.0.2')] }));
    const channel = em.api.get(em.types.require(CHANNEL), 'fleet-default', 'test');
    const versions = em.api.list(em.types.require(VERSION)).items;

    expect(versions.map((v) => v.metadata.name)).toEqual(['os-1', 'os-2']);
    for (const v of versions) {
      expect(v.metadata.labels).toEqual({ [CHANNEL_LABEL]: 'test' });
      expect(v.metadata.ownerReferences).toEqual([{
        apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: 'test', uid: channel.metadata.uid, controller: true
      }]);
      expect(Object.keys(annotations(v))).toEqual([LAST_SYNC_ANNOTATION]);
      expect(v.spec).toMatchObject({ type: 'container', metadata: { displayName: 'Test OS' } });
    }
    expect(ready(channel)).toMatchObject({
      status: 'True', reason: 'Synchronized', message: 'successfully loaded channel data'
    });
    expect(channel.status).toMatchObject({ syncedGeneration: 1 });
    expect(channel.status).not.toHaveProperty('failedSynchronizationAttempts');
    expect((channel.status as { lastSyncedTime: string }).lastSyncedTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    em.stop();
  });

  it('updates changed entries, flags dropped ones no-longer-in-sync, and clears the flag when they return', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1.0.1'), entry('os-2', 'v1.0.2')] }));
    const type = em.types.require(VERSION);

    em.files.publishChannel('test', JSON.stringify([entry('os-1', 'v1.0.1', { displayName: 'Rebuilt' }), entry('os-3', 'v1.0.3')]));
    const second = await em.operator.sync('fleet-default', 'test');

    expect(second).toMatchObject({
      ok: true, created: ['os-3'], updated: ['os-1'], changed: ['os-1'], deprecated: ['os-2']
    });
    expect(em.api.get(type, 'fleet-default', 'os-1').spec).toMatchObject({ metadata: { displayName: 'Rebuilt' } });
    expect(annotations(em.api.get(type, 'fleet-default', 'os-2'))[NO_LONGER_IN_SYNC_ANNOTATION]).toBe('true');
    expect(annotations(em.api.get(type, 'fleet-default', 'os-1'))[NO_LONGER_IN_SYNC_ANNOTATION]).toBeUndefined();

    em.files.publishChannel('test', JSON.stringify([entry('os-2', 'v1.0.2')]));
    await em.operator.sync('fleet-default', 'test');
    expect(annotations(em.api.get(type, 'fleet-default', 'os-2'))[NO_LONGER_IN_SYNC_ANNOTATION]).toBeUndefined();
    em.stop();
  });

  // A withdrawal (pkg/os-upgrades/domain/withdrawal.ts) lives on the channel because the sync
  // replaces the versions' labels and annotations but only patches the channel's status
  // (elemental-operator controllers/managedosversionchannel_controller.go, Reconcile and
  // createManagedOSVersions).
  it('keeps the channel\'s own annotations (a withdrawal) across a sync, and replaces the versions\'', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1.0.1'), entry('os-2', 'v1.0.2')] }));
    const channelType = em.types.require(CHANNEL);
    const versionType = em.types.require(VERSION);
    const withdrawn = JSON.stringify({
      'os-2': {
        reason: 'breaks boot', by: 'admin', at: '2025-10-09T00:00:00.000Z'
      }
    });
    const channel = em.api.get(channelType, 'fleet-default', 'test');
    const version = em.api.get(versionType, 'fleet-default', 'os-2');

    em.api.update(channelType, 'fleet-default', 'test', { ...channel, metadata: { ...channel.metadata, annotations: { ...annotations(channel), 'os-upgrades.cattle.io/withdrawn': withdrawn } } }, SYSTEM_ACTOR);
    em.api.update(versionType, 'fleet-default', 'os-2', { ...version, metadata: { ...version.metadata, annotations: { ...annotations(version), 'os-upgrades.cattle.io/withdrawn': 'lost' } } }, SYSTEM_ACTOR);
    const result = await em.operator.sync('fleet-default', 'test');

    expect(result).toMatchObject({ ok: true });
    expect(annotations(em.api.get(channelType, 'fleet-default', 'test'))['os-upgrades.cattle.io/withdrawn']).toBe(withdrawn);
    expect(annotations(em.api.get(versionType, 'fleet-default', 'os-2'))['os-upgrades.cattle.io/withdrawn']).toBeUndefined();
    em.stop();
  });

  it('deletes dropped versions when the channel says deleteNoLongerInSyncVersions', async() => {
    const em = await emulatorWith(fixtures({}, [{
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersionChannel',
      metadata:   { name: 'tidy', namespace: 'fleet-default' },
      spec:       {
        type: 'json', deleteNoLongerInSyncVersions: true, options: { uri: 'http://localhost:1/__emulator/channel-files/tidy.json' }
      },
    }]));

    em.files.publishChannel('tidy', JSON.stringify([entry('a', 'v1'), entry('b', 'v2')]));
    await em.operator.sync('fleet-default', 'tidy');
    em.files.publishChannel('tidy', JSON.stringify([entry('b', 'v2')]));
    const result = await em.operator.sync('fleet-default', 'tidy');

    expect(result).toMatchObject({ deprecated: ['a'], deleted: ['a'] });
    expect(em.api.list(em.types.require(VERSION)).items.map((v) => v.metadata.name)).toEqual(['b']);
    em.stop();
  });

  it('prefixes the channel registry and copies its upgradeContainer', async() => {
    const em = await emulatorWith(fixtures({}, [{
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersionChannel',
      metadata:   { name: 'mirror', namespace: 'fleet-default' },
      spec:       {
        type: 'json', registry: 'mirror.example.test', upgradeContainer: { image: 'custom:1' }, options: { uri: 'http://localhost:1/__emulator/channel-files/mirror.json' }
      },
    }]));

    em.files.publishChannel('mirror', JSON.stringify([entry('a', 'v1')]));
    await em.operator.sync('fleet-default', 'mirror');
    expect(em.api.get(em.types.require(VERSION), 'fleet-default', 'a').spec).toMatchObject({ metadata: { upgradeImage: 'mirror.example.test/registry.example.test/os:v1' }, upgradeContainer: { image: 'custom:1' } });
    em.stop();
  });

  it('goes through the operator\'s states: started pod, ongoing, then synced with the versions', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1.0.1')] }));
    const seen: string[] = [];
    const versionsWhenSynced: number[] = [];
    const unsubscribe = em.store.subscribe((event) => {
      if (event.type === CHANNEL && event.object.metadata.name === 'test') {
        const condition = ready(event.object) as { reason: string; message: string };
        const text = `${ condition.reason }: ${ condition.message }`;

        if (seen[seen.length - 1] !== text) {
          seen.push(text);
        }
        if (condition.reason === 'Synchronized') {
          versionsWhenSynced.push(em.api.list(em.types.require(VERSION)).items.length);
        }
      }
    });

    em.files.publishChannel('test', JSON.stringify([entry('os-1', 'v1.0.1'), entry('os-2', 'v1.0.2')]));
    await em.operator.sync('fleet-default', 'test');
    unsubscribe();
    // rancher/elemental-operator controllers/managedosversionchannel_controller.go createSyncerPod, handleSyncPod.
    expect(seen).toEqual([
      'Synchronizing: started synchronization pod',
      'Synchronizing: ongoing channel synchronization',
      'Synchronized: successfully loaded channel data',
    ]);
    expect(versionsWhenSynced[0]).toBe(2);
    em.stop();
  });

  it('counts failed attempts for a broken channel file and keeps the versions it had', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1.0.1')] }));

    em.files.publishChannel('test', '{ this is not json');
    await em.operator.sync('fleet-default', 'test');
    // The controller's retry keeps the count (a new generation or the interval resets it).
    await em.operator.sync('fleet-default', 'test', true);
    const channel = em.api.get(em.types.require(CHANNEL), 'fleet-default', 'test');

    expect(ready(channel)).toMatchObject({
      status: 'False', reason: 'FailedToSync', message: 'failed channel synchronization'
    });
    expect((channel.status as { failedSynchronizationAttempts: number }).failedSynchronizationAttempts).toBe(2);
    expect(em.api.find(em.types.require(VERSION), 'fleet-default', 'os-1')).toBeDefined();

    em.files.publishChannel('test', JSON.stringify([entry('os-1', 'v1.0.1')]));
    await em.operator.sync('fleet-default', 'test', true);
    // failedSynchronizationAttempts is omitempty in the operator's API: 0 is not written.
    expect(em.api.get(em.types.require(CHANNEL), 'fleet-default', 'test').status).not.toHaveProperty('failedSynchronizationAttempts');
    em.stop();
  });

  it('fails the sync when a version of that name belongs to someone else', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('taken', 'v1')] }));

    em.api.delete(em.types.require(VERSION), 'fleet-default', 'taken', SYSTEM_ACTOR);
    em.api.create(em.types.require(VERSION), 'fleet-default', { metadata: { name: 'taken' }, spec: { version: 'other' } }, SYSTEM_ACTOR);
    const result = await em.operator.sync('fleet-default', 'test');

    expect(result?.ok).toBe(false);
    expect(result?.error).toContain('already exists');
    em.stop();
  });

  it('reports invalid configurations and disabled channels in the Ready condition', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1')] }));
    const type = em.types.require(CHANNEL);
    const channel = em.api.get(type, 'fleet-default', 'test');

    em.api.update(type, 'fleet-default', 'test', { ...channel, spec: { ...(channel.spec as object), syncInterval: 'soon' } }, SYSTEM_ACTOR);
    await em.operator.sync('fleet-default', 'test');
    expect(ready(em.api.get(type, 'fleet-default', 'test'))).toMatchObject({
      status: 'False', reason: 'InvalidConfiguration', message: 'spec.SyncInterval is not parseable by time.ParseDuration'
    });

    const latest = em.api.get(type, 'fleet-default', 'test');

    em.api.update(type, 'fleet-default', 'test', {
      ...latest,
      spec: {
        ...(latest.spec as object), syncInterval: '1h', enabled: false
      }
    }, SYSTEM_ACTOR);
    await em.operator.sync('fleet-default', 'test');
    expect(ready(em.api.get(type, 'fleet-default', 'test'))).toMatchObject({
      status: 'True', reason: 'ChannelDisabled', message: 'Channel is disabled'
    });
    expect(annotations(em.api.get(em.types.require(VERSION), 'fleet-default', 'os-1'))[NO_LONGER_IN_SYNC_ANNOTATION]).toBe('true');
    em.stop();
  });

  it('parses Go durations', () => {
    expect(parseGoDuration('1h')).toBe(3600000);
    expect(parseGoDuration('1h30m')).toBe(5400000);
    expect(parseGoDuration('500ms')).toBe(500);
    expect(parseGoDuration('soon')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
  });
});

describe('simulated Fleet rollout of a ManagedOSImage', () => {
  it('goes WaitApplied → Ready over the targeted clusters once applied, never NotReady for a Plan still running', async() => {
    const em = await emulatorWith(fixtures({ test: [entry('os-1', 'v1')] }, [
      {
        apiVersion: 'fleet.cattle.io/v1alpha1',
        kind:       'Cluster',
        metadata:   {
          name: 'c1', namespace: 'fleet-default', labels: { site: 'x' }
        }
      },
      {
        apiVersion: 'fleet.cattle.io/v1alpha1',
        kind:       'Cluster',
        metadata:   {
          name: 'c2', namespace: 'fleet-default', labels: { site: 'x' }
        }
      },
      {
        apiVersion: 'fleet.cattle.io/v1alpha1',
        kind:       'Cluster',
        metadata:   {
          name: 'c3', namespace: 'fleet-default', labels: { site: 'y' }
        }
      },
    ]), true);
    const type = em.types.require('elemental.cattle.io.managedosimage');
    const messages: string[] = [];
    const stop = em.store.subscribe((event) => {
      if (event.type === type.id) {
        const message = ready(event.object)?.message;

        if (typeof message === 'string') {
          messages.push(message);
        }
      }
    });

    em.api.create(type, 'fleet-default', { metadata: { name: 'pool' }, spec: { managedOSVersionName: 'os-1', clusterTargets: [{ clusterSelector: { matchLabels: { site: 'x' } } }] } }, SYSTEM_ACTOR);
    await new Promise((resolve) => setTimeout(resolve, 400));
    stop();

    expect(messages[0]).toBe('WaitApplied(2) [Cluster fleet-default/c1]');
    expect(messages.some((m) => m.startsWith('NotReady'))).toBe(false);
    expect(messages[messages.length - 1]).toBe('');
    const image = em.api.get(type, 'fleet-default', 'pool');

    expect(ready(image)).toMatchObject({ status: 'True', reason: 'UnknownReason' });
    expect((image.status as { conditions: { type: string }[] }).conditions.map((c) => c.type)).toEqual(['FleetBundleCreation', 'Ready']);
    expect(em.api.find(em.types.require('fleet.cattle.io.bundle'), 'fleet-default', 'mos-pool')).toBeDefined();
    em.stop();
  });

  it('leaves the status alone when the operator refuses the image (fleet-local with targets)', async() => {
    const em = await emulatorWith(fixtures(), true);
    const type = em.types.require('elemental.cattle.io.managedosimage');

    em.api.create(type, 'fleet-local', { metadata: { name: 'bad' }, spec: { osImage: 'x', clusterTargets: [{ clusterName: 'local' }] } }, SYSTEM_ACTOR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(em.api.get(type, 'fleet-local', 'bad').status).toBeUndefined();
    em.stop();
  });
});
