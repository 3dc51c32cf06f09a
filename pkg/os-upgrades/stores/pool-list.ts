// The workload pools and the versions they name, read for the pools page. The pools are the
// shell's management store's own list: its watch keeps them current, with the rollout progress.
// Versions are never read all at once: the pinned and previous images by name, and the channels
// the stored selectors choose from through the channel versions store (kept current by its watch).
import { toRaw } from 'vue';
import {
  applyWithdrawals, firstPoolPage, FleetCluster, FleetGroup, OSVersion, overlapsByPool, readPool, samePoolPage
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { poolPagingEnabled } from '../api/pool-pages';
import { poolsLabelledWithVersion } from '../api/pool-queries';
import { TYPE } from '../config';
import { useChannelListStore } from './channel-list';
import { channelKey, useChannelVersionsStore } from './channel-versions';
import { usePinnedVersionsStore } from './pinned-versions';
import { usePoolPageStore } from './pool-page';
import { RecentValues, revisionKey } from './revision-memo';

// The channel list last read (stores/channel-list.ts: a live array, so a withdrawal shows without a reload).
let channelList: unknown[] = [];

/** Every channel object, without Steve's relationships (stores/channel-list.ts); none when they cannot be read. */
function readChannelList(shell: ShellStore, opt: { force?: boolean }): Promise<unknown[]> {
  return useChannelListStore().load(shell, opt.force === true).catch(() => [] as unknown[]);
}

export interface PoolList {
  pools: unknown[];
  /** Every channel object (stores/channel-list.ts, without Steve's relationships): its withdrawn images (domain/withdrawal.ts). */
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
 * Every pool, Fleet cluster and group (the shell's live lists) and channel (stores/channel-list.ts), for the pool page; the
 * versions a pool needs are read by loadPoolVersions. `opt.force` reads the lists from the server again.
 */
export async function loadPoolList(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<PoolList> {
  try {
    const optional = (type: string) => findAll(shell, type, opt).catch(() => [] as unknown[]);
    const [pools, channelObjects, clusters, groups] = await Promise.all([
      findAll(shell, TYPE.IMAGE, opt), readChannelList(shell, opt), optional(TYPE.FLEET_CLUSTER), optional(TYPE.FLEET_GROUP),
    ]);

    channelList = channelObjects;

    return {
      pools, channelObjects, clusters, groups, error: ''
    };
  } catch (e) {
    return {
      pools: [], channelObjects: [], clusters: [], groups: [], error: errorMessage(e)
    };
  }
}

/**
 * The versions the page works on: the selectors' channels as the store has them now, and the
 * pins, withdrawn images marked from their channel (`channelObjects`, else the list last read).
 */
function poolVersions(list: { pinned: OSVersion[]; channels: ChannelRef[]; channelObjects?: unknown[] }): OSVersion[] {
  const store = useChannelVersionsStore();
  const lists = list.channels.map(({ namespace, channel }) => store.versions(namespace, channel));
  const channelObjects = list.channelObjects ?? channelList;
  const channels = revisionKey(channelObjects);

  // The store replaces a channel's list when it changes: the same lists and pins are the same versions.
  if (channels && lastView?.channels === channels && sameRecords(lastView.pinned, list.pinned) && sameRecords(lastView.lists, lists)) {
    return lastView.result;
  }

  const byKey = new Map<string, OSVersion>();

  for (const versions of [list.pinned, ...lists]) {
    for (const version of versions) {
      byKey.set(`${ version.namespace }/${ version.name }`, version);
    }
  }

  const inputs = [...byKey.values()];

  // The same records while nothing changed: the pools list keeps each row while its versions are the
  // same records (stores/pool-rows.ts), and a withdrawn version is a new copy at each call.
  if (!channels || !lastView || lastView.channels !== channels || !sameRecords(lastView.inputs, inputs)) {
    lastView = {
      inputs, channels, pinned: list.pinned, lists, result: applyWithdrawals(inputs, channelObjects)
    };
  } else {
    lastView = {
      ...lastView, pinned: list.pinned, lists
    };
  }

  return lastView.result;
}

let lastView: { inputs: OSVersion[]; channels: string | undefined; pinned: OSVersion[]; lists: (readonly OSVersion[])[]; result: OSVersion[] } | undefined;

function sameRecords(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** What the pools list shows: a page of pools (every pool where the shell does not page them) and the lists around them. */
export interface PoolListPage {
  /** Where the shell does not page pools: every pool (the shell store's live list); else [] (the page is in stores/pool-page.ts). */
  pools: unknown[];
  /** The shell pages pools: the table shows the pool page store's page. */
  paged: boolean;
  channelObjects: unknown[];
  clusters: unknown[];
  groups: unknown[];
  error: string;
}

/**
 * The pools list's lists: the first page of pools (sorted by name, as the table starts) through the
 * shell's pagination, or every pool where it has none; the channels (stores/channel-list.ts), clusters
 * and groups (the shell's live lists); and the versions the pools shown pin or select. What the stores hold is
 * shown without a request. `opt.force` reads everything again (after a websocket reconnect).
 */
export async function loadPoolListPage(shell: ShellStore, opt: { force?: boolean } = {}): Promise<PoolListPage> {
  const page = await readPoolListPage(shell, opt);

  keptPage = page.error ? undefined : page;

  return page;
}

// What the pools list last read, for its next visit (see keptPoolListPage); forgotten at logout (stores/reset.ts).
let keptPage: PoolListPage | undefined;
let keptEveryPool: unknown[] = [];
// The paged list's own `pools`, one array: a read that finds the same lists returns the same object.
const NO_POOLS: unknown[] = [];

/**
 * The lists the pools list read last, while the stores still hold them: the shell's live lists and
 * the channel list store's, kept current by their watches, so a warm visit draws them at once and
 * only replaces them if its read finds other lists. Undefined before a read, after a failed one,
 * and after a logout.
 */
export function keptPoolListPage(): PoolListPage | undefined {
  // Paged, the page starts at the first page: kept only while the pool page store shows it.
  return keptPage?.paged && !samePoolPage(usePoolPageStore().request, firstPoolPage()) ? undefined : keptPage;
}

/** Every pool as loadPoolsOnly last read it ([] before), with keptPoolListPage. */
export function keptPools(): unknown[] {
  return keptPoolListPage() ? keptEveryPool : [];
}

export function forgetPoolListPage(): void {
  keptPage = undefined;
  keptEveryPool = [];
}

async function readPoolListPage(shell: ShellStore, opt: { force?: boolean }): Promise<PoolListPage> {
  try {
    const optional = (type: string) => findAll(shell, type, opt).catch(() => [] as unknown[]);
    const paged = poolPagingEnabled(shell);
    const page = usePoolPageStore();
    const [pools, channelObjects, clusters, groups] = await Promise.all([
      paged ? page.show(shell, firstPoolPage(), opt).then(() => page.pools) : findAll(shell, TYPE.IMAGE, opt),
      readChannelList(shell, opt), optional(TYPE.FLEET_CLUSTER), optional(TYPE.FLEET_GROUP),
    ]);

    await loadPoolVersions(shell, pools, channelObjects, opt);
    channelList = channelObjects;

    return {
      pools: paged ? NO_POOLS : pools, paged, channelObjects, clusters, groups, error: ''
    };
  } catch (e) {
    return {
      pools: [], paged: false, channelObjects: [], clusters: [], groups: [], error: errorMessage(e)
    };
  }
}

/** Reads what the stores do not hold yet of the versions these pools pin (by name) and select (their channels, by label). */
export async function loadPoolVersions(shell: ShellStore, pools: readonly unknown[], channelObjects: readonly unknown[], opt: { force?: boolean } = {}): Promise<void> {
  const channels = selectorChannels(pools, channelObjects);
  const store = useChannelVersionsStore();

  await Promise.all([
    usePinnedVersionsStore().ensure(shell, pinnedNames(pools), opt),
    store.loadMany(shell, channels).then(async() => {
      if (opt.force) {
        await Promise.all(channels.map(({ namespace, channel }) => store.refresh(channelKey(namespace, channel))));
      }
    }),
  ]);
}

/** The versions these pools' rows need, as the stores hold them now (reactive on both). */
export function viewVersions(pools: readonly unknown[], channelObjects: unknown[]): OSVersion[] {
  return poolVersions({
    pinned: usePinnedVersionsStore().versionsOf(pinnedNames(pools)), channels: selectorChannels(pools, channelObjects), channelObjects
  });
}

// Two: the page works the overlaps out from its own page of pools until every pool is read.
const overlaps = new RecentValues<Map<string, string[]>>(2);

/**
 * overlapsByPool, worked out again only when a pool, a Fleet cluster or a group changed (every
 * pool's clusters over every cluster: the pools list asks on each visit). `clusterObjects` and
 * `groupObjects` are the objects `clusters` and `groups` were made from.
 */
export function poolOverlaps(pools: readonly unknown[], clusterObjects: readonly unknown[], groupObjects: readonly unknown[], clusters: readonly FleetCluster[], groups: readonly FleetGroup[]): Map<string, string[]> {
  const keys = [pools, clusterObjects, groupObjects].map(revisionKey);
  const key = keys.every((part) => part !== undefined) ? keys.join('|') : undefined;

  // Kept by revision, the raw pools are read (no reactive proxy to go through); else the live ones, so a change is seen.
  return overlaps.get(key, () => overlapsByPool(key === undefined ? pools : pools.map((pool) => toRaw(pool)), clusters, groups));
}

/** Asks with the shell's own confirm dialog (prompt-remove), which deletes the pools' models. */
export function removePools(shell: ShellStore, models: unknown[]): void {
  shell.dispatch('management/promptRemove', models);
}

/**
 * The pools that may be pinned to version `name` of `namespace` (the operator's label on them; the
 * pin decides: domain/pinned-pools.ts), for a page that says who runs an image; [] when they cannot be read.
 */
export async function loadPoolsPinnedTo(shell: ShellStore, namespace: string, name: string): Promise<unknown[]> {
  return poolsLabelledWithVersion(shell, namespace, name).catch(() => [] as unknown[]);
}

/** The pools alone, for pages that only say which pool runs an image; [] when they cannot be read. */
export async function loadPoolsOnly(shell: ShellStore): Promise<unknown[]> {
  const pools = await findAll(shell, TYPE.IMAGE).catch(() => [] as unknown[]);

  keptEveryPool = pools;

  return pools;
}
