// The channels page's image search: the query, and the package lists and logs it searches.
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type {
  FileReadCounts, ImageSearchIndex, OSVersion, PackageLists, UpdateLogs
} from '../domain';
import { fileReadCounts } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { findAll } from '../api/resources';
import { TYPE } from '../config';
import { useChangelogsStore } from './changelogs';
import { ChannelRef, loadChannelVersions, sameRef, versionsOfChannels } from './channels';

type ChannelObject = Record<string, unknown>;

function channelOf(channels: readonly ChannelObject[], version: OSVersion): ChannelObject | undefined {
  return channels.find((channel) => {
    const metadata = channel.metadata as { name?: string; namespace?: string } | undefined;

    return metadata?.name === version.channel && metadata?.namespace === version.namespace;
  });
}

export const useImageSearchStore = defineStore('osUpgrades/imageSearch', {
  state: () => ({
    query:        '',
    /** True once the person asked to search package lists and logs too. */
    deep:         false,
    /**
     * The channels whose versions were read for the search: only once the person searches (the
     * page itself reads none), a channel at a time into the channel versions store.
     */
    searched:     [] as ChannelRef[],
    versionsRead: { done: 0, total: 0 },
    /**
     * The pools, read with the versions: hits in the channels they use rank higher
     * (domain/image-search-rank.ts). Empty when the person may not list them.
     */
    pools:        markRaw([]) as unknown[],
  }),

  getters: {
    /** The versions of these channels as the store holds them (those read for the search so far). */
    versionsOf(state): (refs: readonly ChannelRef[]) => OSVersion[] {
      return (refs) => versionsOfChannels(refs.filter((ref) => state.searched.some((known) => sameRef(known, ref))));
    },

    /** What the search knows of these versions: the package lists and logs fetched so far. */
    index(): (versions: readonly OSVersion[]) => ImageSearchIndex {
      const changelogs = useChangelogsStore();

      return (versions) => {
        const packages: PackageLists = {};
        const logs: UpdateLogs = {};

        for (const version of versions) {
          const list = changelogs.packages(version);
          const log = changelogs.log(version);

          if (list?.state === 'ok') {
            packages[version.name] = list.value;
          }
          if (log?.state === 'ok') {
            logs[version.name] = log.value;
          }
        }

        return { packages, logs };
      };
    },

    /** Of the package lists and logs of these versions: how many were read, are missing, could not be read. */
    fileCounts(): (versions: readonly OSVersion[]) => FileReadCounts {
      const changelogs = useChangelogsStore();

      return (versions) => fileReadCounts(versions.flatMap((version) => [changelogs.packages(version), changelogs.log(version)]));
    },
  },

  actions: {
    setQuery(query: string): void {
      this.query = query;
    },

    /** Reads the versions of every channel once, for the search (each channel's own query). */
    async loadVersions(shellStore: ShellStore, refs: readonly ChannelRef[]): Promise<void> {
      const missing = refs.filter((ref) => !this.searched.some((known) => sameRef(known, ref)));

      if (!missing.length) {
        return;
      }
      if (!this.searched.length) {
        findAll<unknown>(shellStore, TYPE.IMAGE).then((pools) => {
          this.pools = markRaw([...pools]);
        }).catch(() => undefined);
      }
      this.searched = [...this.searched, ...missing];
      this.versionsRead = { done: this.versionsRead.done, total: this.versionsRead.total + missing.length };
      await Promise.all(missing.map(async(ref) => {
        await loadChannelVersions(shellStore, [ref]).catch(() => undefined);
        this.versionsRead = { ...this.versionsRead, done: this.versionsRead.done + 1 };
      }));
    },

    /** Fetches the package list and log of every container image, each with its channel's URL template. */
    async loadFiles(shellStore: ShellStore, versions: readonly OSVersion[], channels: readonly ChannelObject[], signal?: AbortSignal): Promise<void> {
      const changelogs = useChangelogsStore();
      const groups = new Map<ChannelObject | undefined, OSVersion[]>();

      this.deep = true;
      for (const version of versions) {
        if (version.type === 'container') {
          const channel = channelOf(channels, version);

          groups.set(channel, [...(groups.get(channel) ?? []), version]);
        }
      }
      await Promise.all([...groups].flatMap(([channel, group]) => [
        changelogs.load(shellStore, 'packages', group, channel, signal),
        changelogs.load(shellStore, 'log', group, channel, signal),
      ]));
    },
  },
});
