import { createPinia, setActivePinia } from 'pinia';
import { useCompareStore } from '../compare';

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('compare store', () => {
  it('toggles severity filters and knows when anything is filtered', () => {
    const store = useCompareStore();

    expect(store.filtering).toBe(false);
    store.toggleSeverity('critical');
    store.toggleSeverity('low');
    store.toggleSeverity('critical');
    expect(store.severities).toEqual(['low']);
    expect(store.filtering).toBe(true);
    store.clearFilters();
    store.setSearch('  ');
    expect(store.filtering).toBe(false);
  });
});
