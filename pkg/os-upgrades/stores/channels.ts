// What the channel pages read, never every ManagedOSVersion (docs/shell-queries.md): the channel
// objects (a few dozen, read without Steve's relationships and kept current: stores/channel-list.ts), and the versions of
// the channels a page shows, read by label into stores/channel-versions.ts, where they are
// converted once and kept current by the shell's `resource.changes` events.
import { OSVersion, pickChannel, toOSVersion } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage } from '../api/resources';
import { versionsByName } from '../api/version-queries';
import { channelKey, useChannelVersionsStore } from './channel-versions';
import { useChannelListStore } from './channel-list';
import type { ChannelRef } from './pool-list';

export type { ChannelRef };

export interface ChannelList {
  channels: unknown[];
  /** Why the list could not be read ('' when it was). */
  error: string;
}

/** Every channel object. `opt.force` reads it from the server again (after a websocket reconnect, domain/live-list.ts). */
export async function loadChannelList(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<ChannelList> {
  try {
    return { channels: await useChannelListStore().load(shell, opt.force === true), error: '' };
  } catch (e) {
    return { channels: [], error: errorMessage(e) };
  }
}

/** Every channel object, or none when they cannot be read (they only add changelog URL templates). */
export async function loadChannels(shell: ShellStore): Promise<Record<string, unknown>[]> {
  return await useChannelListStore().load(shell).catch(() => []);
}

/** The channel's versions as the store has them now, newest first (reactive in a computed). */
export function channelVersions(namespace: string, channel: string): readonly OSVersion[] {
  return useChannelVersionsStore().versions(namespace, channel);
}

/** The versions of these channels as the store has them now, each channel newest first. */
export function versionsOfChannels(refs: readonly ChannelRef[]): OSVersion[] {
  return refs.flatMap(({ namespace, channel }) => channelVersions(namespace, channel));
}

/** Reads these channels' versions into the store; `force` reads them again even when kept (after a reconnect). */
export async function loadChannelVersions(shell: ShellStore, refs: readonly ChannelRef[], force = false): Promise<void> {
  const store = useChannelVersionsStore();

  await store.loadMany(shell, refs);
  if (force) {
    await Promise.all(refs.map(({ namespace, channel }) => store.refresh(channelKey(namespace, channel))));
  }
}

export interface LoadedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Every channel object (a few dozen: for names, URL templates and the compare's other channels). */
  channels: Record<string, unknown>[];
  /** Why the channel could not be read ('' when it was). */
  error: string;
}

/** The channel page: the channel objects, and this channel's versions (by its label) in the store. */
export async function loadChannel(shell: ShellStore, namespace: string, name: string, opt: Record<string, unknown> = {}): Promise<LoadedChannel> {
  try {
    const [channels] = await Promise.all([
      useChannelListStore().load(shell, opt.force === true),
      loadChannelVersions(shell, [{ namespace, channel: name }], opt.force === true),
    ]);

    return {
      channel: findChannel(channels, namespace, name), channels, error: ''
    };
  } catch (e) {
    return { channels: [], error: errorMessage(e) };
  }
}

/** The channel object of that name, if it is among `channels`. */
export function findChannel(channels: readonly unknown[], namespace: string, name: string): Record<string, unknown> | undefined {
  return pickChannel({ channels, versions: [] }, namespace, name).channel;
}

export function sameRef(a: ChannelRef, b: ChannelRef): boolean {
  return a.namespace === b.namespace && a.channel === b.channel;
}

function withRef(refs: readonly ChannelRef[], ref: ChannelRef): ChannelRef[] {
  return refs.some((known) => sameRef(known, ref)) ? [...refs] : [...refs, ref];
}

/**
 * The channels a compare needs: its own, and the channel of each named image that is not among
 * `refs` (found by name in the namespace: one request for both names). Reads their versions into the
 * store; answers `refs` with the channels found added.
 */
export async function loadCompareChannels(shell: ShellStore, namespace: string, refs: readonly ChannelRef[], names: readonly string[]): Promise<ChannelRef[]> {
  await loadChannelVersions(shell, refs);
  const known = new Set(versionsOfChannels(refs).map((version) => version.name));
  const unknown = names.filter((name) => name && !known.has(name));
  let result = [...refs];

  if (unknown.length) {
    for (const version of (await versionsByName(shell, namespace, unknown)).map(toOSVersion)) {
      if (version.channel && unknown.includes(version.name)) {
        result = withRef(result, { namespace: version.namespace, channel: version.channel });
      }
    }
    await loadChannelVersions(shell, result);
  }

  return result;
}

/** Channel refs of channel objects, in their order. */
export function channelRefs(channels: readonly unknown[]): ChannelRef[] {
  return channels.map((channel) => {
    const metadata = (channel as { metadata?: { name?: unknown; namespace?: unknown } } | undefined)?.metadata;

    return { namespace: String(metadata?.namespace ?? ''), channel: String(metadata?.name ?? '') };
  }).filter((ref) => ref.channel);
}
