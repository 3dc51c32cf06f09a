// Plain rows for the channels table: a channel object and the versions it produced, summarised.
import type { OSVersion } from './types';
import { asOSVersions, orderChannel } from './channel';
import { channelSync, ChannelSyncState } from './channel-sync';

export type SyncState = ChannelSyncState;

/** Rows per page of the channels table: a fleet of hundreds of channels draws a page of them. */
export const CHANNEL_PAGE_SIZE = 50;

export interface ChannelRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  /** `uri` or `image`, and its value: shown as text, never as a link. */
  sourceKind: string;
  source: string;
  enabled: boolean;
  syncInterval: string;
  /** Epoch milliseconds of status.lastSyncedTime, or 0. */
  lastSync: number;
  syncState: SyncState;
  /** The Ready condition's reason and message, when it says something. */
  syncReason: string;
  syncMessage: string;
  failedAttempts: number;
  containers: number;
  isos: number;
  /** The newest container image that is not withdrawn (domain/withdrawal.ts). */
  newest?: OSVersion;
  /** Container images withdrawn (when the versions were passed through applyWithdrawals). */
  withdrawn: number;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Obj : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');
}

function syncFields(status: Obj): Pick<ChannelRow, 'syncState' | 'syncReason' | 'syncMessage' | 'failedAttempts'> {
  const sync = channelSync(status);

  return {
    syncState: sync.state, syncReason: sync.reason, syncMessage: sync.message, failedAttempts: sync.failedAttempts
  };
}

export function versionGroupKey(namespace: string, channel: string): string {
  return `${ namespace }/${ channel }`;
}

/** The versions of every channel, by `namespace/channel` label (owner references may be missing). */
export function versionsByChannel(versions: readonly unknown[]): Map<string, OSVersion[]> {
  const groups = new Map<string, OSVersion[]>();

  for (const version of asOSVersions(versions as unknown[])) {
    const key = versionGroupKey(version.namespace, version.channel);
    const group = groups.get(key);

    if (group) {
      group.push(version);
    } else {
      groups.set(key, [version]);
    }
  }

  return groups;
}

export function channelRow(channel: unknown, versions: readonly OSVersion[]): ChannelRow {
  const metadata = obj(obj(channel).metadata);
  const spec = obj(obj(channel).spec);
  const status = obj(obj(channel).status);
  const options = obj(spec.options);
  const name = text(metadata.name);
  const namespace = text(metadata.namespace);
  const sourceKind = text(options.uri) ? 'uri' : text(options.image) ? 'image' : '';
  const lastSync = Date.parse(text(status.lastSyncedTime));
  const containers = orderChannel(versions.filter((version) => version.type === 'container'));

  return {
    id:           versionGroupKey(namespace, name),
    name,
    namespace,
    type:         text(spec.type),
    sourceKind,
    source:       sourceKind ? text(options[sourceKind]) : '',
    enabled:      spec.enabled !== false,
    syncInterval: text(spec.syncInterval),
    lastSync:     Number.isFinite(lastSync) ? lastSync : 0,
    ...syncFields(status),
    containers:   containers.length,
    isos:         versions.filter((version) => version.type === 'iso').length,
    newest:       containers.find((version) => !version.withdrawn),
    withdrawn:    containers.filter((version) => version.withdrawn).length,
  };
}

/** One row per channel, with the counts of the versions labelled with its name in its namespace. */
export function channelRows(channels: readonly unknown[], versions: readonly unknown[]): ChannelRow[] {
  const groups = versionsByChannel(versions);

  return channels.map((channel) => {
    const metadata = obj(obj(channel).metadata);

    return channelRow(channel, groups.get(versionGroupKey(text(metadata.namespace), text(metadata.name))) ?? []);
  });
}

/** The live lists a channel page reads: every channel and every version. */
export interface ChannelLists {
  channels: readonly unknown[];
  versions: readonly unknown[];
}

export interface PickedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Its versions (by label, not owner), newest first. */
  versions: OSVersion[];
}

/** One channel and its versions out of the lists. */
export function pickChannel(lists: ChannelLists, namespace: string, name: string): PickedChannel {
  const channel = lists.channels.find((item) => {
    const metadata = obj(obj(item).metadata);

    return metadata.name === name && metadata.namespace === namespace;
  }) as Record<string, unknown> | undefined;

  return { channel, versions: orderChannel(versionsByChannel(lists.versions).get(versionGroupKey(namespace, name)) ?? []) };
}
