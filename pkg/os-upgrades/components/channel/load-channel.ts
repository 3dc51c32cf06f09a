import { OSVersion, orderChannel } from '../../domain';
import { TYPE } from '../../config';
import { findAll, ShellStore } from '../../api/resources';
import { versionGroupKey, versionsByChannel } from './channel-rows';

export interface LoadedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Its versions (by label, not owner), newest first. */
  versions: OSVersion[];
}

/** The store's live lists of channels and versions: its watch keeps them current. */
export interface ChannelLists {
  channels: Record<string, unknown>[];
  versions: unknown[];
}

export async function loadChannelLists(store: ShellStore, opt: Record<string, unknown> = {}): Promise<ChannelLists> {
  const [channels, versions] = await Promise.all([findAll<Record<string, unknown>>(store, TYPE.CHANNEL, opt), findAll(store, TYPE.VERSION, opt)]);

  return { channels, versions };
}

/** One channel and its versions out of the lists. */
export function pickChannel(lists: ChannelLists, namespace: string, name: string): LoadedChannel {
  const channel = lists.channels.find((item) => {
    const metadata = item.metadata as { name?: string; namespace?: string } | undefined;

    return metadata?.name === name && metadata?.namespace === namespace;
  });

  return { channel, versions: orderChannel(versionsByChannel(lists.versions).get(versionGroupKey(namespace, name)) ?? []) };
}

export async function loadChannel(store: ShellStore, namespace: string, name: string): Promise<LoadedChannel> {
  return pickChannel(await loadChannelLists(store), namespace, name);
}
