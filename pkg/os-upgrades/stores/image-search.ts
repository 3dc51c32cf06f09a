// The channels page's image search: the query, and the package lists and logs it searches.
import { defineStore } from 'pinia';
import type {
  ImageSearchIndex, OSVersion, PackageLists, SourceSummary, UpdateLogs
} from '../domain';
import type { ShellStore } from '../types/shell-store';
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

    /**
     * What the search could read of these versions' files: a file it could not read (`failed`:
     * errors, web pages; `noService`) is not searched, so "no match" is only as good as `read`.
     */
    fileAnswers(): (versions: readonly OSVersion[]) => { packages: SourceSummary; logs: SourceSummary } {
      const changelogs = useChangelogsStore();

      return (versions) => ({ packages: changelogs.answers('packages', versions), logs: changelogs.answers('log', versions) });
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
