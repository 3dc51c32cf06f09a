// How many versions each channel of the channels list has, without reading them: one request per
// namespace for Steve's summary of the channel label (rule "Counts from one request"), or, where
// Steve answers no summary, one request for a page of one per channel (its `count`). Counted again
// when the channel syncs (its status.lastSyncedTime changes); a channel whose versions the channel
// versions store holds is counted from them, live.
import { defineStore } from 'pinia';
import { countChannelVersions, countVersionsByChannel } from '../api/version-queries';
import { errorMessage } from '../api/resources';
import type { ShellStore } from '../types/shell-store';
import { channelKey, useChannelVersionsStore } from './channel-versions';

export type CountState =
  | { state: 'loading' }
  | { state: 'ready'; count: number }
  | { state: 'error'; error: string };

export interface CountedChannel {
  namespace: string;
  channel: string;
  /** When the channel last synced (anything that changes with each sync). */
  syncedAt: string | number;
}

export const useChannelCountsStore = defineStore('osUpgrades/channelCounts', {
  state: () => ({
    counts:      {} as Record<string, CountState>,
    /** The sync each count was read at. */
    syncedAt:    {} as Record<string, string>,
    /** This Steve answered a list without the summary asked for: count channel by channel from now on. */
    noSummaries: false,
  }),

  getters: {
    countOf: (state) => (namespace: string, channel: string): CountState | undefined => {
      const kept = useChannelVersionsStore().channelState(namespace, channel);

      if (kept?.state === 'ready') {
        return { state: 'ready', count: kept.versions.length };
      }

      return state.counts[channelKey(namespace, channel)];
    },
  },

  actions: {
    /** Counts each channel not counted yet at its last sync. */
    async load(shell: ShellStore, channels: readonly CountedChannel[]): Promise<void> {
      const due = channels.filter(({ namespace, channel, syncedAt }) => {
        const key = channelKey(namespace, channel);

        return this.syncedAt[key] !== String(syncedAt) || this.counts[key]?.state === 'error';
      });
      const namespaces = [...new Set(due.map((c) => c.namespace))];

      for (const { namespace, channel, syncedAt } of due) {
        const key = channelKey(namespace, channel);

        this.syncedAt[key] = String(syncedAt);
        if (this.counts[key]?.state !== 'ready') {
          this.counts[key] = { state: 'loading' };
        }
      }
      await Promise.all(namespaces.map(async(namespace) => {
        const inNamespace = due.filter((c) => c.namespace === namespace);
        const byChannel = await this.summaryOf(shell, namespace);

        await Promise.all(inNamespace.map(({ channel, syncedAt }) => this.settle(namespace, channel, String(syncedAt), async() => {
          return byChannel ? byChannel[channel] ?? 0 : await countChannelVersions(shell, namespace, channel);
        })));
      }));
    },

    /** The namespace's counts from one request; undefined when Steve has no summaries or the request failed. */
    async summaryOf(shell: ShellStore, namespace: string): Promise<Record<string, number> | undefined> {
      if (this.noSummaries) {
        return undefined;
      }
      try {
        const counts = await countVersionsByChannel(shell, namespace);

        this.noSummaries = counts === undefined;

        return counts;
      } catch {
        // Counted channel by channel instead, where each failure is said beside its channel.
        return undefined;
      }
    },

    async settle(namespace: string, channel: string, at: string, count: () => Promise<number>): Promise<void> {
      const key = channelKey(namespace, channel);

      try {
        const value = await count();

        if (this.syncedAt[key] === at) {
          this.counts[key] = { state: 'ready', count: value };
        }
      } catch (e) {
        if (this.syncedAt[key] === at) {
          this.counts[key] = { state: 'error', error: errorMessage(e) };
        }
      }
    },
  },
});
