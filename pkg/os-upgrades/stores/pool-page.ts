// The page of pools the pools list shows, read through the shell's SQL-cache API (api/pool-pages.ts)
// and kept for the session: a change of any pool reads the page again at its revision, so a visit
// shows the page at once without a request. Where the shell does not page pools (Rancher 2.12's
// shell), the pools list reads every pool through the shell's store instead (stores/pool-list.ts).
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { firstPoolPage, pageWithin, PoolPageRequest, samePoolPage } from '../domain';
import { PoolPageQuery } from '../api/pool-pages';
import { setShownPools } from './shown-pools';
import type { ShellStore } from '../types/shell-store';

// Outside the reactive state: the query holds the shell's watch, for the store that made it.
let query: PoolPageQuery | undefined;
let owner: object | undefined;
/** Each read's number: an answer to an older read than the last one is dropped. */
let reads = 0;

export const usePoolPageStore = defineStore('osUpgrades/poolPage', {
  state: () => ({
    request: firstPoolPage(),
    /** The shell's models of the page's pools, not made reactive (a new array each read). */
    pools:   markRaw([]) as unknown[],
    /** How many pools match the request's search in all. */
    count:   0,
    loaded:  false,
  }),

  actions: {
    /** Shows `request`'s page: from the store when it holds that page (kept current), else read; `force` reads it again. */
    async show(shell: ShellStore, request: PoolPageRequest, opt: { force?: boolean } = {}): Promise<void> {
      if (this.loaded && query && samePoolPage(request, this.request) && !opt.force) {
        return;
      }
      await this.read(shell, request);
    },

    async read(shell: ShellStore, request: PoolPageRequest, revision?: string): Promise<void> {
      const read = ++reads;

      if (owner !== this.$state) {
        // Left by a store that was replaced (another Pinia): start afresh.
        query?.stop().catch(() => undefined);
        query = undefined;
        owner = this.$state;
      }
      query ??= new PoolPageQuery(shell, (changed) => this.refresh(shell, changed));
      let page = await query.request(request, revision);
      const shown = { ...request, page: pageWithin(request, page.count) };

      if (shown.page !== request.page && read === reads) {
        page = await query.request(shown, revision);
      }
      if (read !== reads) {
        return;
      }
      this.request = shown;
      this.pools = markRaw(page.pools);
      setShownPools(page.pools);
      this.count = page.count;
      this.loaded = true;
    },

    /** A pool changed at `revision`: read the page shown again (what it shows stays until then). */
    refresh(shell: ShellStore, revision?: string): void {
      if (this.loaded) {
        this.read(shell, this.request, revision).catch(() => undefined);
      }
    },

    /** Forgotten and unwatched (logout). */
    reset(): void {
      query?.stop().catch(() => undefined);
      query = undefined;
      reads++;
      setShownPools([]);
      this.$reset();
    },
  },
});
