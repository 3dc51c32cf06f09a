// A channel's sync state, read as the Elemental operator writes it
// (rancher/elemental-operator controllers/managedosversionchannel_controller.go): while the syncer
// pod runs, Ready=False with reason Synchronizing ("started synchronization pod", then "ongoing
// channel synchronization"), which is progress, not a failure; Steve shows it as "unavailable",
// transitioning, never as an error. `failedSynchronizationAttempts` is omitted when 0.

export type ChannelSyncState = 'synced' | 'synchronizing' | 'failed' | 'disabled' | 'unknown';

export interface ChannelSync {
  state: ChannelSyncState;
  /** The Ready condition's reason and message, as written. */
  reason: string;
  message: string;
  /** Consecutive failed syncs; 0 when the field is missing. */
  failedAttempts: number;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Obj : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export const SYNCHRONIZING_REASON = 'Synchronizing';
export const CHANNEL_DISABLED_REASON = 'ChannelDisabled';

/** The sync state of a ManagedOSVersionChannel's `status`. */
export function channelSync(status: unknown): ChannelSync {
  const conditions = Array.isArray(obj(status).conditions) ? (obj(status).conditions as unknown[]).map(obj) : [];
  const ready = conditions.find((condition) => condition.type === 'Ready');
  const attempts = Number(obj(status).failedSynchronizationAttempts);
  const failedAttempts = Number.isInteger(attempts) && attempts > 0 ? attempts : 0;
  const reason = text(ready?.reason);
  const message = text(ready?.message);
  let state: ChannelSyncState = 'unknown';

  if (ready?.status === 'True') {
    state = reason === CHANNEL_DISABLED_REASON ? 'disabled' : 'synced';
  } else if (ready?.status === 'False') {
    state = reason === SYNCHRONIZING_REASON ? 'synchronizing' : 'failed';
  }

  return {
    state, reason, message, failedAttempts
  };
}
