import { creatableNamespaces, mustRelist } from '../domain';
import type { KubeObject } from '../domain';
import type { ShellStore } from '../types/shell-store';

// Resource access through the shell's management store (Steve on the local cluster).
// Pages get plain data out and hand plain objects in; the domain decides what to write.

export type { ShellStore };

interface Schema {
  resourceMethods?: string[];
  collectionMethods?: string[];
}


/** A refused write, with the Kubernetes reason (Conflict, Forbidden, Invalid…) and HTTP status. */
export class WriteError extends Error {
  constructor(message: string, public readonly status: number, public readonly reason: string, public readonly code = '') {
    super(message);
    this.name = 'WriteError';
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /** No answer within the time given (axios' ECONNABORTED / ETIMEDOUT). */
  get isTimeout(): boolean {
    return this.status === 0 && (this.code === 'ECONNABORTED' || this.code === 'ETIMEDOUT');
  }

  /** The person cancelled: axios' ERR_CANCELED. */
  get isCancelled(): boolean {
    return this.code === 'ERR_CANCELED' || this.reason === 'CanceledError';
  }

  get isConflict(): boolean {
    return this.status === 409;
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }
}

/**
 * Every object of a type, from the shell's cache when it is live; re-listed when the shell holds
 * the list but no longer watches it (domain/live-list.ts).
 */
export async function findAll<T = KubeObject>(store: ShellStore, type: string, opt: Record<string, unknown> = {}): Promise<T[]> {
  const haveAll = store.getters['management/haveAll'] as ((type: string) => boolean) | undefined;
  const watchesOfType = store.getters['management/watchesOfType'] as ((type: string) => unknown[]) | undefined;
  const force = opt.force === true || mustRelist(!!haveAll?.(type), !!watchesOfType?.(type)?.length);

  // A copy each time: the shell's findAll writes into its options (url, load…), so one object
  // shared by two calls would send the second to the first one's URL.
  return await store.dispatch('management/findAll', { type, opt: force ? { ...opt, force: true } : { ...opt } }) as T[];
}

/**
 * Every object of a type, read for this package alone: the shell's store keeps one list per type,
 * shared with other extensions, and is not replaced. `exclude` names fields Steve leaves out
 * (rancher/steve pkg/resources/common/formatter.go, excludeFields; in Steve since 2022, every
 * Rancher this package supports). Plain objects, not the shell's models.
 */
export async function listOwn<T = KubeObject>(store: ShellStore, type: string, exclude: readonly string[]): Promise<T[]> {
  const params = ['pagesize=100000', ...['metadata.managedFields', ...exclude].map((field) => `exclude=${ encodeURIComponent(field) }`)];
  const res = await store.dispatch('management/request', { url: `/v1/${ type }s?${ params.join('&') }` }) as { data?: unknown[] } | undefined;

  return (Array.isArray(res?.data) ? res.data : []) as T[];
}

/**
 * Calls `reload` each time the shell's websocket has reconnected and re-watched (its `opened`
 * action after a drop). Returns the function that stops listening.
 */
export function onReconnect(store: ShellStore, reload: () => void): () => void {
  if (!store.subscribeAction) {
    return () => undefined;
  }

  return store.subscribeAction({
    after: (action) => {
      const socket = (action.payload as { currentTarget?: { hasReconnected?: boolean } } | undefined)?.currentTarget;

      if (action.type === 'management/opened' && socket?.hasReconnected) {
        reload();
      }
    },
  });
}

/** One object by id (`namespace/name`); `opt.force` reads it from the server instead of the store's cache. */
export async function findOne<T = KubeObject>(store: ShellStore, type: string, id: string, opt: Record<string, unknown> = {}): Promise<T> {
  return await store.dispatch('management/find', {
    type, id, opt
  }) as T;
}

function schemaFor(store: ShellStore, type: string): Schema | undefined {
  const getter = store.getters['management/schemaFor'] as ((type: string) => Schema | undefined) | undefined;

  return getter?.(type);
}

export function canCreate(store: ShellStore, type: string): boolean {
  return !!schemaFor(store, type)?.collectionMethods?.some((m) => m.toUpperCase() === 'POST');
}

/**
 * The schema's PUT: this user may update `type` in *some* namespace (domain README rule "Rights"), only
 * a hint for offering an editor (the changelog sources); a pool's write is decided by its links.
 */
export function canUpdate(store: ShellStore, type: string): boolean {
  return !!schemaFor(store, type)?.resourceMethods?.some((m) => m.toUpperCase() === 'PUT');
}

export function canDelete(store: ShellStore, type: string): boolean {
  return !!schemaFor(store, type)?.resourceMethods?.some((m) => m.toUpperCase() === 'DELETE');
}

/**
 * The namespaces where this user may create `type`: Steve's `checkPermissions` on the namespace
 * list (rancher/steve pkg/resources/common/formatter.go). Undefined when the server did not say.
 */
export async function creatableNamespacesOf(store: ShellStore, type: string): Promise<string[] | undefined> {
  try {
    const res = await store.dispatch('management/request', { url: `/v1/namespaces?checkPermissions=${ encodeURIComponent(type) }&exclude=metadata.managedFields` }) as { data?: unknown[] } | undefined;

    return Array.isArray(res?.data) ? creatableNamespaces(res.data, type) : undefined;
  } catch {
    return undefined;
  }
}


function toWriteError(err: unknown): WriteError {
  const e = (err || {}) as { _status?: number; status?: number; message?: string; reason?: string; code?: string; name?: string };
  const status = e._status ?? e.status ?? 0;
  const code = typeof e.code === 'string' ? e.code : '';

  return new WriteError(e.message || String(err), typeof status === 'number' ? status : 0, e.reason || (e.name === 'CanceledError' ? 'CanceledError' : code), code);
}

export interface WriteOptions {
  /** Give up waiting for the answer after this long (the server may still apply the write). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Creates or replaces one object. An update carries the object's metadata.resourceVersion, so a
 * change made meanwhile by anyone else is refused by the server (409) instead of being overwritten.
 * A 401 is returned to the caller instead of logging out at once (the shell's `redirectUnauthorized`),
 * so the caller can keep what the person typed before the login page replaces it.
 */
export async function writeObject(store: ShellStore, type: string, object: KubeObject, mode: 'create' | 'update', options: WriteOptions = {}): Promise<KubeObject> {
  const { namespace, name } = (object.metadata || {}) as { namespace?: string; name?: string };
  // Cluster-scoped objects (settings) have no namespace in their path.
  const url = mode === 'create' ? `/v1/${ type }s` : `/v1/${ type }s/${ namespace ? `${ namespace }/` : '' }${ name }`;

  try {
    return await store.dispatch('management/request', {
      url,
      method:               mode === 'create' ? 'POST' : 'PUT',
      data:                 object,
      redirectUnauthorized: false,
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }) as KubeObject;
  } catch (err) {
    throw toWriteError(err);
  }
}

/** The message of an Error, or of the plain error object the shell's store rejects with. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    return e.message;
  }
  const message = (e as { message?: unknown } | undefined)?.message;

  return typeof message === 'string' ? message : String(e);
}

/** Who is approving: the logged-in user's name, else their principal or id ('' when unknown). */
export function approverOf(store: ShellStore): string {
  const user = store.getters['auth/user'] as { username?: unknown; id?: unknown } | null | undefined;
  const principal = store.getters['auth/principalId'];

  for (const candidate of [user?.username, principal, user?.id]) {
    if (typeof candidate === 'string' && candidate.trim()) {
      return candidate.trim();
    }
  }

  return '';
}
