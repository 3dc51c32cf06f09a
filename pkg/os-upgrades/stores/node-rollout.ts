import { defineStore } from 'pinia';
import { markRaw, toRaw } from 'vue';
import {
  bundleDelivered, ClusterInput, ClusterReading, failedJobs, FleetCluster, HiddenKind, FleetGroup, bundleOwners, isBundleMissing, nodeRolloutTable, NodeRolloutRow, NodeRolloutSummary, OSVersion, poolBundle, rolloutTarget,
  poolId, summarizeNodeRollout, targetedClusters, targetsOf, toFleetCluster, toFleetGroup
  , CLUSTER_ID_LABEL
} from '../domain';
import {
  DOWNSTREAM_TYPES, DownstreamError, DownstreamEvent, readDownstream, readJobLog, SocketFactory, watchDownstream
} from '../api/downstream';
import { errorMessage, findAll, ShellStore } from '../api/resources';
import { bundlesByNameAvailable, PoolBundlesQuery } from '../api/bundle-queries';
import { TYPE } from '../config';
import { ObjectMemo } from './revision-memo';

export type { ShellStore };

const RETRY_MS = 5000;

/** How long a page's clusters stay watched after it is left, for a visit back (`release`). */
export const REVISIT_LINGER_MS = 60_000;

// One of each, so a summary made from them is kept (summaries compare readings by identity).
const LOADING: ClusterReading = Object.freeze({ kind: 'loading' });
const UNMAPPED: ClusterReading = Object.freeze({ kind: 'unmapped' });

// Per pool, between visits: the clusters it targets, and its rollout summary (each row of the pools list).
const targetNames = new ObjectMemo<string[]>();
const summaries = new ObjectMemo<NodeRolloutSummary>();

type Objects = Record<'nodes' | 'jobs' | 'plans', Map<string, unknown>>;

interface Follow {
  objects?: Objects;
  /** What the person may not read in this cluster. */
  hidden?: readonly HiddenKind[];
  /**
   * Failed job name → the end of its pod's log, kept after the Job is deleted (the Plan's last
   * failure names it); `asked` holds the jobs (name and uid) whose log is being read or was read.
   */
  logs?: Map<string, string>;
  asked?: Set<string>;
  stop?: () => void;
  retry?: ReturnType<typeof setTimeout>;
}

const KEY_OF: Record<string, keyof Objects> = {
  [DOWNSTREAM_TYPES.NODE]: 'nodes',
  [DOWNSTREAM_TYPES.JOB]:  'jobs',
  [DOWNSTREAM_TYPES.PLAN]: 'plans',
};

function idOf(obj: unknown): string {
  const metadata = (obj as { metadata?: { name?: string; namespace?: string } } | undefined)?.metadata;

  return `${ metadata?.namespace ?? '' }/${ metadata?.name ?? '' }`;
}

/** The pools list's Bundles query, the pools it reads for and its last read; a timer once the page is left. */
interface BundleFollow {
  query?: PoolBundlesQuery;
  key?: string;
  pools?: unknown[];
  reads?: number;
  linger?: ReturnType<typeof setTimeout>;
}

function byId(list: unknown[]): Map<string, unknown> {
  return new Map(list.map((obj) => [idOf(obj), obj]));
}

/**
 * The node state of downstream clusters, each read once and then followed by its own watch
 * (api/downstream.ts), and the Fleet clusters, groups and bundles of the management cluster
 * (the shell's store keeps those current). Pages ask for the clusters they show with `follow`.
 */
export const useNodeRolloutStore = defineStore('osUpgrades/nodeRollout', {
  state: () => ({
    /** By Rancher cluster id. */
    readings:       {} as Record<string, ClusterReading>,
    fleetClusters:  [] as unknown[],
    fleetGroups:    [] as unknown[],
    /** Every Bundle (the shell's live list), once `bundlesRead`. */
    bundles:        [] as unknown[],
    bundlesRead:    false,
    /** The pools list's: the Bundles of the pools in view (`followBundles`), and those pools' keys. */
    inViewBundles:  { pools: new Set<string>(), bundles: [] as unknown[] },
    fleetError:     '',
    /** For a page that shows one pool: the shell store's live lists of pools and versions. */
    pools:          [] as unknown[],
    versionObjects: [] as unknown[],
    poolsError:     '',
    /** Not reactive: sockets and timers by cluster id, and the clusters each page or panel asked for. */
    follows:        markRaw(new Map<string, Follow>()),
    owners:         markRaw(new Map<string, Set<string>>()),
    /** Owners gone whose clusters stay watched a while (`release` with `lingerMs`): their timers. */
    lingering:      markRaw(new Map<string, ReturnType<typeof setTimeout>>()),
    bundleFollow:   markRaw({} as BundleFollow),
    socketFactory:  undefined as SocketFactory | undefined,
    shell:          undefined as ShellStore | undefined,
  }),

  getters: {
    clusters(): FleetCluster[] {
      return this.fleetClusters.map(toFleetCluster);
    },

    groups(): FleetGroup[] {
      return this.fleetGroups.map(toFleetGroup);
    },

    /** The pools some Fleet bundle belongs to (each row asks). */
    bundleOwners(): Set<string> {
      return bundleOwners(this.bundles);
    },

    inViewBundleOwners(): Set<string> {
      return bundleOwners(this.inViewBundles.bundles);
    },

    /** Rancher cluster id by `namespace/name` of the Fleet cluster. */
    clusterIds(): Record<string, string> {
      const out: Record<string, string> = {};

      for (const obj of this.fleetClusters) {
        const cluster = toFleetCluster(obj);

        out[`${ cluster.namespace }/${ cluster.name }`] = cluster.labels[CLUSTER_ID_LABEL] ?? '';
      }

      return out;
    },
  },

  actions: {
    /**
     * Loads the Fleet clusters, groups and bundles through the shell's store (which watches them).
     * With `everyBundle: false` the Bundles are left to `followBundles` where the shell pages them.
     */
    async loadFleet(shell: ShellStore, { everyBundle = true } = {}): Promise<void> {
      this.shell = shell;
      const bundles = everyBundle || !bundlesByNameAvailable(shell);

      try {
        const [clusters, groups, all] = await Promise.all([
          findAll(shell, TYPE.FLEET_CLUSTER), findAll(shell, TYPE.FLEET_GROUP), bundles ? findAll(shell, TYPE.FLEET_BUNDLE) : undefined,
        ]);

        [this.fleetClusters, this.fleetGroups] = [clusters, groups];
        if (all) {
          [this.bundles, this.bundlesRead] = [all, true];
        }
        this.fleetError = '';
      } catch (e) {
        this.fleetError = errorMessage(e);
      }
    },

    /** The pools and versions (live lists of the shell's store), with the Fleet objects; `poolsError` says why they could not be read. */
    async loadPools(shell: ShellStore): Promise<void> {
      try {
        [this.pools, this.versionObjects] = await Promise.all([findAll(shell, TYPE.IMAGE), findAll(shell, TYPE.VERSION), this.loadFleet(shell)]);
        this.poolsError = '';
      } catch (e) {
        this.poolsError = errorMessage(e);
      }
    },

    /** The targeted clusters of a pool, each with what could be read of it. */
    clusterInputs(pool: unknown): ClusterInput[] {
      const namespace = String((pool as { metadata?: { namespace?: string } })?.metadata?.namespace ?? '');
      const { clusters, groups } = this;
      const names = targetNames.get(pool, [clusters, groups], (obj) => targetedClusters(namespace, targetsOf(obj), clusters, groups));

      return names.map((name) => {
        const clusterId = this.clusterIds[`${ namespace }/${ name }`] ?? '';
        const reading: ClusterReading = clusterId ? this.readings[clusterId] ?? LOADING : UNMAPPED;

        return {
          cluster: name, clusterId, reading
        };
      });
    },

    /** Cluster ids a set of pools needs. */
    clusterIdsOf(pools: readonly unknown[]): string[] {
      return [...new Set(pools.flatMap((pool) => this.clusterInputs(pool).map((c) => c.clusterId).filter(Boolean)))].sort();
    },

    summary(pool: unknown, versions: readonly OSVersion[]): NodeRolloutSummary {
      const clusters = this.clusterInputs(pool);
      const owners = this.bundlesFor(pool)?.owners;
      // The pin's image is what the summary reads of the versions (their list is the page's own).
      const target = rolloutTarget(toRaw(pool), versions);

      return summaries.get(pool, [target.image, owners, ...clusters.flatMap((c) => [c.cluster, c.clusterId, c.reading])], (obj) => summarizeNodeRollout({
        target, clusters, bundleMissing: !!owners && isBundleMissing(obj, owners)
      }));
    },

    /** The Bundles read that hold this pool's, and the pools owning one of them (undefined: none read yet). */
    bundlesFor(pool: unknown): { bundles: unknown[]; owners: Set<string> } | undefined {
      if (this.inViewBundles.pools.has(poolId(pool))) {
        return { bundles: this.inViewBundles.bundles, owners: this.inViewBundleOwners };
      }

      return this.bundlesRead ? { bundles: this.bundles, owners: this.bundleOwners } : undefined;
    },

    /** Whether the pool's Fleet Bundle shows its pin's Plan delivered (domain bundleDelivered). */
    delivered(pool: unknown, versions: readonly OSVersion[]): boolean {
      // The bundles as the store keeps them (reactive): Fleet's status written into one shows at once.
      return bundleDelivered(poolBundle(toRaw(pool), this.bundlesFor(pool)?.bundles ?? []), rolloutTarget(toRaw(pool), versions).image);
    },

    /**
     * The pools list's Bundles: those of the pools in view, read by name and again at each change
     * (every Bundle, as `loadFleet` reads them, where the shell does not page Bundles).
     */
    async followBundles(shell: ShellStore, pools: readonly unknown[]): Promise<void> {
      const follow = this.bundleFollow;
      const key = pools.map(poolId).sort().join('\n');

      clearTimeout(follow.linger);
      if (!bundlesByNameAvailable(shell)) {
        return this.bundlesRead ? undefined : this.loadFleet(shell);
      }
      // No pool in view (the page's first render, before its pools are read): what was read for the
      // last pools shown stays, so a visit back to the same page reads nothing again.
      if (!pools.length || (follow.query && key === follow.key)) {
        return;
      }
      follow.key = key;
      follow.pools = pools.map((pool) => toRaw(pool));
      follow.query ??= new PoolBundlesQuery(shell, () => this.readBundlesInView());
      await this.readBundlesInView();
    },

    async readBundlesInView(): Promise<void> {
      const follow = this.bundleFollow;
      const { pools, query } = follow;
      const read = (follow.reads = (follow.reads ?? 0) + 1);

      try {
        const bundles = pools?.length && query ? await query.request(pools) : [];

        // Only the newest read of the page still shown lands (a new set of pools reads again).
        if (this.bundleFollow === follow && follow.reads === read) {
          this.inViewBundles = { pools: new Set((pools ?? []).map(poolId)), bundles: markRaw(bundles) };
        }
      } catch (e) {
        this.fleetError = errorMessage(e);
      }
    },

    /** The pools list is left: its Bundles stay followed `lingerMs`, for a visit back. */
    releaseBundles(lingerMs = 0) {
      const follow = this.bundleFollow;
      const stop = () => {
        follow.query?.stop();
        this.bundleFollow = markRaw({});
        this.inViewBundles = { pools: new Set(), bundles: [] };
      };

      clearTimeout(follow.linger);
      if (lingerMs > 0) {
        follow.linger = setTimeout(stop, lingerMs);
      } else {
        stop();
      }
    },

    nodeRows(pool: unknown, versions: readonly OSVersion[]): NodeRolloutRow[] {
      return nodeRolloutTable(rolloutTarget(pool, versions), this.clusterInputs(pool));
    },

    /**
     * Reads and watches these clusters for `owner` (a page or a panel; each may ask for its own
     * set). A cluster no owner asks for any more is let go.
     */
    follow(owner: string, clusterIds: readonly string[]) {
      clearTimeout(this.lingering.get(owner));
      this.lingering.delete(owner);
      this.owners.set(owner, new Set(clusterIds));
      this.reconcile();
    },

    /**
     * The owner no longer needs its clusters. With `lingerMs`, they stay watched that long: a page
     * visited again soon (the pools list, after a pool's page) shows them without reading them again.
     */
    release(owner: string, lingerMs = 0) {
      clearTimeout(this.lingering.get(owner));
      this.lingering.delete(owner);
      if (lingerMs > 0 && this.owners.has(owner)) {
        this.lingering.set(owner, setTimeout(() => this.release(owner), lingerMs));

        return;
      }
      this.owners.delete(owner);
      this.reconcile();
    },

    reconcile() {
      const wanted = new Set([...this.owners.values()].flatMap((ids) => [...ids]));

      for (const id of [...this.follows.keys()]) {
        if (!wanted.has(id)) {
          this.unfollowOne(id);
        }
      }
      for (const id of wanted) {
        if (!this.follows.has(id)) {
          this.follows.set(id, {});
          this.start(id);
        }
      }
    },

    /** Closes every socket and forgets what was read (a logout, or a login by another person). */
    reset() {
      this.lingering.forEach((timer) => clearTimeout(timer));
      this.lingering.clear();
      this.owners.clear();
      this.reconcile();
      this.releaseBundles();
      this.$patch({
        readings: {}, fleetClusters: [], fleetGroups: [], bundles: [], bundlesRead: false, fleetError: '', pools: [], versionObjects: [], poolsError: ''
      });
      this.shell = undefined;
    },

    unfollowOne(id: string) {
      const follow = this.follows.get(id);

      follow?.stop?.();
      clearTimeout(follow?.retry);
      this.follows.delete(id);
      delete this.readings[id];
    },

    async start(id: string): Promise<void> {
      const follow = this.follows.get(id);

      if (!follow || !this.shell) {
        return;
      }
      try {
        const read = await readDownstream(this.shell, id);

        if (this.follows.get(id) !== follow) {
          return;
        }
        follow.objects = {
          nodes: byId(read.nodes), jobs: byId(read.jobs), plans: byId(read.plans)
        };
        follow.hidden = read.hidden;
        this.publish(id, follow);
        follow.stop = watchDownstream(id, read.revisions, {
          onEvent: (event) => this.apply(id, follow, event),
          onLost:  () => this.retry(id, follow),
        }, this.socketFactory, read.hidden);
      } catch (e) {
        if (this.follows.get(id) !== follow) {
          return;
        }
        const error = e instanceof DownstreamError ? e : new DownstreamError(String(e), 0);

        this.readings[id] = { kind: error.forbidden ? 'forbidden' : 'unreachable', message: error.message };
        // No rights stays so until the person's roles change; a disconnected cluster may come back.
        if (!error.forbidden) {
          this.retry(id, follow);
        }
      }
    },

    retry(id: string, follow: Follow) {
      if (this.follows.get(id) !== follow) {
        return;
      }
      follow.stop?.();
      follow.stop = undefined;
      clearTimeout(follow.retry);
      follow.retry = setTimeout(() => {
        if (this.follows.get(id) === follow) {
          this.follows.set(id, {});
          this.start(id);
        }
      }, RETRY_MS);
    },

    apply(id: string, follow: Follow, event: DownstreamEvent) {
      if (this.follows.get(id) !== follow || !follow.objects) {
        return;
      }
      const map = follow.objects[KEY_OF[event.type]];

      if (event.action === 'remove') {
        map.delete(idOf(event.object));
      } else {
        map.set(idOf(event.object), event.object);
      }
      this.publish(id, follow);
    },

    publish(id: string, follow: Follow) {
      const objects = follow.objects as Objects;

      this.readings[id] = {
        kind:  'read',
        nodes: markRaw([...objects.nodes.values()]),
        jobs:  markRaw([...objects.jobs.values()]),
        plans: markRaw([...objects.plans.values()]),
        logs:  markRaw(Object.fromEntries(follow.logs ?? [])),
        ...(follow.hidden?.length ? { hidden: follow.hidden } : {}),
      };
      this.readFailureLogs(id, follow);
    },

    /** Reads, once per failed job, its pod's log: the Job itself only says it hit its backoff limit. */
    readFailureLogs(id: string, follow: Follow) {
      const shell = this.shell;

      if (!shell || !follow.objects) {
        return;
      }
      follow.asked = follow.asked ?? new Set();
      follow.logs = follow.logs ?? new Map();
      for (const { name: job, uid } of failedJobs([...follow.objects.jobs.values()])) {
        if (follow.asked.has(`${ job }/${ uid }`)) {
          continue;
        }
        follow.asked.add(`${ job }/${ uid }`);
        readJobLog(shell, id, job).then((log) => {
          if (this.follows.get(id) === follow && log) {
            follow.logs?.set(job, log);
            this.publish(id, follow);
          }
        }, () => {
          // The log could not be read (no rights on pods/log, cluster gone): the Job's own message stays.
        });
      }
    },
  },
});
