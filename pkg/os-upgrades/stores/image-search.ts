// The channels page's image search: the query, and the package lists and logs it searches.
import { defineStore } from 'pinia';
import type { ImageSearchIndex, OSVersion, PackageLists, UpdateLogs } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { useChangelogsStore } from './changelogs';

type ChannelObject = Record<string, unknown>;

function channelOf(channels: readonly ChannelObject[], version: OSVersion): ChannelObject | undefined {
  return channels.find((channel) => {
    const metadata = channel.metadata as { name?: string; namespace?: string } | undefined;

    return metadata?.name === version.channel && metadata?.namespace === version.namespace;
  });
}

export const useImageSearchStore = defineStore('osUpgrades/imageSearch', {
  state: () => ({
    query: '',
    /** True once the person asked to search package lists and logs too. */
    deep:  false,
  }),

  getters: {
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
  },

  actions: {
    setQuery(query: string): void {
      this.query = query;
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
