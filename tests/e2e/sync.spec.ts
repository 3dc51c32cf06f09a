// The operator turns a published channel file into ManagedOSVersions (rancher/elemental-operator
// controllers/managedosversionchannel_controller.go, pkg/syncer/syncer.go JSONSyncer): new entries created
// (label, owner reference, last-sync annotation), changed entries updated, dropped entries annotated
// no-longer-in-sync; a broken file counts failed sync attempts; deleting the channel removes its
// versions. Each test publishes its channel through the API (support/seed.ts), so it checks the
// emulator's operator and a real Rancher's alike.

import { field, records, steveUrl } from './support/api';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, VERSION_TYPE } from './support/names';
import { containerEntry } from './support/channels';
import { SeededChannel, useSeed } from './support/seed';

const CHANNEL_LABEL = 'elemental.cattle.io/channel';
const NO_LONGER_IN_SYNC = 'elemental.cattle.io/channel-no-longer-in-sync';
const PREFIX = 'e2e-sync';

const seed = useSeed();

/** A version of the channel as stored: its entry `n` (containerEntry). */
async function version(channel: SeededChannel, n: number): Promise<Record<string, unknown> | undefined> {
  return seed.get(VERSION_TYPE, channel.version(`${ PREFIX }-v1.0.${ n }-os`), channel.namespace);
}

async function annotations(channel: SeededChannel, n: number): Promise<Record<string, string>> {
  return (field(await version(channel, n), 'metadata.annotations') ?? {}) as Record<string, string>;
}

test.describe('channel sync', () => {
  test('creates, updates and marks versions no-longer-in-sync as the operator does', async() => {
    const channel = await seed.channel({ name: PREFIX, entries: [containerEntry(PREFIX, 3), containerEntry(PREFIX, 2), containerEntry(PREFIX, 1)] });
    const channelObject = await seed.get(CHANNEL_TYPE, channel.name, channel.namespace);

    await expect.poll(async() => records(field(await seed.get(CHANNEL_TYPE, channel.name, channel.namespace), 'status.conditions')).find((c) => c.type === 'Ready'))
      .toMatchObject({ status: 'True', reason: 'Synchronized' });
    const synced = await seed.get(CHANNEL_TYPE, channel.name, channel.namespace);

    expect(field(synced, 'status.lastSyncedTime')).toMatch(/Z$/);
    // omitempty in the operator's API: a count of 0 is not written.
    expect(field(synced, 'status.failedSynchronizationAttempts')).toBeUndefined();

    const versions = await seed.versions(channel);

    expect(versions).toHaveLength(3);
    for (const stored of versions) {
      expect(field(stored, 'metadata.labels')).toEqual({ [CHANNEL_LABEL]: channel.name });
      expect(field(stored, 'metadata.ownerReferences')).toEqual([{
        apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: channel.name, uid: field(channelObject, 'metadata.uid'), controller: true
      }]);
      expect(Object.keys(field(stored, 'metadata.annotations') as object)).toEqual(['elemental.cattle.io/channel-last-sync']);
    }
    const uidOf2 = field(await version(channel, 2), 'metadata.uid');

    // v1.0.2 is dropped, v1.0.3 changes, v1.0.4 is new.
    await seed.publish(channel, [containerEntry(PREFIX, 4), containerEntry(PREFIX, 3, 'E2E OS (rebuilt)'), containerEntry(PREFIX, 1)]);
    await expect.poll(async() => field(await version(channel, 3), 'spec.metadata.displayName')).toBe('E2E OS (rebuilt)');
    await expect.poll(async() => (await annotations(channel, 2))[NO_LONGER_IN_SYNC]).toBe('true');
    expect((await annotations(channel, 1))[NO_LONGER_IN_SYNC]).toBeUndefined();
    expect((await annotations(channel, 4))[NO_LONGER_IN_SYNC]).toBeUndefined();

    // An entry that comes back loses the annotation again, and is the same object (not created anew).
    await seed.publish(channel, [containerEntry(PREFIX, 4), containerEntry(PREFIX, 3, 'E2E OS (rebuilt)'), containerEntry(PREFIX, 2), containerEntry(PREFIX, 1)]);
    await expect.poll(async() => (await annotations(channel, 2))[NO_LONGER_IN_SYNC]).toBeUndefined();
    expect(field(await version(channel, 2), 'metadata.uid')).toBe(uidOf2);
    expect(await seed.versions(channel)).toHaveLength(4);
  });

  test('a broken channel file fails the sync and counts the attempts', async() => {
    const channel = await seed.channel({ name: PREFIX, entries: [containerEntry(PREFIX, 1)] });

    await seed.publishText(channel, '{"not": "an array"');
    // The controller retries a failed sync itself (its rate limiter), counting the attempts; while
    // a retry runs, Ready reads "started synchronization pod" until that attempt fails too.
    const failures = async() => {
      const channelObject = await seed.get(CHANNEL_TYPE, channel.name, channel.namespace);
      const ready = records(field(channelObject, 'status.conditions')).find((c) => c.type === 'Ready');

      return {
        counted: Number(field(channelObject, 'status.failedSynchronizationAttempts')) >= 2, status: ready?.status, reason: ready?.reason, message: ready?.message
      };
    };

    await expect.poll(failures, { timeout: 60_000 }).toEqual({
      counted: true, status: 'False', reason: 'FailedToSync', message: 'failed channel synchronization'
    });
    // The versions of the last good sync stay as they were.
    expect(await version(channel, 1)).toBeTruthy();
  });

  test('deleting the channel garbage-collects its versions', async() => {
    const channel = await seed.channel({ name: PREFIX, entries: [containerEntry(PREFIX, 1)] });

    expect(await version(channel, 1)).toBeTruthy();
    expect((await seed.api.delete(steveUrl(CHANNEL_TYPE, channel.namespace, channel.name))).status).toBeLessThan(300);
    // Kubernetes' garbage collector follows the versions' owner reference to the channel.
    await expect.poll(() => version(channel, 1), { timeout: 60_000 }).toBeUndefined();
  });
});
