// How many versions each channel of the channels list has, without reading them: one request for
// a page of one per channel (its `count`, api/version-queries.ts). Counted again when the channel
// syncs (its status.lastSyncedTime changes); a channel whose versions the channel versions store
// holds is counted from them, live.
import { defineStore } from 'pinia';
import { countChannelVersions } from '../api/version-queries';
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
    counts:   {} as Record<string, CountState>,
    /** The sync each count was read at. */
    syncedAt: {} as Record<string, string>,
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
      await Promise.all(channels.map(async({ namespace, channel, syncedAt }) => {
        const key = channelKey(namespace, channel);
        const at = String(syncedAt);

        if (this.syncedAt[key] === at && this.counts[key]?.state !== 'error') {
          return;
        }
        this.syncedAt[key] = at;
        if (this.counts[key]?.state !== 'ready') {
          this.counts[key] = { state: 'loading' };
        }
        try {
          const count = await countChannelVersions(shell, namespace, channel);

          if (this.syncedAt[key] === at) {
            this.counts[key] = { state: 'ready', count };
          }
        } catch (e) {
          if (this.syncedAt[key] === at) {
            this.counts[key] = { state: 'error', error: errorMessage(e) };
          }
        }
      }));
    },
  },
});
