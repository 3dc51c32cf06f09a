// Channels and their versions, read for the channel pages. The channel objects are the shell's
// management store's own list (a few dozen; its watch keeps them current). Versions are never
// read all at once: a channel's come from the channel versions store, the list shows counts.
import { OSVersion, versionGroupKey } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { countChannelVersions } from '../api/version-queries';
import { TYPE } from '../config';
import { useChannelVersionsStore } from './channel-versions';

export interface ChannelList {
  channels: unknown[];
  /** Why the list could not be read ('' when it was). */
  error: string;
}

export async function loadChannelList(shell: ShellStore): Promise<ChannelList> {
  try {
    return { channels: await findAll(shell, TYPE.CHANNEL), error: '' };
  } catch (e) {
    return { channels: [], error: errorMessage(e) };
  }
}

/** Counting failed for that channel. */
export const UNCOUNTED = -1;

/**
 * Each channel's number of versions (one request of a page of one per channel, all at once),
 * handed to `onCount` by `namespace/name` as they arrive; UNCOUNTED when a count failed.
 */
export async function countVersions(shell: ShellStore, channels: readonly unknown[], onCount: (key: string, count: number) => void): Promise<void> {
  await Promise.all(channels.map(async(channel) => {
    const metadata = (channel as { metadata?: { name?: string; namespace?: string } } | undefined)?.metadata ?? {};
    const key = versionGroupKey(metadata.namespace ?? '', metadata.name ?? '');
    const count = await countChannelVersions(shell, metadata.namespace ?? '', metadata.name ?? '').catch(() => UNCOUNTED);

    onCount(key, count);
  }));
}

export interface LoadedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Its versions (by label, not owner), newest first. */
  versions: OSVersion[];
  /** Why the channel could not be read ('' when it was). */
  error: string;
}

export async function loadChannel(shell: ShellStore, namespace: string, name: string): Promise<LoadedChannel> {
  try {
    const [channels, versions] = await Promise.all([
      findAll<Record<string, unknown>>(shell, TYPE.CHANNEL), useChannelVersionsStore().load(shell, namespace, name),
    ]);
    const channel = channels.find((item) => {
      const metadata = item.metadata as { name?: string; namespace?: string } | undefined;

      return metadata?.name === name && metadata?.namespace === namespace;
    });

    // Newest first already; a copy, so the page may hold it as its own.
    return {
      channel, versions: versions.slice(), error: ''
    };
  } catch (e) {
    return { versions: [], error: errorMessage(e) };
  }
}

/** Every channel object, or none when they cannot be read (they only add changelog URL templates). */
export async function loadChannels(shell: ShellStore): Promise<Record<string, unknown>[]> {
  return await findAll<Record<string, unknown>>(shell, TYPE.CHANNEL).catch(() => []);
}
