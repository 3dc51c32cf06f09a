import { channelVersions } from '../../../../tests/support/fixtures';
import { channelRows, pickChannel } from '../channel-rows';
import { applyWithdrawals } from '../withdrawal';
import { WITHDRAWN_ANNOTATION } from '../keys';

describe('channelRows', () => {
  it('counts a channel by the label of its versions, even without owner references', () => {
    const versions = channelVersions('sl-micro-6.1-base').map((version) => ({ ...version, metadata: { ...(version.metadata as object), ownerReferences: undefined } }));
    const [row] = channelRows([{ metadata: { name: 'sl-micro-6.1-base', namespace: 'fleet-default' }, spec: { type: 'json' } }], versions);

    expect(row).toMatchObject({
      containers: 3, isos: 3, syncState: 'unknown', enabled: true, failedAttempts: 0
    });
    expect(row.newest?.name).toBe('base-v2.2.0-3.12-os');
  });

  it('counts withdrawn images and names the newest one that is not withdrawn', () => {
    const channel = {
      metadata: {
        name:        'sl-micro-6.1-base',
        namespace:   'fleet-default',
        annotations: {
          [WITHDRAWN_ANNOTATION]: JSON.stringify({
            'base-v2.2.0-3.12-os': {
              reason: 'r', by: 'a', at: ''
            }
          })
        }
      }
    };
    const [row] = channelRows([channel], applyWithdrawals(channelVersions('sl-micro-6.1-base'), [channel]));

    expect(row).toMatchObject({ containers: 3, withdrawn: 1 });
    expect(row.newest?.name).toBe('base-v2.2.0-3.9-os');
  });

  it('keeps channels of the same name in different namespaces apart', () => {
    const rows = channelRows(
      [{ metadata: { name: 'sl-micro-6.1-base', namespace: 'fleet-default' } }, { metadata: { name: 'sl-micro-6.1-base', namespace: 'other' } }],
      channelVersions('sl-micro-6.1-base', 'other'),
    );

    expect(rows.map((row) => row.containers)).toEqual([0, 3]);
  });

  it('reads source, interval, enabled and sync state without trusting their types', () => {
    const [row] = channelRows([{
      metadata: { name: 'c', namespace: 'n' },
      spec:     {
        type: 'custom', options: { image: 'registry.suse.com/rancher/elemental-channel:1.4.2' }, syncInterval: '30m', enabled: false
      },
      status: {
        lastSyncedTime:                'not a date',
        failedSynchronizationAttempts: 'junk',
        conditions:                    [{
          type: 'Ready', status: 'False', reason: 'SyncFailed', message: 'boom'
        }]
      },
    }], []);

    expect(row).toMatchObject({
      sourceKind: 'image', source: 'registry.suse.com/rancher/elemental-channel:1.4.2', syncInterval: '30m', enabled: false, lastSync: 0, failedAttempts: 0, syncState: 'failed', syncReason: 'SyncFailed', syncMessage: 'boom'
    });
    expect(row.newest).toBeUndefined();
  });
});

describe('pickChannel', () => {
  it('finds the channel by namespace and name and its versions by label, newest first', () => {
    const channels = [{ metadata: { name: 'sl-micro-6.1-base', namespace: 'other' } }, { metadata: { name: 'sl-micro-6.1-base', namespace: 'fleet-default' } }];
    const versions = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.1-base', 'other'), ...channelVersions('unstable')];
    const picked = pickChannel({ channels, versions }, 'fleet-default', 'sl-micro-6.1-base');

    expect(picked.channel).toBe(channels[1]);
    expect(picked.versions.length).toBe(channelVersions('sl-micro-6.1-base').length);
    expect(picked.versions.every((version) => version.namespace === 'fleet-default' && version.channel === 'sl-micro-6.1-base')).toBe(true);
    expect(picked.versions[0].name).toBe('base-v2.2.0-3.12-os');
  });

  it('keeps the versions of a channel that is gone', () => {
    const picked = pickChannel({ channels: [], versions: channelVersions('unstable') }, 'fleet-default', 'unstable');

    expect(picked.channel).toBeUndefined();
    expect(picked.versions.length).toBe(channelVersions('unstable').length);
  });
});
