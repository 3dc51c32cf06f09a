// What the person chose on the compare page: the two images, the filters, the diff layout.
import { defineStore } from 'pinia';
import type { Severity } from '../domain';

/** A severity filter value: the domain's severities, with '' (no severity) named `none`. */
export type SeverityFilter = Exclude<Severity, ''> | 'none';
export type DiffLayout = 'side-by-side' | 'line-by-line';

export const SEVERITY_FILTERS: readonly SeverityFilter[] = ['critical', 'important', 'moderate', 'low', 'none'];

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

    swap(): void {
      this.select(this.newName, this.oldName);
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
