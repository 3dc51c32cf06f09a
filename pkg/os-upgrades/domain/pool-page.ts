// The pools list reads one page of pools (rule "Pools list pages" in README.md): what the table
// asks for, as a request Steve can answer, and the versions the pools in view still need.

/** The fields Steve sorts pools on: it indexes a ManagedOSImage's name and namespace, not its spec. */
export type PoolSortField = 'metadata.name' | 'metadata.namespace';

export interface PoolPageRequest {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Part of a pool's name ('' for every pool). */
  search: string;
  sort: PoolSortField;
  descending: boolean;
}

/** Rows per page of the pools table. */
export const POOL_PAGE_SIZE = 25;

/** The table's columns that sort by a field Steve can sort on. */
const SORT_FIELDS: Record<string, PoolSortField> = { name: 'metadata.name', namespace: 'metadata.namespace' };

/** Whether the table's column sorts by a field Steve sorts pools on. */
export function serverSortable(column: string): boolean {
  return column in SORT_FIELDS;
}

export function firstPoolPage(pageSize = POOL_PAGE_SIZE): PoolPageRequest {
  return {
    page: 1, pageSize, search: '', sort: 'metadata.name', descending: false
  };
}

/** What the shell's table emits (`pagination-changed` of SortableTable) when paged outside it. */
export interface TablePagination {
  page: number;
  perPage: number;
  filter?: { searchQuery?: unknown };
  sort?: string[];
  descending?: boolean;
}

/** The table's page, search and sort as a request; a column Steve cannot sort on sorts by name. */
export function poolPageRequest(table: TablePagination): PoolPageRequest {
  const query = table.filter?.searchQuery;
  const column = (table.sort?.[0] ?? '').split(':')[0];

  return {
    page:       Math.max(1, Math.floor(table.page) || 1),
    pageSize:   Math.max(1, Math.floor(table.perPage) || POOL_PAGE_SIZE),
    search:     typeof query === 'string' ? query.trim() : '',
    sort:       SORT_FIELDS[column] ?? 'metadata.name',
    descending: !!table.descending,
  };
}

export function samePoolPage(a: PoolPageRequest, b: PoolPageRequest): boolean {
  return a.page === b.page && a.pageSize === b.pageSize && a.search === b.search && a.sort === b.sort && a.descending === b.descending;
}

/**
 * The page to show when `count` pools match: the request's, or the last page that has pools when
 * the request is past it (its pools were deleted, or a search left fewer).
 */
export function pageWithin(request: PoolPageRequest, count: number): number {
  const last = Math.max(1, Math.ceil(count / request.pageSize));

  return Math.min(request.page, last);
}

/** `namespace/name` of a version. */
export function versionKey(namespace: string, name: string): string {
  return `${ namespace }/${ name }`;
}

/**
 * Of the names the pools in view pin or can roll back to (by namespace), those not held yet:
 * each namespace with its missing names, once each; namespaces with none left out.
 */
export function namesToRead(wanted: ReadonlyMap<string, readonly string[]>, held: (key: string) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();

  for (const [namespace, names] of wanted) {
    const missing = [...new Set(names)].filter((name) => name && !held(versionKey(namespace, name)));

    if (missing.length) {
      out.set(namespace, missing);
    }
  }

  return out;
}
