/** @jest-environment node */
import { CHANGELOG_TYPE_ID } from '../../emulator/operator/changelog-crd';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import { emulatorWith, entry, fixtures } from './helpers';

const CHANNEL = [entry('v1-os', 'v1.0.0'), entry('v2-os', 'v1.0.1')];

async function pr891(podStartMs = 20) {
  const data = fixtures({ ch: CHANNEL });

  data.changelogs.set('v2-os', '[]');
  const emulator = await emulatorWith(data, true);

  await emulator.setChangelogMode('pr891', podStartMs, 0.0001);

  return emulator;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the ManagedOSChangelog protocol (elemental-operator PR #891)', () => {
  it('has no ManagedOSChangelog type in the default mode', async() => {
    const emulator = await emulatorWith(fixtures({ ch: CHANNEL }));

    expect(emulator.types.get(CHANGELOG_TYPE_ID)).toBeUndefined();
    emulator.stop();
  });

  it('starts a worker pod, serves the URL once every condition is True, then cleans up', async() => {
    const emulator = await pr891();
    const type = emulator.types.require(CHANGELOG_TYPE_ID);
    const channel = emulator.api.find(emulator.types.require('elemental.cattle.io.managedosversionchannel'), 'fleet-default', 'ch');

    expect(channel?.spec).toMatchObject({ type: 'custom', options: { image: expect.stringContaining('/ch:') } });
    emulator.api.create(type, 'fleet-default', { metadata: { name: 'v2-os' }, spec: { channelRef: { name: 'ch', namespace: 'fleet-default' }, osVersion: 'v2-os' } }, SYSTEM_ACTOR);
    await wait(5);
    const starting = emulator.api.get(type, 'fleet-default', 'v2-os');

    expect(starting.spec).toMatchObject({ cleanupAfterMinutes: 60 });
    expect(starting.status).toMatchObject({
      conditions: expect.arrayContaining([expect.objectContaining({
        type: 'WorkerPodReady', status: 'False', reason: 'WorkerPodInitializing'
      })])
    });
    await wait(60);
    const ready = emulator.api.get(type, 'fleet-default', 'v2-os');

    expect(ready.status).toMatchObject({ changelogURL: 'http://localhost:1/elemental/changelog/v2-os/' });
    expect((ready.status as { conditions: { status: string }[] }).conditions.every((c) => c.status === 'True')).toBe(true);
    // cleanupAfterMinutes 60 × 0.0001: 360 ms.
    await wait(450);
    expect(emulator.api.get(type, 'fleet-default', 'v2-os').status).toMatchObject({
      changelogURL: '',
      conditions:   expect.arrayContaining([expect.objectContaining({
        type: 'WorkerPodReady', status: 'True', reason: 'WorkerPodDeadline'
      })])
    });
    emulator.stop();
  });

  it('fails the pod when the channel image has no log for the version', async() => {
    const emulator = await pr891();
    const type = emulator.types.require(CHANGELOG_TYPE_ID);

    emulator.api.create(type, 'fleet-default', { metadata: { name: 'v1-os' }, spec: { channelRef: { name: 'ch', namespace: 'fleet-default' }, osVersion: 'v1-os' } }, SYSTEM_ACTOR);
    await wait(80);
    expect(emulator.api.get(type, 'fleet-default', 'v1-os').status).toMatchObject({ conditions: expect.arrayContaining([expect.objectContaining({ reason: 'WorkerPodCompletionFailure' })]) });
    emulator.stop();
  });

  it('cannot create the Service of an object named with dots, as Service names are DNS-1035 labels', async() => {
    const emulator = await pr891();
    const type = emulator.types.require(CHANGELOG_TYPE_ID);

    emulator.api.create(type, 'fleet-default', { metadata: { name: 'base-v2.3.0-6.1-os' }, spec: { channelRef: { name: 'ch', namespace: 'fleet-default' }, osVersion: 'v2-os' } }, SYSTEM_ACTOR);
    await wait(5);
    expect(emulator.api.get(type, 'fleet-default', 'base-v2.3.0-6.1-os').status).toMatchObject({
      conditions: expect.arrayContaining([expect.objectContaining({
        type: 'Ready', status: 'False', reason: 'ServiceCreationFailure', message: expect.stringContaining('DNS-1035 label')
      })])
    });
    await wait(80);
    const running = emulator.api.get(type, 'fleet-default', 'base-v2.3.0-6.1-os');

    expect(running.status).not.toHaveProperty('changelogURL');
    expect(running.status).toMatchObject({
      conditions: expect.arrayContaining([expect.objectContaining({
        type: 'WorkerPodReady', status: 'False', reason: 'WorkerPodCompletionFailure'
      })])
    });
    emulator.stop();
  });

  it('says RegistrationNotFound when the channel does not exist', async() => {
    const emulator = await pr891();
    const type = emulator.types.require(CHANGELOG_TYPE_ID);

    emulator.api.create(type, 'fleet-default', { metadata: { name: 'v2-os' }, spec: { channelRef: { name: 'gone', namespace: 'fleet-default' }, osVersion: 'v2-os' } }, SYSTEM_ACTOR);
    await wait(5);
    expect(emulator.api.get(type, 'fleet-default', 'v2-os').status).toMatchObject({
      conditions: [expect.objectContaining({
        type: 'Ready', status: 'False', reason: 'RegistrationNotFound', message: 'managedosversionchannels.elemental.cattle.io "gone" not found'
      })]
    });
    emulator.stop();
  });
});
