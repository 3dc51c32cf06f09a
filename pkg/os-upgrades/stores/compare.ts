// What the person chose on the compare page: the two images, the filters, the diff layout.
import { defineStore } from 'pinia';
import { SEVERITY_FILTERS, SeverityFilter } from '../domain';

export { SEVERITY_FILTERS };
export type { SeverityFilter };
export type DiffLayout = 'side-by-side' | 'line-by-line';

export const useCompareStore = defineStore('osUpgrades/compare', {
  state: () => ({
    oldName:    '',
    newName:    '',
    /** Severities shown; empty means all. */
    severities: [] as SeverityFilter[],
    search:     '',
    layout:     'side-by-side' as DiffLayout,
  }),

  getters: { filtering: (state) => state.severities.length > 0 || state.search.trim() !== '' },

  actions: {
    select(oldName: string, newName: string): void {
      this.oldName = oldName;
      this.newName = newName;
    },

    toggleSeverity(severity: SeverityFilter): void {
      this.severities = this.severities.includes(severity) ? this.severities.filter((s) => s !== severity) : [...this.severities, severity];
    },

    setSearch(search: string): void {
      this.search = search;
    },

    setLayout(layout: DiffLayout): void {
      this.layout = layout;
    },

    clearFilters(): void {
      this.severities = [];
      this.search = '';
    },
  },
});
