// The workload pools and the versions they name, read for the pools page. The pools are the
// shell's management store's own list: its watch keeps them current, with the rollout progress.
// Versions are never read all at once: the pinned and previous images by name, and the channels
// the stored selectors choose from through the channel versions store (kept current by its watch).
import { applyWithdrawals, OSVersion, readPool } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';
import { channelKey, pinnedVersions, useChannelVersionsStore } from './channel-versions';

// The channel list last read (the shell store's live array, so a withdrawal shows without a reload).
let channelList: unknown[] = [];

export interface PoolList {
  pools: unknown[];
  /** The pinned and previous images of the pools, read by name (a snapshot). */
  pinned: OSVersion[];
  /** The channels the pools' selectors choose from. */
  channels: ChannelRef[];
  /** Every channel object (the shell store's live list): its withdrawn images (domain/withdrawal.ts). */
  channelObjects: unknown[];
  /** Fleet clusters and groups: they feed the approval's impact summary and the overlap marks, and may be unreadable. */
  clusters: unknown[];
  groups: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

export interface ChannelRef {
  namespace: string;
  channel: string;
}

/**
 * The channels the pools' selectors need: a selector's channel, or, for a selector without one,
 * every channel of the pool's namespace (the selector then chooses among them all).
 */
export function selectorChannels(pools: readonly unknown[], channels: readonly unknown[]): ChannelRef[] {
  const refs = new Map<string, ChannelRef>();
  const add = (namespace: string, channel: string) => refs.set(`${ namespace }/${ channel }`, { namespace, channel });

  for (const pool of pools.map(readPool)) {
    if (!pool.selector) {
      continue;
    }
    if (pool.selector.channel) {
      add(pool.namespace, pool.selector.channel);
    } else {
      for (const channel of channels) {
        const metadata = (channel as { metadata?: { name?: string; namespace?: string } }).metadata;

        if (metadata?.namespace === pool.namespace && metadata.name) {
          add(pool.namespace, metadata.name);
        }
      }
    }
  }

  return [...refs.values()];
}

/**
 * Reads the channels in `now` that were not in `before`: a pool created or changed after the page
 * read its lists (its watch brings it later) may follow a channel nobody read yet.
 */
export async function loadAddedChannels(shell: ShellStore, now: readonly ChannelRef[], before: readonly ChannelRef[]): Promise<void> {
  const known = new Set(before.map(({ namespace, channel }) => channelKey(namespace, channel)));
  const added = now.filter(({ namespace, channel }) => !known.has(channelKey(namespace, channel)));

  if (added.length) {
    await useChannelVersionsStore().loadMany(shell, added);
  }
}

/** The image names the pools pin or can roll back to, by namespace. */
export function pinnedNames(pools: readonly unknown[]): Map<string, string[]> {
  const names = new Map<string, string[]>();

  for (const pool of pools.map(readPool)) {
    const list = names.get(pool.namespace) ?? [];

    list.push(...[pool.pin, pool.previousVersion].filter((name): name is string => !!name));
    names.set(pool.namespace, list);
  }

  return names;
}

/**
 * `opt.force` reads the lists from the server again (after a websocket reconnect,
 * domain/live-list.ts): the pools, the channels, and each selector channel's versions.
 */
export async function loadPoolList(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<PoolList> {
  try {
    const optional = (type: string) => findAll(shell, type, opt).catch(() => [] as unknown[]);
    const [pools, channelObjects, clusters, groups] = await Promise.all([
      findAll(shell, TYPE.IMAGE, opt), optional(TYPE.CHANNEL), optional(TYPE.FLEET_CLUSTER), optional(TYPE.FLEET_GROUP),
    ]);
    const channels = selectorChannels(pools, channelObjects);
    const store = useChannelVersionsStore();
    const [pinned] = await Promise.all([
      Promise.all([...pinnedNames(pools)].map(([namespace, names]) => pinnedVersions(shell, namespace, names))).then((lists) => lists.flat()),
      store.loadMany(shell, channels).then(async() => {
        if (opt.force) {
          await Promise.all(channels.map(({ namespace, channel }) => store.refresh(channelKey(namespace, channel))));
        }
      }),
    ]);

    channelList = channelObjects;

    return {
      pools, pinned, channels, channelObjects, clusters, groups, error: ''
    };
  } catch (e) {
    return {
      pools: [], pinned: [], channels: [], channelObjects: [], clusters: [], groups: [], error: errorMessage(e)
    };
  }
}

/**
 * The versions the page works on: the selectors' channels as the store has them now, and the
 * pins, withdrawn images marked from their channel (`channelObjects`, else the list last read).
 */
export function poolVersions(list: Pick<PoolList, 'pinned' | 'channels'> & { channelObjects?: unknown[] }): OSVersion[] {
  const store = useChannelVersionsStore();
  const byKey = new Map<string, OSVersion>();

  for (const version of list.pinned) {
    byKey.set(`${ version.namespace }/${ version.name }`, version);
  }
  for (const { namespace, channel } of list.channels) {
    for (const version of store.versions(namespace, channel)) {
      byKey.set(`${ version.namespace }/${ version.name }`, version);
    }
  }

  return applyWithdrawals([...byKey.values()], list.channelObjects ?? channelList);
}

/** Asks with the shell's own confirm dialog (prompt-remove), which deletes the pools' models. */
export function removePools(shell: ShellStore, models: unknown[]): void {
  shell.dispatch('management/promptRemove', models);
}

/** The pools alone, for pages that only say which pool runs an image; [] when they cannot be read. */
export async function loadPoolsOnly(shell: ShellStore): Promise<unknown[]> {
  return findAll(shell, TYPE.IMAGE).catch(() => [] as unknown[]);
}
