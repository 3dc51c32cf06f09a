// One page of workload pools (ManagedOSImages) through the shell's SQL-cache API, as the shell's own
// paginated lists read a type (rancher/dashboard shell/components/PaginatedResourceTable.vue and
// utils/pagination-wrapper.ts): `findPage`, transient, so the shell's cache of the type stays
// whole for the pages that read every pool; a `resource.changes` watch says when to read again.
import { PaginationArgs, PaginationParamFilter } from '@shell/types/store/pagination.types';
import { TYPE } from '../config';
import type { PoolPageRequest } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { findPageAt, pagingEnabled, toPage } from './version-queries';
import { watchChanges } from './resource-changes';

export interface PoolPage {
  /** The pools of the page (the shell's models of them). */
  pools: unknown[];
  /** How many pools match in all (Steve's `count`). */
  count: number;
  revision?: string;
}

/** Whether the shell pages pools: `enableServerSidePagination` exists and the SQL cache is on. */
export function poolPagingEnabled(store: ShellStore): boolean {
  return pagingEnabled(store, TYPE.IMAGE);
}

/** The request as the shell's pagination arguments: Steve sorts and filters by name and namespace. */
export function poolPageArgs(request: PoolPageRequest): PaginationArgs {
  const filters = request.search ? [PaginationParamFilter.createSingleField({
    field: 'metadata.name', value: request.search, exact: false
  }) as PaginationParamFilter] : [];
  const other = request.sort === 'metadata.name' ? 'metadata.namespace' : 'metadata.name';

  return new PaginationArgs({
    page: request.page, pageSize: request.pageSize, filters, sort: [{ field: request.sort, asc: !request.descending }, { field: other, asc: true }],
  });
}

/** The pools of one page; `onChange` is called at each change of any pool, with its revision. */
export class PoolPageQuery {
  private stopWatch?: () => Promise<void>;

  constructor(private readonly store: ShellStore, private readonly onChange: (revision?: string) => void) {}

  async request(request: PoolPageRequest, revision?: string): Promise<PoolPage> {
    const page = toPage(await findPageAt(this.store, poolPageArgs(request), revision, TYPE.IMAGE));

    this.stopWatch ??= watchChanges(this.store, 'os-upgrades/pools/page', TYPE.IMAGE, this.onChange);

    return {
      pools: page.items, count: page.count, revision: page.revision
    };
  }

  async stop(): Promise<void> {
    const stop = this.stopWatch;

    this.stopWatch = undefined;
    await stop?.();
  }
}
