import fc from 'fast-check';
import { channelSync } from '../index';

const ready = (status: string, reason: string, message = '') => ({
  type: 'Ready', status, reason, message
});

describe('channelSync', () => {
  // The states rancher/elemental-operator controllers/managedosversionchannel_controller.go writes.
  it('reads a sync in progress as synchronizing, not as a failure', () => {
    expect(channelSync({ conditions: [ready('False', 'Synchronizing', 'started synchronization pod')] })).toEqual({
      state: 'synchronizing', reason: 'Synchronizing', message: 'started synchronization pod', failedAttempts: 0
    });
    expect(channelSync({ conditions: [ready('False', 'Synchronizing', 'ongoing channel synchronization')] }).state).toBe('synchronizing');
  });

  it('reads synced, failed, disabled and not yet reconciled channels', () => {
    expect(channelSync({ conditions: [ready('True', 'Synchronized', 'successfully loaded channel data')] }).state).toBe('synced');
    expect(channelSync({ conditions: [ready('False', 'FailedToSync', 'failed channel synchronization')], failedSynchronizationAttempts: 3 }))
      .toMatchObject({ state: 'failed', failedAttempts: 3 });
    expect(channelSync({ conditions: [ready('False', 'InvalidConfiguration', 'spec.Type is not supported')] }).state).toBe('failed');
    expect(channelSync({ conditions: [ready('True', 'ChannelDisabled', 'Channel is disabled')] }).state).toBe('disabled');
    expect(channelSync({}).state).toBe('unknown');
    expect(channelSync(undefined).state).toBe('unknown');
  });

  it('counts a missing failedSynchronizationAttempts (omitempty) as 0', () => {
    expect(channelSync({ conditions: [ready('True', 'Synchronized')] }).failedAttempts).toBe(0);
    expect(channelSync({ failedSynchronizationAttempts: 'x' }).failedAttempts).toBe(0);
  });

  it('never throws and a count is a non-negative integer', () => {
    fc.assert(fc.property(fc.anything(), (status) => {
      const sync = channelSync(status);

      return Number.isInteger(sync.failedAttempts) && sync.failedAttempts >= 0;
    }));
  });
});
