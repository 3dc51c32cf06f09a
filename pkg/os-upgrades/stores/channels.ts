// Channels and their versions, read for the channel pages. The lists are the shell's management
// store's own: its watch keeps them current, so what the pages derive follows without a reload.
import { OSVersion, orderChannel, versionGroupKey, versionsByChannel } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';

export interface ChannelList {
  channels: unknown[];
  versions: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

export async function loadChannelList(shell: ShellStore): Promise<ChannelList> {
  try {
    const [channels, versions] = await Promise.all([findAll(shell, TYPE.CHANNEL), findAll(shell, TYPE.VERSION)]);

    return {
      channels, versions, error: ''
    };
  } catch (e) {
    return {
      channels: [], versions: [], error: errorMessage(e)
    };
  }
}

export interface LoadedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Its versions (by label, not owner), newest first. */
  versions: OSVersion[];
  /** Every channel object, and the versions of every channel, for comparisons across channels. */
  channels: Record<string, unknown>[];
  allVersions: OSVersion[];
  /** Why the channel could not be read ('' when it was). */
  error: string;
}

export async function loadChannel(shell: ShellStore, namespace: string, name: string): Promise<LoadedChannel> {
  try {
    const [channels, versions] = await Promise.all([findAll<Record<string, unknown>>(shell, TYPE.CHANNEL), findAll(shell, TYPE.VERSION)]);
    const channel = channels.find((item) => {
      const metadata = item.metadata as { name?: string; namespace?: string } | undefined;

      return metadata?.name === name && metadata?.namespace === namespace;
    });

    const groups = versionsByChannel(versions);

    return {
      channel,
      versions:    orderChannel(groups.get(versionGroupKey(namespace, name)) ?? []),
      channels,
      allVersions: [...groups.values()].flatMap((group) => orderChannel(group)),
      error:       '',
    };
  } catch (e) {
    return {
      versions: [], channels: [], allVersions: [], error: errorMessage(e)
    };
  }
}

/** Every channel object, or none when they cannot be read (they only add changelog URL templates). */
export async function loadChannels(shell: ShellStore): Promise<Record<string, unknown>[]> {
  return await findAll<Record<string, unknown>>(shell, TYPE.CHANNEL).catch(() => []);
}
