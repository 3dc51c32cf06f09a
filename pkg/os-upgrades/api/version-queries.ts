// ManagedOSVersions by channel or by name, never all of them: the shell's SQL-cache API
// (`findPage`, transient, so the shell's cache of the type is never replaced by one page) and its
// `resource.changes` watch events. How the shell pages and filters: docs/shell-queries.md.
//
// The shell's own helper for this, `utils/pagination-wrapper.ts`, is not imported: an extension
// bundles its own copy of every shell module it imports, and that one brings the shell's whole
// dashboard store, plugin core and type map (about 150 kB gzipped) into each page's chunk. The
// shell's store actions (`findPage`, `watchEvent`, `unwatchEvent`) and its getter
// `paginationEnabled` do the same at run time without any of it.
import { FilterArgs, PaginationArgs, PaginationFilterField, PaginationParamFilter } from '@shell/types/store/pagination.types';
import { TYPE } from '../config';
import type { ShellStore } from '../types/shell-store';
import { CHANNEL_LABEL, labelSummaryField, labelValueCounts, servesSummaryOnly } from '../domain';

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

export interface FindPageResult {
  data?: unknown[];
  pagination?: { result?: { count?: number; revision?: string } };
}

function inNamespace(namespace: string): PaginationParamFilter {
  return PaginationParamFilter.createSingleField({ field: 'metadata.namespace', value: namespace }) as PaginationParamFilter;
}

function channelArgs(namespace: string, channel: string): PaginationArgs {
  return new FilterArgs({ filters: [inNamespace(namespace)], labelSelector: { matchLabels: { [CHANNEL_LABEL]: channel } } });
}

/** A page of one of the channel's versions: the list's count and revision, for a few hundred bytes. */
function channelHeadArgs(namespace: string, channel: string): PaginationArgs {
  return new PaginationArgs({
    page: 1, pageSize: 1, filters: [inNamespace(namespace)], labelSelector: { matchLabels: { [CHANNEL_LABEL]: channel } }
  });
}

export function toPage(result: FindPageResult | unknown[] | undefined): VersionPage {
  if (Array.isArray(result)) {
    return { items: result, count: result.length };
  }
  const items = result?.data ?? [];

  return {
    items, revision: result?.pagination?.result?.revision, count: result?.pagination?.result?.count ?? items.length
  };
}

function findPage(store: ShellStore, pagination: PaginationArgs, revision?: string, type: string = TYPE.VERSION): Promise<FindPageResult> {
  return store.dispatch('management/findPage', {
    type,
    opt: {
      pagination, transient: true, watch: false, ...(revision ? { revision } : {})
    }
  }) as Promise<FindPageResult>;
}

/** A page at `revision` (of `type`, versions by default), tried again while the replica answering does not know that revision yet. */
export async function findPageAt(store: ShellStore, pagination: PaginationArgs, revision?: string, type: string = TYPE.VERSION): Promise<FindPageResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await findPage(store, pagination, revision, type);
    } catch (e) {
      if (!revision || attempt >= REVISION_TRIES || !isUnknownRevision(e)) {
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, REVISION_RETRY_MS * attempt));
    }
  }
}

/** rancher/dashboard shell/types/store/subscribe.types.ts: STEVE_WATCH_EVENT_TYPES.CHANGES, STEVE_WATCH_MODE.RESOURCE_CHANGES. */
export const RESOURCE_CHANGES = 'resource.changes';
/** rancher/dashboard shell/types/rancher/steve.api.ts STEVE_RESPONSE_CODE.UNKNOWN_REVISION: a replica that has not seen the revision yet. */
const UNKNOWN_REVISION = 'unknown revision';
/** Tries of a request at a revision that a replica does not know yet (the shell's wrapper backs off the same way). */
const REVISION_TRIES = 4;
const REVISION_RETRY_MS = 500;

function isUnknownRevision(e: unknown): boolean {
  const error = e as { status?: unknown; _status?: unknown; code?: unknown } | undefined;

  return (error?.status === 400 || error?._status === 400) && error?.code === UNKNOWN_REVISION;
}

/** Rancher's `server-version` setting, as the shell loaded it at start ('' when it did not). */
function serverVersion(store: ShellStore): string {
  const byId = store.getters['management/byId'] as ((type: string, id: string) => { value?: unknown } | undefined) | undefined;

  try {
    return String((typeof byId === 'function' && byId(TYPE.SETTING, 'server-version')?.value) || '');
  } catch {
    return '';
  }
}

/** Whether the shell pages this type (`paginationEnabled`, shell/plugins/dashboard-store/getters.js); false for a store without it. */
export function pagingEnabled(store: ShellStore, type: string = TYPE.VERSION): boolean {
  const getter = store.getters['management/paginationEnabled'] as ((args: { id: string; context: string }) => boolean) | undefined;

  try {
    return typeof getter === 'function' && !!getter({ id: type, context: 'os-upgrades' });
  } catch {
    return false;
  }
}

/**
 * One channel's versions, read again at the revision a `resource.changes` event names. `onChange`
 * is called for each such event (any version of any channel: the event carries no data).
 */
export class ChannelVersionsQuery {
  private readonly id: string;
  private watching = false;

  constructor(private readonly store: ShellStore, readonly namespace: string, readonly channel: string, private readonly onChange?: (revision?: string) => void) {
    this.id = `os-upgrades/versions/${ namespace }/${ channel }`;
  }

  async request(revision?: string): Promise<VersionPage> {
    const pagination = channelArgs(this.namespace, this.channel);

    if (!pagingEnabled(this.store)) {
      // A shell that does not page this type: the label selector through the store, unwatched.
      return toPage(await this.store.dispatch('management/findLabelSelector', {
        type: TYPE.VERSION, matching: { namespace: this.namespace, labelSelector: pagination.labelSelector }, opt: { transient: true }
      }) as FindPageResult);
    }
    const page = toPage(await findPageAt(this.store, pagination, revision));

    this.watch();

    return page;
  }

  /** Whether the shell pages versions (else `request` reads them by label through the store, unwatched). */
  paged(): boolean {
    return pagingEnabled(this.store);
  }

  /** The list as it is now, without its versions: its revision and how many there are (a page of one). */
  async head(): Promise<VersionPage> {
    return toPage(await findPage(this.store, channelHeadArgs(this.namespace, this.channel)));
  }

  /** The shell's `resource.changes` listener for the type (shell/plugins/steve/subscribe.js watchEvent), once. */
  watch(): void {
    if (this.watching || !this.onChange) {
      return;
    }
    this.watching = true;
    const onChange = this.onChange;

    this.store.dispatch('management/watchEvent', {
      event: RESOURCE_CHANGES, id: this.id, params: { type: TYPE.VERSION, mode: RESOURCE_CHANGES }, callback: ({ revision }: { revision?: string } = {}) => onChange(revision),
    })?.catch?.(() => {
      this.watching = false;
    });
  }

  async stop(): Promise<void> {
    if (this.watching) {
      this.watching = false;
      await this.store.dispatch('management/unwatchEvent', {
        event: RESOURCE_CHANGES, id: this.id, params: { type: TYPE.VERSION, mode: RESOURCE_CHANGES }
      });
    }
  }
}

/** How many versions a channel has, from one request for a page of one. */
export async function countChannelVersions(store: ShellStore, namespace: string, channel: string): Promise<number> {
  return toPage(await findPage(store, channelHeadArgs(namespace, channel))).count;
}

/**
 * How many versions each channel of a namespace has, from one list asking Steve's summary of the
 * channel label (rule "Counts from one request"); undefined when this Steve answers no summary.
 */
export async function countVersionsByChannel(store: ShellStore, namespace: string): Promise<Record<string, number> | undefined> {
  if (!servesSummaryOnly(serverVersion(store)) || !pagingEnabled(store)) {
    return undefined;
  }
  // No pagesize: Steve counts the summary over the page it answers.
  const query = `summary=${ encodeURIComponent(labelSummaryField(CHANNEL_LABEL)) }&summaryonly=true`;
  const answer = await store.dispatch('management/request', { url: `/v1/${ TYPE.VERSION }s/${ encodeURIComponent(namespace) }?${ query }` });

  return labelValueCounts(answer, CHANNEL_LABEL);
}

/** The versions of these names in a namespace (pools' pins), a few dozen names per request. */
export async function versionsByName(store: ShellStore, namespace: string, names: readonly string[]): Promise<unknown[]> {
  return await findByNames(store, TYPE.VERSION, namespace, [...new Set(names.filter(Boolean))].map((value) => ({ value, exact: true })));
}

/** Objects of a type in a namespace whose name is (or, not `exact`, contains) one of `names`, a few dozen per request. */
export async function findByNames(store: ShellStore, type: string, namespace: string, names: readonly { value: string; exact: boolean }[]): Promise<unknown[]> {
  const batches: { value: string; exact: boolean }[][] = [];

  for (let i = 0; i < names.length; i += NAMES_PER_REQUEST) {
    batches.push(names.slice(i, i + NAMES_PER_REQUEST));
  }
  const pages = await Promise.all(batches.map((batch) => findPage(store, new FilterArgs({
    filters: [
      inNamespace(namespace),
      PaginationParamFilter.createMultipleFields(batch.map(({ value, exact }) => new PaginationFilterField({
        field: 'metadata.name', value, exact
      }))) as PaginationParamFilter,
    ],
  }), undefined, type)));

  return pages.flatMap((page) => toPage(page).items);
}
