// What the fleet overview reads: every pool and version (the shell's management store's own lists,
// kept current by its watch) and channel (stores/channel-list.ts, without Steve's relationships), the changelog files of the channels the pools pin, and
// the promotion offers computed from the source pools' node rollout (stores/node-rollout.ts).
import {
  applyWithdrawals, isContainerVersion, OSVersion, VersionInput, PackageLists, promotionOffer, PromotionOffer, readPool, readPromotion, rolloutTarget, soakNodes, UpdateLogs
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';
import { useChannelListStore } from './channel-list';
import { useChangelogsStore } from './changelogs';
import { useNodeRolloutStore } from './node-rollout';

export interface FleetLists {
  pools: unknown[];
  channels: unknown[];
  versionObjects: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

/** `opt.force` reads the lists from the server again (after a websocket reconnect, domain/live-list.ts). */
export async function loadFleetLists(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<FleetLists> {
  try {
    const [pools, channels, versionObjects] = await Promise.all([
      findAll(shell, TYPE.IMAGE, opt), useChannelListStore().load(shell, opt.force === true), findAll(shell, TYPE.VERSION, opt), useNodeRolloutStore().loadFleet(shell),
    ]);

    return {
      pools, channels, versionObjects, error: ''
    };
  } catch (e) {
    return {
      pools: [], channels: [], versionObjects: [], error: errorMessage(e)
    };
  }
}

/** Every version, marked withdrawn from its channel (domain/withdrawal.ts). */
export function fleetVersions(lists: Pick<FleetLists, 'versionObjects' | 'channels'>): OSVersion[] {
  return applyWithdrawals(lists.versionObjects as VersionInput[], lists.channels);
}

function channelOf(channels: readonly unknown[], version: OSVersion): unknown {
  return channels.find((channel) => {
    const metadata = (channel as { metadata?: { name?: string; namespace?: string } }).metadata;

    return metadata?.name === version.channel && metadata?.namespace === version.namespace;
  });
}

/** The container versions of every channel a pool pins: the spans exposure reads logs of. */
export function pinnedChannelVersions(pools: readonly unknown[], versions: readonly OSVersion[]): OSVersion[] {
  const pinned = new Set<string>();

  for (const view of pools.map(readPool)) {
    const pin = versions.find((version) => version.name === view.pin && version.namespace === view.namespace);

    if (pin) {
      pinned.add(`${ pin.namespace }/${ pin.channel }`);
    }
  }

  return versions.filter((version) => isContainerVersion(version) && pinned.has(`${ version.namespace }/${ version.channel }`));
}

/** Loads the update logs and package lists of `versions` (each through its channel's sources). */
export async function loadFleetEvidence(shell: ShellStore, versions: readonly OSVersion[], channels: readonly unknown[], signal?: AbortSignal): Promise<void> {
  const changelogs = useChangelogsStore();
  const byChannel = new Map<string, OSVersion[]>();

  for (const version of versions) {
    const key = `${ version.namespace }/${ version.channel }`;

    byChannel.set(key, [...(byChannel.get(key) ?? []), version]);
  }
  await Promise.all([...byChannel.values()].flatMap((group) => {
    const channel = channelOf(channels, group[0]);

    return [changelogs.load(shell, 'log', group, channel, signal), changelogs.load(shell, 'packages', group, channel, signal)];
  }));
}

/** What is known so far of the logs and package lists of `versions`, by name. */
export function fleetEvidence(versions: readonly OSVersion[]): { logs: UpdateLogs; packages: PackageLists } {
  const changelogs = useChangelogsStore();
  const packages: PackageLists = {};

  for (const version of versions) {
    const result = changelogs.packages(version);

    if (result?.state === 'ok') {
      packages[version.name] = result.value;
    }
  }

  return { logs: changelogs.logsByName(versions), packages };
}

/**
 * The promotion offer of each pool that names a source, by `namespace/name`: the source's node
 * rollout as the rollout store reads it now (soakNodes: unknown while a cluster is unread).
 */
export function promotionOffers(pools: readonly unknown[], versions: readonly OSVersion[], now: number): Record<string, PromotionOffer> {
  const rollout = useNodeRolloutStore();
  const byId = new Map(pools.map((pool) => [`${ readPool(pool).namespace }/${ readPool(pool).name }`, pool]));
  const offers: Record<string, PromotionOffer> = {};

  for (const [id, pool] of byId) {
    const config = readPromotion(pool);

    if (!config.source && !config.errors.length) {
      continue;
    }
    const source = byId.get(config.source);
    const nodes = source ? soakNodes(rolloutTarget(source, versions), rollout.clusterInputs(source)) : undefined;

    offers[id] = promotionOffer(pool, source, versions, nodes, now);
  }

  return offers;
}
