import fc from 'fast-check';
import {
  changelogResourceFileUrl, changelogResourceFor, changelogResourceName, changelogResourceState, newChangelogResource, packageTarEntryVersion
} from '../index';

const withStatus = (status: Record<string, unknown>) => ({ metadata: { name: 'c', namespace: 'fleet-default' }, status });
const cond = (type: string, status: string, reason: string, message = '') => ({
  type, status, reason, message
});

describe('changelogResourceState (elemental-operator PR #891 controller)', () => {
  it('is starting before the controller wrote anything, and while the worker pod initialises', () => {
    expect(changelogResourceState({ metadata: {} }).stage).toBe('starting');
    expect(changelogResourceState(withStatus({ conditions: [cond('Ready', 'True', 'ResourcesSuccessfullyCreated'), cond('WorkerPodReady', 'False', 'WorkerPodInitializing', 'worker pod started')] })).stage).toBe('starting');
  });

  it('is ready when every condition is True and a URL is set', () => {
    const state = changelogResourceState(withStatus({
      changelogURL: 'https://rancher.example/elemental/changelog/v1/',
      conditions:   [cond('Ready', 'True', 'ResourcesSuccessfullyCreated'), cond('WorkerPodReady', 'True', 'WorkerPodCompletionSuccess')],
    }));

    expect(state).toEqual({
      stage: 'ready', url: 'https://rancher.example/elemental/changelog/v1/', message: ''
    });
  });

  it('is expired after cleanupAfterMinutes, failed on the controller\'s failure reasons', () => {
    expect(changelogResourceState(withStatus({ conditions: [cond('Ready', 'True', 'ResourcesSuccessfullyCreated'), cond('WorkerPodReady', 'True', 'WorkerPodDeadline')] })).stage).toBe('expired');
    const failed = changelogResourceState(withStatus({ conditions: [cond('Ready', 'True', 'ResourcesSuccessfullyCreated'), cond('WorkerPodReady', 'False', 'WorkerPodCompletionFailure', 'worker pod failed')] }));

    expect(failed).toEqual({
      stage: 'failed', url: '', message: 'worker pod failed'
    });
    expect(changelogResourceState(withStatus({ state: 'Failed' })).stage).toBe('failed');
  });

  it('is failed on every Ready False of the PR\'s controller, with its message', () => {
    const missingChannel = changelogResourceState(withStatus({ conditions: [cond('Ready', 'False', 'RegistrationNotFound', 'managedosversionchannels.elemental.cattle.io "ch" not found')] }));

    expect(missingChannel).toEqual({
      stage: 'failed', url: '', message: 'managedosversionchannels.elemental.cattle.io "ch" not found'
    });
    const noService = changelogResourceState(withStatus({ conditions: [cond('Ready', 'False', 'ServiceCreationFailure', 'Service "a.b" is invalid'), cond('WorkerPodReady', 'False', 'WorkerPodInitializing', 'worker pod started')] }));

    expect(noService).toEqual({
      stage: 'failed', url: '', message: 'Service "a.b" is invalid'
    });
    expect(changelogResourceState(withStatus({ conditions: [cond('Ready', 'False', 'SomeLaterReason', 'x')] })).stage).toBe('failed');
    expect(changelogResourceState(withStatus({ conditions: [cond('Ready', 'Unknown', 'ResourcesNotCreatedYet')] })).stage).toBe('starting');
  });
});

describe('ManagedOSChangelog helpers', () => {
  it('names the file inside the served folder', () => {
    expect(changelogResourceFileUrl('https://r/elemental/changelog/v1-os/', 'v1-os')).toBe('https://r/elemental/changelog/v1-os/v1-os.updates.log');
    expect(changelogResourceFileUrl('https://r/elemental/changelog/v1-os', 'v1-os')).toBe('https://r/elemental/changelog/v1-os/v1-os.updates.log');
  });

  it('finds the one of a version, the oldest when there are more', () => {
    const a = {
      metadata: {
        namespace: 'ns', creationTimestamp: '2026-01-02T00:00:00Z', name: 'a'
      },
      spec: { osVersion: 'v1' }
    };
    const b = {
      metadata: {
        namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z', name: 'b'
      },
      spec: { osVersion: 'v1' }
    };
    const other = { metadata: { namespace: 'ns', name: 'c' }, spec: { osVersion: 'v2' } };

    expect(changelogResourceFor([a, b, other], 'ns', 'v1')).toBe(b);
    expect(changelogResourceFor([other], 'ns', 'v1')).toBeUndefined();
    expect(changelogResourceFor([a], 'elsewhere', 'v1')).toBeUndefined();
  });

  it('creates one for the channel and version, with the operator\'s default lifetime', () => {
    const object = newChangelogResource({ name: 'ch', namespace: 'fleet-default' }, 'v1-os') as { spec: Record<string, unknown>; metadata: Record<string, unknown> };

    expect(object.spec).toEqual({
      channelRef: { name: 'ch', namespace: 'fleet-default' }, osVersion: 'v1-os', cleanupAfterMinutes: 60
    });
    expect(object.metadata).toEqual({ name: changelogResourceName('v1-os'), namespace: 'fleet-default' });
  });

  it('names it so the operator can create a Service of that name: a DNS-1035 label, one per version', () => {
    const dns1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

    expect(changelogResourceName('base-v2.3.0-6.1-os')).toMatch(/^base-v2-3-0-6-1-os-[0-9a-f]{8}$/);
    expect(changelogResourceName('2.3.0')).toMatch(/^changelog-2-3-0-[0-9a-f]{8}$/);
    expect(changelogResourceName('base-v2.3.0-6.1-os')).not.toBe(changelogResourceName('base-v2-3-0-6-1-os'));
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (version) => {
      const name = changelogResourceName(version);

      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(dns1035);
      expect(changelogResourceName(version)).toBe(name);
    }));
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      fc.pre(a !== b && a.length < 40 && b.length < 40);
      expect(changelogResourceName(a)).not.toBe(changelogResourceName(b));
    }), { numRuns: 2000 });
  });
});

describe('packageTarEntryVersion (rancher/elemental-channels channels/<channel>.packages.tar)', () => {
  it('reads `<version>.packages` files, in folders too, and nothing else', () => {
    expect(packageTarEntryVersion('base-v2.2.0-3.12-os.packages')).toBe('base-v2.2.0-3.12-os');
    expect(packageTarEntryVersion('./sl-micro/base-v2.2.0-3.12-os.packages')).toBe('base-v2.2.0-3.12-os');
    expect(packageTarEntryVersion('channel.json')).toBeUndefined();
    expect(packageTarEntryVersion('.hidden.packages')).toBeUndefined();
    expect(packageTarEntryVersion('dir.packages', 'directory')).toBeUndefined();
  });
});
