// The versions of the channels pages show, as plain OSVersion records converted once: each
// channel is read by its label (api/version-queries.ts), kept for the session and read again at
// the revision of each `resource.changes` event (one announced during a read is read after it);
// only versions whose resourceVersion changed are converted again. No page reads every ManagedOSVersion.
// A session's first read of a channel takes the list an earlier session kept while Steve's
// revision of it has not moved (rule "Kept version list"): a page of one instead of the whole list.
import { defineStore } from 'pinia';
import {
  keptListHolds, KeptVersionList, OSVersion, orderChannel, toOSVersion
} from '../domain';
import { ChannelVersionsQuery, versionsByName } from '../api/version-queries';
import { versionListCache } from '../api/version-list-cache';
import { errorMessage } from '../api/resources';
import { resourceVersionOf } from './revision-memo';
import type { ShellStore } from '../types/shell-store';

/** Channels kept at once; the least recently used one is dropped (and unwatched) beyond that. */
export const MAX_CHANNELS = 64;

export type ChannelState =
  | { state: 'loading' }
  | { state: 'ready'; versions: readonly OSVersion[]; revision?: string }
  | { state: 'error'; error: string };

interface Converted {
  resourceVersion: string;
  version: OSVersion;
}

interface Tracked {
  query: ChannelVersionsQuery;
  /** name → the record converted at that resourceVersion. */
  converted: Map<string, Converted>;
  loading?: Promise<readonly OSVersion[]>;
  revision?: string;
  /** A change announced while a read was under way: read again once it ends. */
  pending?: { revision?: string };
}

// Outside the reactive state: queries hold the shell's watches.
const tracked = new Map<string, Tracked>();
// A channel not read yet has no versions: always the same empty list, so callers may compare lists by identity.
const NO_VERSIONS: readonly OSVersion[] = Object.freeze([]);

export function channelKey(namespace: string, channel: string): string {
  return `${ namespace }/${ channel }`;
}

/**
 * The records for `objects`, reusing those converted before at the same resourceVersion; frozen,
 * so Vue never makes them reactive. Updates `converted` to exactly these objects.
 */
export function convertVersions(objects: readonly unknown[], converted: Map<string, Converted>): OSVersion[] {
  const seen = new Set<string>();
  const versions = objects.map((object) => {
    const resourceVersion = resourceVersionOf(object);
    const name = String((object as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '');
    const known = converted.get(name);

    seen.add(name);
    if (known && resourceVersion && known.resourceVersion === resourceVersion) {
      return known.version;
    }
    const version = Object.freeze(toOSVersion(object)) as OSVersion;

    converted.set(name, { resourceVersion, version });

    return version;
  });

  for (const name of [...converted.keys()]) {
    if (!seen.has(name)) {
      converted.delete(name);
    }
  }

  return versions;
}

/** The converted versions with the resourceVersions they were read at, as a session keeps them. */
function keptList(revision: string, versions: readonly OSVersion[], converted: Map<string, Converted>): KeptVersionList {
  return { revision, versions: versions.map((version) => ({ resourceVersion: converted.get(version.name)?.resourceVersion ?? '', version })) };
}

/** The kept list of an earlier session, when it still holds: its versions, now the channel's converted ones. */
async function keptVersions(key: string, item: Tracked): Promise<{ versions: OSVersion[]; revision?: string } | undefined> {
  const kept = await versionListCache().get(key);

  if (!kept) {
    return undefined;
  }
  const head = await item.query.head().catch(() => undefined);

  if (!head || !keptListHolds(kept, head)) {
    return undefined;
  }
  item.converted.clear();
  const versions = kept.versions.map(({ resourceVersion, version }) => {
    const frozen = Object.freeze(version) as OSVersion;

    item.converted.set(frozen.name, { resourceVersion, version: frozen });

    return frozen;
  });

  item.query.watch();

  return { versions, revision: head.revision };
}

/** The channel's versions, from the server (at `revision`), or on a session's first read from the kept list while it holds. */
async function readVersions(key: string, item: Tracked, revision?: string): Promise<{ versions: OSVersion[]; revision?: string }> {
  const firstRead = revision === undefined && !item.converted.size && item.query.paged();
  const kept = firstRead ? await keptVersions(key, item) : undefined;

  if (kept) {
    return kept;
  }
  const page = await item.query.request(revision);
  const versions = convertVersions(page.items, item.converted);

  if (page.revision) {
    const list = keptList(page.revision, versions, item.converted);

    // Kept for the next session after this read is shown.
    setTimeout(() => versionListCache().put(key, list).catch(() => undefined), 0);
  }

  return { versions, revision: page.revision };
}

export const useChannelVersionsStore = defineStore('osUpgrades/channelVersions', {
  state: () => ({
    channels: {} as Record<string, ChannelState>,
    /** Keys, least recently used first. */
    recent:   [] as string[],
  }),

  getters: {
    channelState: (state) => (namespace: string, channel: string): ChannelState | undefined => state.channels[channelKey(namespace, channel)],

    /** The channel's versions, newest first ([] until loaded). */
    versions(): (namespace: string, channel: string) => readonly OSVersion[] {
      return (namespace, channel) => {
        const entry = this.channelState(namespace, channel);

        return entry?.state === 'ready' ? entry.versions : NO_VERSIONS;
      };
    },
  },

  actions: {
    /** The channel's versions, newest first: from the store when loaded, else read once (callers share it). */
    load(shellStore: ShellStore, namespace: string, channel: string): Promise<readonly OSVersion[]> {
      const key = channelKey(namespace, channel);
      const entry = this.channels[key];
      let known = tracked.get(key);

      if (known && !entry) {
        // Left by a store that was replaced (another Pinia): start afresh.
        known.query.stop().catch(() => undefined);
        tracked.delete(key);
        known = undefined;
      }

      this.touch(key);
      if (entry?.state === 'ready') {
        return Promise.resolve(entry.versions);
      }
      if (known?.loading) {
        return known.loading;
      }
      const item: Tracked = known ?? {
        query:     new ChannelVersionsQuery(shellStore, namespace, channel, (revision) => this.refresh(key, revision)),
        converted: new Map(),
      };

      tracked.set(key, item);

      return this.read(key, item);
    },

    /** Several channels at once (the pools page, a compare of two channels). */
    loadMany(shellStore: ShellStore, channels: readonly { namespace: string; channel: string }[]): Promise<(readonly OSVersion[])[]> {
      return Promise.all(channels.map(({ namespace, channel }) => this.load(shellStore, namespace, channel)));
    },

    /** A change was announced at `revision`: read the channel again, keeping what it shows until then. */
    async refresh(key: string, revision?: string): Promise<void> {
      const item = tracked.get(key);

      if (!item) {
        return;
      }
      if (item.loading) {
        item.pending = { revision };

        return;
      }
      await this.read(key, item, revision).catch(() => undefined);
    },

    read(key: string, item: Tracked, revision?: string): Promise<readonly OSVersion[]> {
      if (!this.channels[key] || this.channels[key].state === 'error') {
        this.channels[key] = { state: 'loading' };
      }
      item.loading = readVersions(key, item, revision).then((page) => {
        // Only this channel's, should a store answer more than the label asked for.
        const own = page.versions.filter((version) => version.channel === item.query.channel && version.namespace === item.query.namespace);
        const versions = Object.freeze(orderChannel(own));

        item.revision = page.revision;
        if (tracked.get(key) === item) {
          this.channels[key] = {
            state: 'ready', versions, revision: page.revision
          };
        }

        return versions;
      }, (e: unknown) => {
        if (tracked.get(key) === item && this.channels[key]?.state !== 'ready') {
          this.channels[key] = { state: 'error', error: errorMessage(e) };
        }
        throw e;
      }).finally(() => {
        item.loading = undefined;
        const pending = item.pending;

        item.pending = undefined;
        if (pending && tracked.get(key) === item) {
          this.refresh(key, pending.revision);
        }
      });

      return item.loading;
    },

    touch(key: string): void {
      this.recent = [...this.recent.filter((k) => k !== key), key];
      while (this.recent.length > MAX_CHANNELS) {
        const dropped = this.recent[0];

        this.recent = this.recent.slice(1);
        this.forget(dropped);
      }
    },

    forget(key: string): void {
      const item = tracked.get(key);

      tracked.delete(key);
      delete this.channels[key];
      item?.query.stop().catch(() => undefined);
    },

    /** Everything dropped and unwatched (tests; logout). */
    reset(): void {
      for (const key of [...tracked.keys()]) {
        this.forget(key);
      }
      this.channels = {};
      this.recent = [];
    },
  },
});

/** Pinned versions by name (not kept: pools re-read them with the pools). */
export async function pinnedVersions(shellStore: ShellStore, namespace: string, names: readonly string[]): Promise<OSVersion[]> {
  return (await versionsByName(shellStore, namespace, names)).map(toOSVersion);
}
