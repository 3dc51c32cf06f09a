import fc from 'fast-check';
import {
  firstPoolPage, namesToRead, pageWithin, poolPageRequest, samePoolPage, serverSortable, versionKey
} from '../pool-page';

describe('the pools list page', () => {
  it('asks Steve for the table\'s page, its search and a sort Steve can answer', () => {
    expect(poolPageRequest({
      page: 3, perPage: 25, filter: { searchQuery: '  edge ' }, sort: ['namespace'], descending: true
    })).toEqual({
      page: 3, pageSize: 25, search: 'edge', sort: 'metadata.namespace', descending: true
    });
    // The pin, the state and the selector are in the spec and status, which Steve does not index.
    expect(poolPageRequest({
      page: 1, perPage: 50, sort: ['rollout.phase']
    }).sort).toBe('metadata.name');
    expect(poolPageRequest({
      page: 1, perPage: 50, sort: ['name:desc']
    }).sort).toBe('metadata.name');
    // Advanced filtering hands an array: not a name to search for.
    expect(poolPageRequest({
      page: 0, perPage: 0, filter: { searchQuery: [{ value: 'x' }] }
    })).toEqual(firstPoolPage());
  });

  it('tells two requests apart by every part', () => {
    const first = firstPoolPage();

    expect(samePoolPage(first, { ...first })).toBe(true);
    for (const change of [{ page: 2 }, { pageSize: 10 }, { search: 'a' }, { sort: 'metadata.namespace' as const }, { descending: true }]) {
      expect(samePoolPage(first, { ...first, ...change })).toBe(false);
    }
  });

  it('shows the last page that has pools when the request is past it', () => {
    const request = { ...firstPoolPage(50), page: 5 };

    expect(pageWithin(request, 200)).toBe(4);
    expect(pageWithin(request, 201)).toBe(5);
    expect(pageWithin(request, 0)).toBe(1);
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 5000 }), (page, pageSize, count) => {
      const shown = pageWithin({ ...firstPoolPage(pageSize), page }, count);

      // Never past the request, never empty while pools match, and the request's page when it has pools.
      expect(shown).toBeLessThanOrEqual(page);
      expect(shown).toBeGreaterThanOrEqual(1);
      expect(count === 0 || (shown - 1) * pageSize < count).toBe(true);
      expect((page - 1) * pageSize < count ? shown === page : true).toBe(true);
    }));
  });

  it('reads only the pinned names not held yet, once each', () => {
    const held = new Set([versionKey('fleet-default', 'a')]);
    const wanted = new Map([['fleet-default', ['a', 'b', 'b', '']], ['other', ['a']], ['done', []]]);

    expect(namesToRead(wanted, (key) => held.has(key))).toEqual(new Map([['fleet-default', ['b']], ['other', ['a']]]));
  });
});

describe('the pools table\'s columns paged by the server', () => {
  it('sort by name and namespace only', () => {
    expect(['name', 'namespace', 'pin', 'state', 'selector'].filter(serverSortable)).toEqual(['name', 'namespace']);
  });
});
