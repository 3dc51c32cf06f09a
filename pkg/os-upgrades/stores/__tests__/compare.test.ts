import { createPinia, setActivePinia } from 'pinia';
import { useCompareStore } from '../compare';

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('compare store', () => {
  it('swaps old and new', () => {
    const store = useCompareStore();

    store.select('base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os');
    store.swap();
    expect([store.oldName, store.newName]).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.8-os']);
  });

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
