import { OSVersion, orderChannel } from '../../domain';
import { TYPE } from '../../config';
import { findAll, ShellStore } from '../../api/resources';
import { versionGroupKey, versionsByChannel } from './channel-rows';

export interface LoadedChannel {
  /** The ManagedOSVersionChannel, or undefined when it is gone (its versions may remain). */
  channel?: Record<string, unknown>;
  /** Its versions (by label, not owner), newest first. */
  versions: OSVersion[];
  /** Every channel object, and the versions of every channel, for comparisons across channels. */
  channels: Record<string, unknown>[];
  allVersions: OSVersion[];
}

export async function loadChannel(store: ShellStore, namespace: string, name: string): Promise<LoadedChannel> {
  const [channels, versions] = await Promise.all([findAll<Record<string, unknown>>(store, TYPE.CHANNEL), findAll(store, TYPE.VERSION)]);
  const channel = channels.find((item) => {
    const metadata = item.metadata as { name?: string; namespace?: string } | undefined;

    return metadata?.name === name && metadata?.namespace === namespace;
  });

  const groups = versionsByChannel(versions);

  return {
    channel,
    versions:    orderChannel(groups.get(versionGroupKey(namespace, name)) ?? []),
    channels,
    allVersions: [...groups.values()].flatMap(orderChannel),
  };
}
