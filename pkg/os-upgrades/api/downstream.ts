// A downstream cluster's Nodes, upgrade Plans and their Jobs, read through Rancher as the
// dashboard reads any downstream cluster: Steve of that cluster at /k8s/clusters/<cluster id>/v1
// (rancher/dashboard shell-pkg-v3.0.13: `management/request` with such a URL, as
// shell/models/harvester… and the cluster store's baseUrl do), and watched on that cluster's
// /k8s/clusters/<cluster id>/v1/subscribe with the messages of shell/plugins/steve/subscribe.js
// (`{ resourceType, namespace?, resourceVersion }` → resource.create / change / remove / error / stop).
// The shell's own cluster store holds one cluster at a time, so each cluster gets its own socket here.
import { HiddenKind, newestPodName } from '../domain';
import type { ShellStore } from './resources';

export const SUC_NAMESPACE = 'cattle-system';

export const DOWNSTREAM_TYPES = {
  NODE: 'node',
  JOB:  'batch.job',
  PLAN: 'upgrade.cattle.io.plan',
} as const;

export type DownstreamType = typeof DOWNSTREAM_TYPES[keyof typeof DOWNSTREAM_TYPES];

export interface DownstreamObjects {
  nodes: unknown[];
  jobs: unknown[];
  plans: unknown[];
  /**
   * Each list's revision, to watch that type from. Steve's SQL cache resumes a watch only from a
   * resourceVersion its event log of that type holds (rancher/steve pkg/sqlcache/informer/
   * listoption_indexer.go `Watch`: Rewind, else ErrTooOld), which is what that type's list gave.
   */
  revisions: Partial<Record<DownstreamType, string>>;
  /** What the person may not read there: Plans, and Jobs (both live in cattle-system). */
  hidden: HiddenKind[];
}

/** Why a cluster could not be read: no rights there (403/401), or anything else (disconnected, 5xx, network). */
export class DownstreamError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'DownstreamError';
  }

  get forbidden(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** Rancher's proxy to a downstream cluster: its Steve at `/v1`, its kube-apiserver at `/api`, `/apis`. */
function clusterPath(clusterId: string): string {
  return `/k8s/clusters/${ encodeURIComponent(clusterId) }`;
}

export function downstreamBase(clusterId: string): string {
  return `${ clusterPath(clusterId) }/v1`;
}

function collectionUrl(clusterId: string, type: DownstreamType): string {
  return type === DOWNSTREAM_TYPES.NODE ? `${ downstreamBase(clusterId) }/${ type }s` : `${ downstreamBase(clusterId) }/${ type }s/${ SUC_NAMESPACE }`;
}

function toDownstreamError(err: unknown): DownstreamError {
  const e = (err || {}) as { _status?: number; status?: number; message?: string; data?: unknown };
  const status = typeof e._status === 'number' ? e._status : typeof e.status === 'number' ? e.status : 0;
  // Rancher's cluster proxy answers a plain-text body ("cluster agent disconnected"); the shell's request wraps it as `data`.
  const text = typeof e.message === 'string' ? e.message : typeof e.data === 'string' ? e.data.trim().slice(0, 200) : '';

  return new DownstreamError(text || (status ? `HTTP ${ status }` : String(err)), status);
}

interface Collection {
  data: unknown[];
  revision: string;
  /** Steve answered 404: the person may list this type nowhere in the cluster (it is not in their schemas). */
  unlisted?: boolean;
}

async function readCollection(store: ShellStore, clusterId: string, type: DownstreamType): Promise<Collection> {
  try {
    const answer = await store.dispatch('management/request', { url: collectionUrl(clusterId, type) }) as { data?: unknown[]; revision?: string } | undefined;

    return { data: Array.isArray(answer?.data) ? answer.data : [], revision: String(answer?.revision ?? '') };
  } catch (err) {
    const error = toDownstreamError(err);

    if (error.status === 404 && type !== DOWNSTREAM_TYPES.NODE) {
      return {
        data: [], revision: '', unlisted: true
      };
    }
    throw error;
  }
}

/**
 * Whether the person sees the namespace cattle-system. Steve answers a list in a namespace the
 * person may not list with an empty 200 (rancher/steve pkg/stores/sqlpartition/partitioner.go:
 * no partition for it), so an empty Job list says nothing; the namespace itself is then refused,
 * 403 (recorded on real Steve: tests/conformance/recordings/downstream-readers.json), or 404.
 */
async function seesSucNamespace(store: ShellStore, clusterId: string): Promise<boolean> {
  try {
    await store.dispatch('management/request', { url: `${ downstreamBase(clusterId) }/namespaces/${ SUC_NAMESPACE }` });

    return true;
  } catch (err) {
    const error = toDownstreamError(err);

    if (error.status === 404 || error.forbidden) {
      return false;
    }
    throw error;
  }
}

/** Reads what a cluster shows of its upgrades. Rejects with a DownstreamError. */
export async function readDownstream(store: ShellStore, clusterId: string): Promise<DownstreamObjects> {
  const [nodes, jobs, plans, sees] = await Promise.all([
    readCollection(store, clusterId, DOWNSTREAM_TYPES.NODE),
    readCollection(store, clusterId, DOWNSTREAM_TYPES.JOB),
    readCollection(store, clusterId, DOWNSTREAM_TYPES.PLAN),
    seesSucNamespace(store, clusterId),
  ]);
  const hidden: HiddenKind[] = [
    ...(plans.unlisted || !sees ? ['plans' as const] : []),
    ...(jobs.unlisted || !sees ? ['jobs' as const] : []),
  ];

  return {
    nodes:     nodes.data,
    jobs:      jobs.data,
    plans:     plans.data,
    revisions: {
      [DOWNSTREAM_TYPES.NODE]: nodes.revision, [DOWNSTREAM_TYPES.JOB]: jobs.revision, [DOWNSTREAM_TYPES.PLAN]: plans.revision
    },
    hidden
  };
}

/**
 * The end of the upgrade container's log of a Job's newest pod (its last attempt), as the
 * dashboard reads a pod's log: the cluster's kube API through Rancher, the pod's `view` link +
 * `/log` (shell-pkg-v3.0.13 shell/components/Window/ContainerLogs.vue, its download). Pods carry
 * the Job controller's label `job-name`; only those of this Job are taken, whatever Steve answers.
 * Resolves '' when the job has no pod any more.
 */
export async function readJobLog(store: ShellStore, clusterId: string, jobName: string, tailLines = 40): Promise<string> {
  try {
    // Steve's own filter: with the SQL cache (downstream agents since Rancher 2.15) Steve ignores
    // labelSelector (rancher/steve pkg/stores/sqlpartition/listprocessor/processor.go ParseQuery).
    const filter = encodeURIComponent(`metadata.labels[job-name]=${ jobName }`);
    const pods = await store.dispatch('management/request', { url: `${ downstreamBase(clusterId) }/pods/${ SUC_NAMESPACE }?filter=${ filter }` }) as { data?: unknown[] } | undefined;
    const pod = newestPodName(Array.isArray(pods?.data) ? pods.data : [], jobName);

    if (!pod) {
      return '';
    }
    const log = await store.dispatch('management/request', {
      url:          `${ clusterPath(clusterId) }/api/v1/namespaces/${ SUC_NAMESPACE }/pods/${ encodeURIComponent(pod) }/log?container=upgrade&tailLines=${ tailLines }`,
      responseType: 'text',
    }) as { data?: unknown } | undefined;

    return typeof log?.data === 'string' ? log.data : '';
  } catch (err) {
    throw toDownstreamError(err);
  }
}

export interface DownstreamEvent {
  type: DownstreamType;
  action: 'create' | 'change' | 'remove';
  object: unknown;
}

export interface DownstreamWatchHandlers {
  onEvent(event: DownstreamEvent): void;
  /** The socket closed or the server ended a watch: the caller reads again and watches anew. */
  onLost(): void;
}

export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export type SocketFactory = (url: string) => SocketLike;

function browserSocket(url: string): SocketLike {
  const origin = window.location;
  const scheme = origin.protocol === 'https:' ? 'wss:' : 'ws:';

  return new WebSocket(`${ scheme }//${ origin.host }${ url }`) as unknown as SocketLike;
}

const WATCHED: { type: DownstreamType; namespace?: string }[] = [
  { type: DOWNSTREAM_TYPES.NODE },
  { type: DOWNSTREAM_TYPES.JOB, namespace: SUC_NAMESPACE },
  { type: DOWNSTREAM_TYPES.PLAN, namespace: SUC_NAMESPACE },
];

const KIND_OF: Partial<Record<DownstreamType, HiddenKind>> = { [DOWNSTREAM_TYPES.JOB]: 'jobs', [DOWNSTREAM_TYPES.PLAN]: 'plans' };

/** Watches a cluster's Nodes, and Jobs and Plans in cattle-system (those not hidden), each from its list's revision. Returns the stop function. */
export function watchDownstream(clusterId: string, revisions: DownstreamObjects['revisions'], handlers: DownstreamWatchHandlers, socketFactory: SocketFactory = browserSocket, hidden: readonly HiddenKind[] = []): () => void {
  const watched = WATCHED.filter((w) => !hidden.some((kind) => KIND_OF[w.type] === kind));
  let stopped = false;
  const socket = socketFactory(`${ downstreamBase(clusterId) }/subscribe`);
  const lost = () => {
    if (!stopped) {
      stopped = true;
      socket.close();
      handlers.onLost();
    }
  };

  socket.onopen = () => {
    for (const watch of watched) {
      const revision = revisions[watch.type];

      socket.send(JSON.stringify({
        resourceType: watch.type, ...(watch.namespace ? { namespace: watch.namespace } : {}), ...(revision ? { resourceVersion: revision } : {})
      }));
    }
  };
  socket.onmessage = (message) => {
    let parsed: { name?: string; resourceType?: string; data?: unknown };

    try {
      parsed = JSON.parse(String(message.data));
    } catch {
      return;
    }
    const type = watched.find((w) => w.type === parsed.resourceType)?.type;
    const action = /^resource\.(create|change|remove)$/.exec(parsed.name ?? '')?.[1] as DownstreamEvent['action'] | undefined;

    if (type && action) {
      handlers.onEvent({
        type, action, object: parsed.data
      });
    } else if (type && (parsed.name === 'resource.error' || parsed.name === 'resource.stop')) {
      lost();
    }
  };
  socket.onclose = lost;

  return () => {
    stopped = true;
    socket.close();
  };
}
