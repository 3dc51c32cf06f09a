// The channel objects, read for this package alone without `metadata.relationships`: real Steve
// gives an owner one relationship per object it owns (rancher/steve pkg/summarycache/summarycache.go,
// toRel), 500 per channel of 500 versions, 3.4 MB for the benchmark's 40 channels against 74 kB
// without them. The shell's store keeps one list per type, shared with the Elemental extension,
// whose Related Resources read them: so this list is not the store's (api/resources.ts `listOwn`).
// Read once per session and again at each `resource.changes` event of the type, and on request
// after a websocket reconnect.
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { listOwn } from '../api/resources';
import { watchChanges } from '../api/resource-changes';
import { TYPE } from '../config';
import type { ShellStore } from '../types/shell-store';

const EXCLUDED = ['metadata.relationships'];

let stopWatch: (() => Promise<void>) | undefined;
/** The store the watch calls back (a store replaced by another Pinia starts afresh). */
let owner: object | undefined;
/** The read under way, shared by the pages that ask meanwhile. */
let reading: Promise<Record<string, unknown>[]> | undefined;
/** The latest read: an older one that answers after it is not kept. */
let latest = 0;

export const useChannelListStore = defineStore('osUpgrades/channelList', {
  state: () => ({
    /**
     * The channel objects: one array for the session, changed in place, so a page holding it follows
     * every change as it did the shell's live list (the objects themselves are not made reactive).
     */
    channels: [] as Record<string, unknown>[],
    loaded:   false,
  }),

  actions: {
    /** The channel objects; `force` reads them from the server again (after a websocket reconnect). */
    async load(shell: ShellStore, force = false): Promise<Record<string, unknown>[]> {
      if (owner !== this.$state) {
        stopWatch?.().catch(() => undefined);
        stopWatch = undefined;
        reading = undefined;
        owner = this.$state;
      }
      stopWatch ??= watchChanges(shell, 'os-upgrades/channels', TYPE.CHANNEL, () => {
        this.read(shell).catch(() => undefined);
      });
      if (this.loaded && !force) {
        return this.channels;
      }

      return await (reading && !force ? reading : this.read(shell));
    },

    async read(shell: ShellStore): Promise<Record<string, unknown>[]> {
      const state = this.$state;
      const mine = ++latest;
      const read = listOwn<Record<string, unknown>>(shell, TYPE.CHANNEL, EXCLUDED).then((channels) => {
        if (owner === state && mine === latest) {
          this.channels.splice(0, this.channels.length, ...channels.map((channel) => markRaw(channel)));
          this.loaded = true;
        }

        return this.channels;
      });

      reading = read;
      try {
        return await read;
      } finally {
        if (reading === read) {
          reading = undefined;
        }
      }
    },

    reset(): void {
      stopWatch?.().catch(() => undefined);
      stopWatch = undefined;
      reading = undefined;
      owner = undefined;
      this.$reset();
    },
  },
});
