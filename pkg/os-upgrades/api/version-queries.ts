// ManagedOSVersions by channel or by name, never all of them: the shell's SQL-cache API
// (`findPage`, through its PaginationWrapper for a page that is not the store's cache, with a
// `resource.changes` watch). How the shell pages and filters: docs/shell-queries.md.
import PaginationWrapper from '@shell/utils/pagination-wrapper';
import { FilterArgs, PaginationArgs, PaginationFilterField, PaginationParamFilter } from '@shell/types/store/pagination.types';
import { TYPE } from '../config';
import type { ShellStore } from '../types/shell-store';

export const CHANNEL_LABEL = 'elemental.cattle.io/channel';
/** Names per request when reading versions by name (a URL stays well under a proxy's 8 kB line). */
export const NAMES_PER_REQUEST = 50;

export interface VersionPage {
  /** The versions as the API returns them (the shell's models of them). */
  items: unknown[];
  /** Steve's revision of the list, for the next request after a change. */
  revision?: string;
  /** How many matched in all. */
  count: number;
}

interface FindPageResult {
  data?: unknown[];
  pagination?: { result?: { count?: number; revision?: string } };
}

function inNamespace(namespace: string): PaginationParamFilter {
  return PaginationParamFilter.createSingleField({ field: 'metadata.namespace', value: namespace }) as PaginationParamFilter;
}

function channelArgs(namespace: string, channel: string): PaginationArgs {
  return new FilterArgs({ filters: [inNamespace(namespace)], labelSelector: { matchLabels: { [CHANNEL_LABEL]: channel } } });
}

function toPage(result: FindPageResult | unknown[] | undefined): VersionPage {
  if (Array.isArray(result)) {
    return { items: result, count: result.length };
  }
  const items = result?.data ?? [];

  return {
    items, revision: result?.pagination?.result?.revision, count: result?.pagination?.result?.count ?? items.length
  };
}

function findPage(store: ShellStore, pagination: PaginationArgs): Promise<FindPageResult> {
  return store.dispatch('management/findPage', {
    type: TYPE.VERSION,
    opt:  {
      pagination, transient: true, watch: false
    }
  }) as Promise<FindPageResult>;
}

/**
 * One channel's versions, read again at the revision a `resource.changes` event names. `onChange`
 * is called for each such event (any version of any channel: the event carries no data).
 */
export class ChannelVersionsQuery {
  private readonly wrapper?: PaginationWrapper<object>;

  constructor(private readonly store: ShellStore, readonly namespace: string, readonly channel: string, onChange?: (revision?: string) => void) {
    try {
      this.wrapper = new PaginationWrapper<object>({
        $store:     store as never,
        id:         `os-upgrades/versions/${ namespace }/${ channel }`,
        enabledFor: { store: 'management', resource: { id: TYPE.VERSION, context: 'os-upgrades' } },
        onChange:   onChange ? ({ revision }) => onChange(revision) : undefined,
      });
    } catch {
      // A store without the shell's settings getters (not a dashboard): the fallback below.
      this.wrapper = undefined;
    }
  }

  async request(revision?: string): Promise<VersionPage> {
    const pagination = channelArgs(this.namespace, this.channel);

    if (!this.wrapper?.isEnabled) {
      // A shell that does not page this type: the label selector through the store, unwatched.
      return toPage(await this.store.dispatch('management/findLabelSelector', {
        type: TYPE.VERSION, matching: { namespace: this.namespace, labelSelector: pagination.labelSelector }, opt: { transient: true }
      }) as FindPageResult);
    }

    return toPage(await this.wrapper.request({ pagination, revision }) as FindPageResult);
  }

  async stop(): Promise<void> {
    await this.wrapper?.onDestroy();
  }
}

/** How many versions a channel has, from one request for a page of one. */
export async function countChannelVersions(store: ShellStore, namespace: string, channel: string): Promise<number> {
  const labelSelector = { matchLabels: { [CHANNEL_LABEL]: channel } };

  return toPage(await findPage(store, new PaginationArgs({
    page: 1, pageSize: 1, filters: [inNamespace(namespace)], labelSelector
  }))).count;
}

/** The versions of these names in a namespace (pools' pins), a few dozen names per request. */
export async function versionsByName(store: ShellStore, namespace: string, names: readonly string[]): Promise<unknown[]> {
  const unique = [...new Set(names.filter(Boolean))];
  const batches: string[][] = [];

  for (let i = 0; i < unique.length; i += NAMES_PER_REQUEST) {
    batches.push(unique.slice(i, i + NAMES_PER_REQUEST));
  }
  const pages = await Promise.all(batches.map((batch) => findPage(store, new FilterArgs({
    filters: [
      inNamespace(namespace),
      PaginationParamFilter.createMultipleFields(batch.map((name) => new PaginationFilterField({ field: 'metadata.name', value: name }))) as PaginationParamFilter,
    ],
  }))));

  return pages.flatMap((page) => toPage(page).items);
}
