// The simulated operator turns a published channel file into ManagedOSVersions as the real one does:
// new entries created (label, owner reference, last-sync annotation), changed entries updated,
// dropped entries annotated no-longer-in-sync; a broken file counts failed sync attempts.

import { field, records, sessionApi, steveUrl } from './support/api';
import { EmulatorControl, requireEmulator } from './support/emulator';
import { loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNEL_TYPE, NS, VERSION_TYPE } from './support/names';
import { containerEntry } from './support/channels';

test.describe('channel sync', () => {
  let control: EmulatorControl;
  let channel = '';

  test.beforeAll(async() => {
    if (!process.env.E2E_BASE_URL) {
      control = await EmulatorControl.connect();
    }
  });

  test.afterAll(async() => {
    await control?.dispose();
  });

  test.beforeEach(() => {
    requireEmulator();
    channel = `e2e-sync-${ Date.now().toString(36) }`;
  });

  test.afterEach(async({ page }) => {
    await sessionApi(page).delete(steveUrl(CHANNEL_TYPE, NS, channel));
  });

  test('creates, updates and marks versions no-longer-in-sync as the operator does', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    const first = await control.publishChannel(channel, [containerEntry(channel, 3), containerEntry(channel, 2), containerEntry(channel, 1)]);

    expect(first.ok).toBe(true);
    expect(first.created.sort()).toEqual([`${ channel }-v1.0.1-os`, `${ channel }-v1.0.2-os`, `${ channel }-v1.0.3-os`]);

    const channelObject = (await api.get(steveUrl(CHANNEL_TYPE, NS, channel))).body;
    const conditions = records(field(channelObject, 'status.conditions'));

    expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'Synchronized' });
    expect(field(channelObject, 'status.lastSyncedTime')).toMatch(/Z$/);
    // omitempty in the operator's API: a count of 0 is not written.
    expect(field(channelObject, 'status.failedSynchronizationAttempts')).toBeUndefined();

    const listed = await api.get(`${ steveUrl(VERSION_TYPE, NS) }?labelSelector=${ encodeURIComponent(`elemental.cattle.io/channel=${ channel }`) }`);
    const versions = records(listed.body.data);

    expect(versions).toHaveLength(3);
    for (const version of versions) {
      expect(field(version, 'metadata.labels')).toEqual({ 'elemental.cattle.io/channel': channel });
      expect(field(version, 'metadata.ownerReferences')).toEqual([{
        apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: channel, uid: field(channelObject, 'metadata.uid'), controller: true
      }]);
      expect(Object.keys(field(version, 'metadata.annotations') as object)).toEqual(['elemental.cattle.io/channel-last-sync']);
    }

    // v1.0.2 is dropped, v1.0.3 changes, v1.0.4 is new.
    const second = await control.publishChannel(channel, [containerEntry(channel, 4), containerEntry(channel, 3, 'E2E OS (rebuilt)'), containerEntry(channel, 1)]);

    expect(second.created).toEqual([`${ channel }-v1.0.4-os`]);
    expect(second.changed).toEqual([`${ channel }-v1.0.3-os`]);
    expect(second.deprecated).toEqual([`${ channel }-v1.0.2-os`]);

    const changed = (await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.3-os`))).body;
    const dropped = (await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.2-os`))).body;
    const kept = (await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.1-os`))).body;

    expect(field(changed, 'spec.metadata.displayName')).toBe('E2E OS (rebuilt)');
    expect((field(dropped, 'metadata.annotations') as Record<string, string>)['elemental.cattle.io/channel-no-longer-in-sync']).toBe('true');
    expect((field(kept, 'metadata.annotations') as Record<string, string>)['elemental.cattle.io/channel-no-longer-in-sync']).toBeUndefined();

    // An entry that comes back loses the annotation again.
    const third = await control.publishChannel(channel, [containerEntry(channel, 4), containerEntry(channel, 3, 'E2E OS (rebuilt)'), containerEntry(channel, 2), containerEntry(channel, 1)]);

    expect(third.created).toEqual([]);
    const back = (await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.2-os`))).body;

    expect((field(back, 'metadata.annotations') as Record<string, string>)['elemental.cattle.io/channel-no-longer-in-sync']).toBeUndefined();
  });

  test('a broken channel file fails the sync and counts the attempts', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    await control.publishChannel(channel, [containerEntry(channel, 1)]);
    const failed = await control.publishChannel(channel, '{"not": "an array"');

    expect(failed.ok).toBe(false);
    // The controller retries a failed sync itself (its rate limiter), counting the attempts; while
    // a retry runs, Ready reads "started synchronization pod" until that attempt fails too.
    const failures = async() => {
      const channelObject = (await api.get(steveUrl(CHANNEL_TYPE, NS, channel))).body;
      const ready = records(field(channelObject, 'status.conditions')).find((c) => c.type === 'Ready');

      return {
        counted: Number(field(channelObject, 'status.failedSynchronizationAttempts')) >= 2, status: ready?.status, reason: ready?.reason, message: ready?.message
      };
    };

    await expect.poll(failures, { timeout: 20_000 }).toEqual({
      counted: true, status: 'False', reason: 'FailedToSync', message: 'failed channel synchronization'
    });
    // The versions of the last good sync stay as they were.
    expect((await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.1-os`))).status).toBe(200);
  });

  test('deleting the channel garbage-collects its versions', async({ page }) => {
    await loginAs(page, 'admin');
    const api = sessionApi(page);

    await control.publishChannel(channel, [containerEntry(channel, 1)]);
    expect((await api.delete(steveUrl(CHANNEL_TYPE, NS, channel))).status).toBe(204);
    await expect.poll(async() => (await api.get(steveUrl(VERSION_TYPE, NS, `${ channel }-v1.0.1-os`))).status).toBe(404);
  });
});
