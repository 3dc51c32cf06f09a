// Channels and their versions, read for the channel pages. The lists are the shell's management
// store's own: its watch keeps them current, so what the pages derive follows without a reload.
import {
  applyWithdrawals, OSVersion, orderChannel, pickChannel, versionsByChannel
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';

export interface ChannelList {
  channels: unknown[];
  versions: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

/** `opt.force` reads the lists from the server again (after a websocket reconnect, domain/live-list.ts). */
export async function loadChannelList(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<ChannelList> {
  try {
    const [channels, versions] = await Promise.all([findAll(shell, TYPE.CHANNEL, opt), findAll(shell, TYPE.VERSION, opt)]);

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
  const lists = await loadChannelList(shell);

  if (lists.error) {
    return {
      versions: [], channels: [], allVersions: [], error: lists.error
    };
  }

  // Withdrawn images are marked from their channel's annotation (domain/withdrawal.ts).
  const picked = pickChannel(lists, namespace, name);

  return {
    ...picked,
    versions:    applyWithdrawals(picked.versions, lists.channels),
    channels:    lists.channels as Record<string, unknown>[],
    allVersions: applyWithdrawals([...versionsByChannel(lists.versions).values()].flatMap((group) => orderChannel(group)), lists.channels),
    error:       '',
  };
}

/** Every channel object, or none when they cannot be read (they only add changelog URL templates). */
export async function loadChannels(shell: ShellStore): Promise<Record<string, unknown>[]> {
  return await findAll<Record<string, unknown>>(shell, TYPE.CHANNEL).catch(() => []);
}
