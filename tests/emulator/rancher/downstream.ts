// The downstream clusters as Rancher proxies them: /k8s/clusters/<cluster id>/v1/… is Steve of that
// cluster (rancher/rancher pkg/api/steve/proxy; the dashboard reads a downstream cluster there,
// rancher/dashboard shell-pkg-v3.0.13 shell/plugins/steve, `management/request` with that URL, and
// watches it on /k8s/clusters/<id>/v1/subscribe). Each emulated Fleet cluster serves, read-only,
// what its system-upgrade-controller and kubelets publish, derived from nodes.ts and suc.ts so it
// always matches GET /__emulator/nodes:
// - upgrade.cattle.io/v1 Plans in cattle-system (system-upgrade-controller
//   pkg/apis/upgrade.cattle.io/v1/types.go: status.latestVersion, latestHash, applying, the
//   conditions Validated, LatestResolved, Complete; pkg/upgrade/handle_upgrade.go sets them);
// - batch/v1 Jobs, one per node being applied (pkg/upgrade/job/job.go New: the name
//   apply-<plan>-on-<node>-with-<hash>, the labels upgrade.cattle.io/controller, /node, /plan,
//   /version and plan.upgrade.cattle.io/<plan>); a failed one has FailureTarget and Failed, a
//   finished one SuccessCriteriaMet and Complete (Kubernetes' Job controller, as recorded in
//   tests/conformance/recordings/downstream-rollout.json) and is kept until its TTL (suc.ts);
// - core/v1 Pods of those Jobs (Kubernetes' Job controller, pkg/controller/job: labels job-name and
//   batch.kubernetes.io/job-name, one pod per attempt, backoffLimit + 1 attempts before Failed) and
//   their logs at /k8s/clusters/<id>/api/v1/namespaces/<ns>/pods/<pod>/log (Rancher proxies /api to
//   the cluster's kube-apiserver; the dashboard reads logs there, shell/components/Window/ContainerLogs.vue):
//   the `set -x` trace of rancher/elemental framework/files/usr/sbin/suc-upgrade and what it printed;
// - Nodes with the label plan.upgrade.cattle.io/<plan> = the hash a job finished with
//   (handle_batch.go), spec.unschedulable while cordoned (job.go's cordon/drain init containers,
//   uncordoned when a job completes, never when one fails or is deleted), status.nodeInfo.osImage and a Ready condition that is
//   Unknown while the host reboots (Kubernetes' node lifecycle controller).
// A disconnected cluster (POST /__emulator/clusters/connection) answers every request with 500 and
// the text "cluster agent disconnected", as rancher/rancher pkg/clusterrouter/proxy/proxy.go's
// errorResponder writes the dialer's error when the cluster agent's tunnel is gone.
// A Fleet cluster's Rancher id is its label management.cattle.io/cluster-name (rancher/rancher
// pkg/controllers/provisioningv2/fleetcluster/fleetcluster.go sets it to the management cluster's name).

import { createHash } from 'crypto';
import { IncomingMessage } from 'http';
import { Duplex } from 'stream';
import { ApiError, forbidden, unauthorized } from '../kube/errors';
import { RequestContext, sendJson } from '../core/http';
import { JsonObject, asObject, isObject } from '../core/json';
import { matchesLabels, parseLabelSelector, selectorFromObject } from '../kube/labels';
import { filterPredicate } from '../steve/steve-query';
import { EmulatedNode, NodeRegistry, prettyName } from '../suc/nodes';
import { ObjectApi } from '../kube/objects';
import { ResourceType, TypeRegistry } from '../kube/resource-types';
import { KubeObject, ObjectStore } from '../kube/store';
import { steveId, toSteve } from '../steve/steve-format';
import {
  FailureReason, LOCK_FAILURE_MESSAGE, PLAN_LABEL_PREFIX, PlanRunView, SystemUpgradeControllers
} from '../suc/suc';
import {
  Actor, User, can, canAnywhere, downstreamActor
} from './users';
import { WatchHub } from '../steve/watch';
import { safeConcatName } from '../kube/wrangler-name';

export const CLUSTER_ID_LABEL = 'management.cattle.io/cluster-name';

/** A time as the API server writes it (RFC 3339, whole seconds). */
function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}
export const DOWNSTREAM_PREFIX = '/k8s/clusters/';
const SUC_NAMESPACE = 'cattle-system';
const SUC_NAME = 'system-upgrade-controller';
/** system-upgrade-controller pkg/upgrade/job/job.go defaultBackoffLimit. */
const BACKOFF_LIMIT = 2;
/** Kubernetes' Job controller's Failed messages (pkg/controller/job/job_controller.go). */
const JOB_FAILURE_MESSAGES: Record<FailureReason, string> = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded:     'Job was active longer than specified deadline',
};

function type(id: string, group: string, kind: string, plural: string, namespaced: boolean): ResourceType {
  return {
    id, group, version: 'v1', kind, plural, namespaced, statusSubresource: true
  };
}

/** The types a downstream cluster serves here. */
export function downstreamTypes(): ResourceType[] {
  return [
    type('node', '', 'Node', 'nodes', false),
    type('batch.job', 'batch', 'Job', 'jobs', true),
    type('upgrade.cattle.io.plan', 'upgrade.cattle.io', 'Plan', 'plans', true),
    type('pod', '', 'Pod', 'pods', true),
    type('namespace', '', 'Namespace', 'namespaces', false),
  ];
}

/** The namespaces of every emulated downstream cluster; edge-apps is a workload project's. */
const NAMESPACES = ['cattle-system', 'default', 'edge-apps', 'kube-system'];

/**
 * What a person's list keeps (rancher/steve pkg/stores/sqlpartition/partitioner.go: only the
 * namespaces they may list, so a namespace they may not list answers an empty list). A namespace
 * object is checked against itself, as Rancher grants project members their namespaces by name.
 */
function mayList(actor: Actor, typeId: string, object: KubeObject): boolean {
  return can(actor, 'list', typeId, typeId === 'namespace' ? object.metadata.name : object.metadata.namespace);
}

function uid(text: string): string {
  const hex = createHash('sha1').update(text).digest('hex');

  return `${ hex.slice(0, 8) }-${ hex.slice(8, 12) }-${ hex.slice(12, 16) }-${ hex.slice(16, 20) }-${ hex.slice(20, 32) }`;
}

interface Downstream {
  id: string;
  namespace: string;
  cluster: string;
  store: ObjectStore;
  hub: WatchHub;
}

export interface DownstreamSources {
  api: ObjectApi;
  nodes: NodeRegistry;
  suc: SystemUpgradeControllers;
}

const CREATED = '2024-05-01T08:00:00Z';

export class DownstreamClusters {
  private readonly clusters = new Map<string, Downstream>();
  /** `<cluster id>/<node>` → the node's state and since when (for Job startTime and conditions). */
  private readonly since = new Map<string, { state: string; at: string }>();
  /**
   * `<cluster id>/<node>` → when the kubelet last posted Ready after a reboot: a real node's Ready
   * condition changes its lastTransitionTime only then (k8s.io/kubernetes
   * pkg/kubelet/nodestatus/setters.go ReadyCondition), so it says since when the node runs its image.
   */
  private readonly readySince = new Map<string, string>();
  /**
   * `<cluster id>/<plan>` → the Plan's Complete condition and when it last changed: wrangler's
   * conditions (rancher/wrangler v3 pkg/condition) move lastUpdateTime at each change of status,
   * reason or message, and have no lastTransitionTime.
   */
  private readonly completeSince = new Map<string, { value: string; at: string }>();
  private readonly types = new TypeRegistry(downstreamTypes());
  /** Rancher cluster ids whose agent is disconnected. */
  private readonly disconnected = new Set<string>();
  private pending?: NodeJS.Immediate;
  private unsubscribe?: () => void;

  constructor(private readonly sources: DownstreamSources, private readonly pingMs: number, private readonly serverVersion: string, private readonly sqlCache = true) {}

  /** Follows the system-upgrade-controllers: every change of a run, a job or a node. */
  start(): void {
    this.unsubscribe = this.sources.suc.subscribe(() => {
      if (!this.pending) {
        this.pending = setImmediate(() => {
          this.pending = undefined;
          this.syncAll();
        });
      }
    });
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.pending) {
      clearImmediate(this.pending);
      this.pending = undefined;
    }
  }

  /** After a reset: every downstream object is removed (watchers see it), then derived again. */
  reset(): void {
    for (const downstream of this.clusters.values()) {
      for (const typeId of downstream.store.typeIds()) {
        for (const object of downstream.store.list(typeId)) {
          downstream.store.delete(typeId, object.metadata.namespace, object.metadata.name);
        }
      }
    }
    this.since.clear();
    this.disconnected.clear();
    this.readySince.clear();
    this.completeSince.clear();
    this.syncAll();
  }

  close(): void {
    this.stop();
    for (const downstream of this.clusters.values()) {
      downstream.hub.close();
    }
  }

  /**
   * Connects or disconnects a cluster's agent (by Fleet cluster name); a disconnect drops the
   * cluster's watches. Answers the Rancher cluster id, undefined for an unknown cluster.
   */
  setConnected(cluster: string, connected: boolean): string | undefined {
    const fleet = this.sources.api.list(this.sources.api.types.require('fleet.cattle.io.cluster')).items.find((c) => c.metadata.name === cluster);
    const id = fleet?.metadata.labels?.[CLUSTER_ID_LABEL];

    if (!id) {
      return undefined;
    }
    if (connected) {
      this.disconnected.delete(id);
    } else {
      this.disconnected.add(id);
      this.clusters.get(id)?.hub.dropAll();
    }

    return id;
  }

  dropWebsockets(): number {
    return [...this.clusters.values()].reduce((sum, d) => sum + d.hub.dropAll(), 0);
  }

  /** The Fleet cluster a Rancher cluster id stands for. */
  private fleetCluster(id: string): KubeObject | undefined {
    return this.sources.api.list(this.sources.api.types.require('fleet.cattle.io.cluster')).items
      .find((c) => c.metadata.labels?.[CLUSTER_ID_LABEL] === id);
  }

  private downstream(id: string): Downstream | undefined {
    const existing = this.clusters.get(id);

    if (existing) {
      return existing;
    }
    const fleet = this.fleetCluster(id);

    if (!fleet || !this.sources.nodes.of(fleet.metadata.namespace ?? '', fleet.metadata.name)) {
      return undefined;
    }
    const store = new ObjectStore();
    const hub = new WatchHub({
      store,
      storedType:    (name) => this.types.fromSteveName(name),
      isVirtualType: (name) => name === 'schema' || name === 'count',
      counts:        () => ({}),
      serverVersion: this.serverVersion,
      pingMs:        this.pingMs,
      // As the cluster's Steve (SQL cache on in downstream agents since Rancher 2.15): a watch resumes
      // only from a revision of its type's log, one without a revision starts from now.
      sqlCache:      this.sqlCache,
    });
    const downstream: Downstream = {
      id, namespace: fleet.metadata.namespace ?? '', cluster: fleet.metadata.name, store, hub
    };

    this.clusters.set(id, downstream);
    this.sync(downstream);

    return downstream;
  }

  /** The objects of a type a downstream cluster serves (undefined for an unknown cluster id). */
  list(id: string, typeId: string): KubeObject[] | undefined {
    return this.downstream(id)?.store.list(typeId);
  }

  syncAll(): void {
    for (const downstream of this.clusters.values()) {
      this.sync(downstream);
    }
  }

  /** Puts what the cluster's nodes and controller hold now into its store; only changes are written. */
  private sync(downstream: Downstream): void {
    const nodes = this.sources.nodes.of(downstream.namespace, downstream.cluster) ?? [];
    const runs = this.sources.suc.runsOn(downstream.namespace, downstream.cluster);
    const wanted = new Map<string, KubeObject[]>([['node', []], ['batch.job', []], ['upgrade.cattle.io.plan', []], ['pod', []], ['namespace', []]]);

    for (const name of NAMESPACES) {
      wanted.get('namespace')?.push({
        apiVersion: 'v1', kind: 'Namespace', metadata: this.meta(name, undefined, { 'kubernetes.io/metadata.name': name }), spec: {}, status: { phase: 'Active' }
      });
    }

    for (const node of nodes) {
      const since = this.sinceOf(downstream, node);

      wanted.get('node')?.push(this.nodeObject(node, since, this.readySince.get(`${ downstream.id }/${ node.name }`) ?? CREATED));
    }
    for (const run of runs) {
      wanted.get('upgrade.cattle.io.plan')?.push(this.planObject(run, nodes, `${ downstream.id }/${ run.plan.name }`));
      for (const job of run.jobs) {
        const node = nodes.find((n) => n.name === job.node);

        if (node) {
          // A kept Job's times are its own; a running one follows its node's state.
          const since = job.completed === undefined ? this.sinceOf(downstream, node) : iso(job.created);

          wanted.get('batch.job')?.push(this.jobObject(run, job, node, since));
          wanted.get('pod')?.push(...this.podObjects(run, job, node, since));
        }
      }
    }
    for (const [typeId, objects] of wanted) {
      const names = new Set(objects.map((o) => steveId(o)));

      for (const object of objects) {
        const stored = downstream.store.get(typeId, object.metadata.namespace, object.metadata.name);

        if (stored && JSON.stringify({ ...stored, metadata: { ...stored.metadata, resourceVersion: '' } }) === JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: '' } })) {
          continue;
        }
        object.metadata.resourceVersion = String(downstream.store.nextRevision());
        downstream.store.put(typeId, object, stored ? 'change' : 'create');
      }
      for (const stored of downstream.store.list(typeId)) {
        if (!names.has(steveId(stored))) {
          downstream.store.delete(typeId, stored.metadata.namespace, stored.metadata.name);
        }
      }
    }
  }

  private sinceOf(downstream: Downstream, node: EmulatedNode): string {
    const key = `${ downstream.id }/${ node.name }`;
    const known = this.since.get(key);

    if (known?.state === node.state) {
      return known.at;
    }
    const at = known ? iso(Date.now()) : CREATED;

    if (known?.state === 'rebooting') {
      this.readySince.set(key, at);
    }
    this.since.set(key, { state: node.state, at });

    return at;
  }

  /** `seed` tells apart objects of the same name (a Job the Plan made again). */
  private meta(name: string, namespace: string | undefined, labels: Record<string, string>, created = CREATED, seed = name): KubeObject['metadata'] {
    return {
      name, ...(namespace ? { namespace } : {}), uid: uid(`${ namespace ?? '' }/${ seed }`), resourceVersion: '', creationTimestamp: created, labels
    };
  }

  private nodeObject(node: EmulatedNode, since: string, readySince: string): KubeObject {
    // The node lifecycle controller marks a node whose kubelet posts no status Ready=Unknown
    // (kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go tryUpdateNodeHealth):
    // while it reboots, and for good when its kubelet does not start (suc/nodes.ts bootInto).
    const rebooting = node.state === 'rebooting' || !!node.kubeletStopped;

    return {
      apiVersion: 'v1',
      kind:       'Node',
      metadata:   this.meta(node.name, undefined, { ...node.labels }),
      // Cordoned by a Job's init containers until a Job completes there (suc/nodes.ts).
      spec:       node.unschedulable ? { unschedulable: true } : {},
      status:     {
        conditions: [rebooting ? {
          type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: since
        } : {
          type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastTransitionTime: readySince
        }],
        // The kubelet reports /etc/os-release PRETTY_NAME (nodes.ts), never the image tag.
        nodeInfo: {
          osImage: prettyName(node.release), operatingSystem: 'linux', architecture: 'amd64', kubeletVersion: 'v1.31.4+k3s1'
        },
      },
    };
  }

  private planObject(run: PlanRunView, nodes: EmulatedNode[], key: string): KubeObject {
    const selector = selectorFromObject(run.plan.spec.nodeSelector);
    const selected = nodes.filter((n) => matchesLabels(selector, n.labels));
    const failed = run.lastFailure?.hash === run.hash ? run.lastFailure : undefined;
    const complete = !run.applying.length && selected.every((n) => n.labels[PLAN_LABEL_PREFIX + run.plan.name] === run.hash);
    const conditions: JsonObject[] = [
      {
        type: 'Validated', status: 'True', reason: 'PlanIsValid'
      },
      {
        type: 'LatestResolved', status: 'True', reason: 'Version'
      },
      // handle_batch.go: a failed Job's reason and message on Complete, kept while the node is retried.
      failed ? {
        type:    'Complete',
        status:  'False',
        reason:  'JobFailed',
        message: `Job ${ SUC_NAMESPACE }/${ this.jobName(run, failed.node, failed.hash) } failed on Node ${ failed.node }: ${ failed.reason }: ${ JOB_FAILURE_MESSAGES[failed.reason] }`
      } : { type: 'Complete', status: complete ? 'True' : 'False' },
    ];
    const completeCondition = conditions[2];
    const value = JSON.stringify(completeCondition);
    const known = this.completeSince.get(key);
    const at = known?.value === value ? known.at : iso(Date.now());

    this.completeSince.set(key, { value, at });
    completeCondition.lastUpdateTime = at;

    return {
      apiVersion: 'upgrade.cattle.io/v1',
      kind:       'Plan',
      metadata:   this.meta(run.plan.name, SUC_NAMESPACE, {}),
      spec:       run.plan.spec,
      status:     {
        latestVersion: run.version, latestHash: run.hash, applying: run.applying, conditions
      },
    };
  }

  private jobName(run: PlanRunView, node: string, hash: string): string {
    return safeConcatName('apply', run.plan.name, 'on', node, 'with', hash);
  }

  /** job.go New: the labels of an upgrade Job and of its pod template. */
  private jobLabels(run: PlanRunView, job: PlanRunView['jobs'][number]): Record<string, string> {
    return {
      'upgrade.cattle.io/controller':      SUC_NAME,
      'upgrade.cattle.io/node':            job.node,
      'upgrade.cattle.io/plan':            run.plan.name,
      'upgrade.cattle.io/version':         job.version,
      [PLAN_LABEL_PREFIX + run.plan.name]: job.hash,
    };
  }

  private jobObject(run: PlanRunView, job: PlanRunView['jobs'][number], node: EmulatedNode, since: string): KubeObject {
    const labels = this.jobLabels(run, job);
    const name = this.jobName(run, job.node, job.hash);
    const failure = job.failure;
    // A pod is Ready while its main (upgrade) container runs, not during the cordon/drain init containers.
    const status: JsonObject = job.completed !== undefined ? this.completeStatus(job, since) : failure ? {
      startTime:  since,
      failed:     failure.reason === 'BackoffLimitExceeded' ? BACKOFF_LIMIT + 1 : 1,
      ready:      0,
      // Kubernetes' Job controller (kubernetes pkg/controller/job/job_controller.go
      // newFailureCondition, then newFailedConditionForFailureTarget): the interim FailureTarget
      // first, then Failed, both with the same reason and message (recorded on the real
      // kube-controller-manager: tests/conformance/recordings/kube-controllers.json). The
      // script's own words are only in its pods' logs.
      conditions: (['FailureTarget', 'Failed'] as const).map((conditionType) => ({
        type: conditionType, status: 'True', reason: failure.reason, message: JOB_FAILURE_MESSAGES[failure.reason], lastTransitionTime: since
      })),
    } : {
      // After the reboot the first pod has failed (`reboot; exit 1`) and the second runs.
      // A script waiting on the upgrade lock runs too (suc.ts), after the pods whose wait timed out.
      startTime: since, active: 1, ready: job.phase === 'upgrading' || job.phase === 'verifying' ? 1 : 0, ...(job.phase === 'verifying' ? { failed: 1 } : {}), ...(job.lock?.timeouts ? { failed: job.lock.timeouts } : {})
    };

    return {
      apiVersion: 'batch/v1',
      kind:       'Job',
      metadata:   {
        ...this.meta(name, SUC_NAMESPACE, labels, since, `${ name }@${ job.created }`),
        // The Plan's generating handler sets it (see suc.ts remove): the Jobs go with their Plan.
        ownerReferences: [{
          apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', name: run.plan.name, uid: this.meta(run.plan.name, SUC_NAMESPACE, {}).uid, controller: true, blockOwnerDeletion: false
        }],
      },
      spec: {
        backoffLimit:            BACKOFF_LIMIT,
        activeDeadlineSeconds:   this.sources.suc.times.deadlineSeconds,
        ttlSecondsAfterFinished: this.sources.suc.times.ttlSeconds,
        // job.go New: the upgrade container runs the Plan's image at its version, with its envs.
        template:                { spec: { containers: [this.upgradeContainer(job)] } },
      },
      status,
    };
  }

  private upgradeContainer(job: PlanRunView['jobs'][number]): JsonObject {
    const {
      image, command, args, envs
    } = job.upgrade;
    const name = typeof image === 'string' ? image : '';

    return {
      name: 'upgrade', image: (name.split('/').pop() ?? '').includes(':') ? name : `${ name }:${ job.version }`, command, args, env: Array.isArray(envs) ? envs : []
    };
  }

  /** A Job whose pod succeeded (an upgrade's first pod failed as the host went down: `reboot; exit 1`). */
  private completeStatus(job: PlanRunView['jobs'][number], since: string): JsonObject {
    const at = iso(job.completed as number);

    return {
      startTime:      since,
      completionTime: at,
      succeeded:      1,
      ...(job.phase === 'verifying' ? { failed: 1 } : {}),
      ready:          0,
      terminating:    0,
      conditions:     (['SuccessCriteriaMet', 'Complete'] as const).map((conditionType) => ({
        type: conditionType, status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastTransitionTime: at
      })),
    };
  }

  /** Each pod's upgrade container: how it stands, and the pod's phase. */
  private podStates(job: PlanRunView['jobs'][number], since: string): { state: JsonObject; phase: string }[] {
    const exited = {
      state: {
        terminated: {
          exitCode: 1, reason: 'Error', finishedAt: since
        }
      },
      phase: 'Failed'
    };
    const running = { state: { running: { startedAt: since } }, phase: 'Running' };

    if (job.completed !== undefined) {
      const succeeded = {
        state: {
          terminated: {
            exitCode: 0, reason: 'Completed', finishedAt: iso(job.completed)
          }
        },
        phase: 'Succeeded'
      };

      return job.phase === 'verifying' ? [exited, succeeded] : [succeeded];
    }

    if (job.failure?.reason === 'BackoffLimitExceeded') {
      return Array(BACKOFF_LIMIT + 1).fill(exited);
    }
    if (job.failure) {
      return [{
        state: {
          terminated: {
            exitCode: 137, reason: 'Error', finishedAt: since
          }
        },
        phase: 'Failed'
      }];
    }
    if (job.phase === 'verifying') {
      return [exited, running];
    }
    if (job.lock) {
      return [...Array(job.lock.timeouts).fill(exited), running];
    }

    return [job.phase === 'upgrading' || job.phase === 'rebooting' ? running : { state: { waiting: { reason: 'PodInitializing' } }, phase: 'Pending' }];
  }

  /** The job's pods, one per attempt: a failed job has used backoffLimit + 1 of them, a successful upgrade two. */
  private podObjects(run: PlanRunView, job: PlanRunView['jobs'][number], node: EmulatedNode, since: string): KubeObject[] {
    const jobName = this.jobName(run, job.node, job.hash);
    // The pod template's labels (job.go), and the Job controller's own.
    const labels = {
      ...this.jobLabels(run, job), 'batch.kubernetes.io/job-name': jobName, 'job-name': jobName
    };
    const upgradeSpec = run.plan.spec.upgrade;
    const upgradeImage = isObject(upgradeSpec) && typeof upgradeSpec.image === 'string' ? upgradeSpec.image : '';

    return this.podStates(job, since).map(({ state, phase }, attempt) => {
      const suffix = createHash('sha1').update(`${ jobName }@${ job.created }#${ attempt }`).digest('hex').replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)])
        .slice(0, 5);

      return {
        apiVersion: 'v1',
        kind:       'Pod',
        metadata:   this.meta(`${ jobName }-${ suffix }`, SUC_NAMESPACE, labels, since),
        spec:       {
          nodeName: node.name, restartPolicy: 'Never', containers: [{ name: 'upgrade', image: `${ upgradeImage }:${ job.version }` }]
        },
        status: {
          phase, startTime: since, containerStatuses: [{ name: 'upgrade', state }]
        },
      };
    });
  }

  /** What the upgrade container of a pod printed: suc-upgrade's `set -x` trace, then its commands' output. */
  podLog(id: string, namespace: string, name: string): string | undefined {
    const downstream = this.downstream(id);
    const pod = downstream?.store.get('pod', namespace, name);
    const nodeName = pod?.metadata.labels?.['upgrade.cattle.io/node'];
    const node = downstream && (this.sources.nodes.of(downstream.namespace, downstream.cluster) ?? []).find((n) => n.name === nodeName);

    if (!pod || !node) {
      return undefined;
    }
    const head = ['+ HOST_DIR=/host', '+ RELEASE_FILE=/etc/os-release', '+ flock -w 600 200'];
    const planName = pod.metadata.labels?.['upgrade.cattle.io/plan'];
    const run = this.sources.suc.runsOn(downstream.namespace, downstream.cluster).find((r) => r.plan.name === planName);

    const job = run?.jobs.find((j) => j.node === node.name && j.hash === pod.metadata.labels?.[PLAN_LABEL_PREFIX + planName]);

    if (job?.lock) {
      // suc.ts: the script waits on another plan's upgrade lock; `flock -w 600 200 || exit 1` when the wait ends.
      const timedOut = asObject(pod.status).phase === 'Failed';

      return `${ [...head, ...(timedOut ? [LOCK_FAILURE_MESSAGE] : [])].join('\n') }\n`;
    }
    const lines = [
      ...head,
      '+ nsenter -i -m -t 1 -- systemctl is-system-running', 'running', '+ isEqualVersion', '+ diff /etc/os-release /host/etc/os-release', '+ return 1',
    ];

    if (job?.completed !== undefined) {
      lines.push(...(job.message ?? '').split('\n').filter(Boolean));
    } else if (node.state === 'failed') {
      lines.push('+ config', '+ mount --rbind /host/dev /dev', '+ mount --rbind /host/run /run', '+ elemental --debug upgrade --bootloader --system dir:/', ...node.message.split('\n'));
    } else if (node.message) {
      lines.push(...node.message.split('\n'));
    }

    return `${ lines.join('\n') }\n`;
  }

  /** `/k8s/clusters/<id>/…`: only Steve's reads (`/v1/<type>[/<namespace>]/<name>`); writes are not emulated. */
  handle(ctx: RequestContext, user: User | undefined): void {
    try {
      this.route(ctx, user);
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(500, 'InternalError', String(e));

      sendJson(ctx, error.status, error.toSteve());
    }
  }

  private route(ctx: RequestContext, user: User | undefined): void {
    const [id, api, resource, ...rest] = ctx.path.slice(DOWNSTREAM_PREFIX.length).split('/').map(decodeURIComponent);

    if (!user) {
      throw unauthorized();
    }
    const downstream = this.access(id, user);

    if (this.disconnected.has(id)) {
      ctx.res.statusCode = 500;
      ctx.res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      ctx.res.end('cluster agent disconnected');

      return;
    }
    if (api === 'api') {
      return this.kubeApi(ctx, downstream, [resource, ...rest], user);
    }
    if (api !== 'v1' || !resource) {
      return sendJson(ctx, 404, {
        type: 'error', status: 404, code: 'NotFound', message: 'not found'
      });
    }
    const typeOf = this.types.fromSteveName(resource);
    const actor = downstreamActor(user);

    // A type the person may list nowhere is not in their schemas: Steve answers 404.
    if (!typeOf || !canAnywhere(actor, 'list', typeOf.id, typeOf.namespaced || typeOf.id === 'namespace')) {
      ctx.res.statusCode = 404;
      ctx.res.end();

      return;
    }
    if (ctx.method !== 'GET') {
      throw new ApiError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { code: 'MethodNotAllow', message: 'the emulator serves downstream clusters read-only' });
    }
    const base = `${ ctx.base }${ DOWNSTREAM_PREFIX }${ id }`;
    const namespace = typeOf.namespaced ? rest[0] : undefined;
    const name = typeOf.namespaced ? rest[1] : rest[0];

    if (name) {
      // Steve passes a read by name to the API server as the person, whose RBAC refuses it before
      // looking the object up (recorded: downstream-readers#0, member's cattle-system).
      if (!can(actor, 'get', typeOf.id, typeOf.id === 'namespace' ? name : namespace)) {
        throw forbidden(typeOf, 'get', user.id, name, typeOf.namespaced ? namespace : undefined);
      }
      const object = downstream.store.get(typeOf.id, namespace, name);

      if (!object) {
        return sendJson(ctx, 404, {
          type: 'error', status: 404, code: 'NotFound', message: `${ typeOf.plural }.${ typeOf.group || 'core' } "${ name }" not found`
        });
      }

      return sendJson(ctx, 200, toSteve(typeOf, object, base, actor));
    }
    // With the SQL cache (on in downstream agents since Rancher 2.15, rancher/rancher
    // pkg/systemtemplate/import.go) Steve reads only filter, sort, page, pagesize, revision, summary
    // and projectsornamespaces (rancher/steve pkg/stores/sqlpartition/listprocessor/processor.go
    // ParseQuery): a labelSelector is ignored and every object comes back.
    const selector = parseLabelSelector(this.sqlCache ? null : ctx.url.searchParams.get('labelSelector'));
    const filter = filterPredicate(ctx.url.searchParams);
    const items = downstream.store.list(typeOf.id)
      .filter((o) => !namespace || o.metadata.namespace === namespace)
      .filter((o) => mayList(actor, typeOf.id, o) && matchesLabels(selector, o.metadata.labels) && filter(o))
      .sort((a, b) => steveId(a).localeCompare(steveId(b)));

    sendJson(ctx, 200, {
      type:         'collection',
      links:        { self: `${ ctx.base }${ ctx.path }` },
      actions:      {},
      resourceType: typeOf.id,
      revision:     downstream.store.listRevision(typeOf.id, this.sqlCache),
      // rancher/apiserver pkg/types/types.go: `count,omitempty` (recorded: downstream-readers#2).
      ...(items.length ? { count: items.length } : {}),
      data:         items.map((o) => toSteve(typeOf, o, base, actor)),
    });
  }

  /** The kube-apiserver paths served here: `GET /api/v1/namespaces/<ns>/pods/<pod>/log` (text; `tailLines` honoured). */
  private kubeApi(ctx: RequestContext, downstream: Downstream, parts: string[], user: User): void {
    const [version, namespaces, namespace, pods, name, sub] = parts;

    if (ctx.method !== 'GET' || version !== 'v1' || namespaces !== 'namespaces' || pods !== 'pods' || sub !== 'log') {
      return sendJson(ctx, 404, {
        kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404
      });
    }
    // The API server's RBAC on pods/log comes before the pod is looked up (recorded: downstream-readers#6).
    if (!can(downstreamActor(user), 'get', 'pod', namespace)) {
      const message = `pods "${ name }" is forbidden: User "${ user.id }" cannot get resource "pods/log" in API group "" in the namespace "${ namespace }"`;

      return sendJson(ctx, 403, {
        kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'Forbidden', details: { name, kind: 'pods' }, code: 403
      });
    }
    const log = this.podLog(downstream.id, namespace, name);

    if (log === undefined) {
      return sendJson(ctx, 404, {
        kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `pods "${ name }" not found`, reason: 'NotFound', details: { name, kind: 'pods' }, code: 404
      });
    }
    const tail = Number(ctx.url.searchParams.get('tailLines'));
    const lines = log.trimEnd().split('\n');

    ctx.res.statusCode = 200;
    ctx.res.setHeader('Content-Type', 'text/plain');
    ctx.res.end(`${ (tail > 0 ? lines.slice(-tail) : lines).join('\n') }\n`);
  }

  /** The cluster, when the user may see it: 404 for an unknown id, 403 for one the user has no rights in. */
  private access(id: string, user: User): Downstream {
    const downstream = this.downstream(id);

    if (!downstream) {
      throw new ApiError(404, 'NotFound', `clusters.management.cattle.io "${ id }" not found`, undefined, { code: 'NotFound', message: `clusters.management.cattle.io "${ id }" not found` });
    }
    if (user.deniedClusters?.includes(downstream.cluster)) {
      const message = `clusters.management.cattle.io "${ id }" is forbidden: User "${ user.id }" cannot get resource "clusters" in API group "management.cattle.io" at the cluster scope`;

      throw new ApiError(403, 'Forbidden', message, undefined, { code: 'Forbidden', message });
    }

    return downstream;
  }

  /** `/k8s/clusters/<id>/v1/subscribe`: the cluster's own Steve watch. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, user: User, base: string): void {
    const id = decodeURIComponent(path.slice(DOWNSTREAM_PREFIX.length).split('/')[0]);
    let downstream: Downstream;

    try {
      downstream = this.access(id, user);
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 500;

      socket.write(`HTTP/1.1 ${ status } ${ status === 403 ? 'Forbidden' : 'Not Found' }\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${ JSON.stringify(e instanceof ApiError ? e.toSteve() : {}) }`);
      socket.destroy();

      return;
    }
    if (this.disconnected.has(id)) {
      socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\ncluster agent disconnected');
      socket.destroy();

      return;
    }
    downstream.hub.upgrade(req, socket, head, '/v1/subscribe', { actor: downstreamActor(user), base: `${ base }${ DOWNSTREAM_PREFIX }${ id }` });
  }
}

export function isDownstreamSubscribePath(path: string): boolean {
  return /^\/k8s\/clusters\/[^/]+\/v1\/subscribe$/.test(path);
}
