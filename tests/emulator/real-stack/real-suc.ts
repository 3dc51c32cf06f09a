// The emulated system-upgrade-controller as a client of the real stack's API server
// (`--backend real-stack`; the SUC cannot be built here: Go proxy 403). It watches the Plans the
// real Fleet agent applied, the nodes and the Jobs, and on each change does what
// rancher/system-upgrade-controller does (suc-jobs.ts): writes the Plan's status
// (pkg/upgrade/handle_upgrade.go: latestVersion, latestHash, applying, Complete) and creates the
// real Jobs within concurrency; kube-controller-manager makes their Pods and kwok runs them.
// Two steps are the harness's, named:
// - binding a Job's pod to the one node its affinity names, as kube-scheduler would (none runs),
//   then, for a Plan that cordons or drains, that node cordoned as job.go's cordon or drain init
//   container would (`kubectl cordon`/`drain`; kwok runs no init containers);
// - when a Job completes, the result of rancher/elemental framework/files/usr/sbin/suc-upgrade on
//   the node (suc/suc.ts sucUpgradeDecision: the new /etc/os-release, the labels
//   elemental-populate-node-labels writes at the boot, suc/nodes.ts bootInto), then the SUC's own
//   handling of a completed Job (pkg/upgrade/handle_batch.go: the node labelled
//   plan.upgrade.cattle.io/<plan>=<hash> and uncordoned). The kubelet's osImage is the new PRETTY_NAME.
// One pod per Job succeeds (kwok's pod-complete stage): the real first pod's `exit 1` as the host
// reboots is not played.

import { JsonObject, asObject, asString, isObject } from '../core/json';
import { KubeObject } from '../kube/store';
import { ResourceType, TypeRegistry } from '../kube/resource-types';
import { downstreamTypes } from '../rancher/downstream';
import {
  EmulatedNode, OSRelease, bootInto, invalidNodeLabels, populatedLabels, prettyName
} from '../suc/nodes';
import { KWOK_ANNOTATION } from './kwok-nodes';
import {
  PLAN_LABEL_PREFIX, PlanObject, cordons, jobImage, planHash, sucUpgradeDecision
} from '../suc/suc';
import { RemoteControllerApi } from './remote-api';
import {
  PlanState, failingJob, finishedJobExpiry, jobActions, jobOutcome, selectConcurrentNodes, selectedNodes, upgradeJob
} from './suc-jobs';

/**
 * The harness's own mark on a Job whose result it applied: a Job kept until its TTL outlives the
 * emulator process (the stack stays up between runs), and applying it again would change the host.
 */
export const HARNESS_APPLIED = 'os-upgrades.harness/result-applied';

/** What the SUC client needs of the API server (RemoteControllerApi). */
export type StackClient = Pick<RemoteControllerApi, 'list' | 'create' | 'patch' | 'post' | 'delete' | 'subscribe'>;

export function sucTypes(): TypeRegistry {
  return new TypeRegistry(downstreamTypes());
}

function forced(spec: JsonObject): boolean {
  const envs = asObject(spec.upgrade).envs;

  return (Array.isArray(envs) ? envs.filter(isObject) : []).some((e) => e.name === 'FORCE' && e.value === 'true');
}

/** A Plan read from the API server, as suc.ts's rules take it. */
function planOf(plan: KubeObject): PlanObject {
  return { name: plan.metadata.name, spec: asObject(plan.spec) };
}

/** DigestStatus over the secrets' content: the Plans the operator makes carry none. */
function hashOf(plan: KubeObject): string {
  return planHash(planOf(plan), '');
}

/** A SUC Job's Plan and the hash it was made for. */
function planKeyOf(job: KubeObject): string {
  const plan = job.metadata.labels?.['upgrade.cattle.io/plan'] ?? '';

  return `${ job.metadata.namespace }/${ plan }@${ job.metadata.labels?.[PLAN_LABEL_PREFIX + plan] ?? '' }`;
}

export class RealStackSuc {
  private readonly plan: ResourceType;
  private readonly node: ResourceType;
  private readonly job: ResourceType;
  private readonly pod: ResourceType;
  /** Jobs whose result was applied already (name@uid), besides those marked with HARNESS_APPLIED. */
  private readonly applied = new Set<string>();
  private running?: Promise<void>;
  private again = false;
  /** A reconcile at each kept Job's TTL (handle_batch.go enqueues the Job for then). */
  private readonly expiries = new Map<string, NodeJS.Timeout>();
  private unsubscribe?: () => void;

  /** `hosts`: the machines the harness created as kwok nodes, with their /etc/os-release. */
  constructor(private readonly api: StackClient, types: TypeRegistry, private readonly hosts: Map<string, EmulatedNode>) {
    this.plan = types.require('upgrade.cattle.io.plan');
    this.node = types.require('node');
    this.job = types.require('batch.job');
    this.pod = types.require('pod');
  }

  start(): void {
    this.unsubscribe = this.api.subscribe(() => this.kick());
    this.kick();
  }

  stop(): void {
    this.unsubscribe?.();
    this.expiries.forEach((timer) => clearTimeout(timer));
    this.expiries.clear();
  }

  /** One reconcile at a time; a change during one runs another after it. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;

      return this.running;
    }
    this.running = this.reconcile().catch((e) => {
      process.stderr.write(`[emulator] real-stack suc: ${ (e as Error).message }\n`);
    }).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick().catch(() => undefined);
      }
    });

    return this.running;
  }

  async reconcile(): Promise<void> {
    const jobs = await this.api.list(this.job);
    const plans = await this.api.list(this.plan);
    // handle_batch.go acts on a finished Job of a Plan that still exists, made for its current hash
    // (an older Job, or one whose Plan is gone, is only deleted).
    const current = new Set(plans.map((p) => `${ p.metadata.namespace }/${ p.metadata.name }@${ hashOf(p) }`));

    const labelled = new Map<string, Record<string, string>>();

    for (const job of jobs.filter((j) => jobOutcome(j) === 'succeeded' && current.has(planKeyOf(j)))) {
      await this.applyResult(job, labelled);
    }
    const live = await this.expireFinished(jobs, plans, labelled);

    await this.bindPods(plans);
    // The labels just written, in case the watch has not brought them yet.
    const nodes = (await this.api.list(this.node)).map((n) => (labelled.has(n.metadata.name) ? { ...n, metadata: { ...n.metadata, labels: { ...n.metadata.labels, ...labelled.get(n.metadata.name) } } } : n));

    for (const plan of plans) {
      await this.reconcilePlan(plan, nodes, live);
    }
  }

  /**
   * handle_batch.go enqueueOrDelete at a finished Job's TTL: for its Plan's current version
   * (its upgrade.cattle.io/version label) the node gets the Job's hash, then the Job is deleted.
   * Before that time a reconcile is set for it. Returns the Jobs still there.
   */
  private async expireFinished(jobs: KubeObject[], plans: KubeObject[], labelled: Map<string, Record<string, string>>): Promise<KubeObject[]> {
    const live: KubeObject[] = [];

    for (const job of jobs) {
      const expiry = finishedJobExpiry(job);
      const labels = job.metadata.labels ?? {};
      const planName = labels['upgrade.cattle.io/plan'] ?? '';

      if (expiry === undefined || expiry > Date.now()) {
        if (expiry !== undefined && !this.expiries.has(job.metadata.uid)) {
          this.expiries.set(job.metadata.uid, setTimeout(() => this.kick(), expiry - Date.now() + 100).unref());
        }
        live.push(job);
        continue;
      }
      const plan = plans.find((p) => p.metadata.namespace === job.metadata.namespace && p.metadata.name === planName);
      const node = labels['upgrade.cattle.io/node'] ?? '';

      if (plan && labels['upgrade.cattle.io/version'] === (asString(asObject(plan.spec).version) ?? '').replace(/\+/g, '-')) {
        const hashLabel = { [PLAN_LABEL_PREFIX + planName]: labels[PLAN_LABEL_PREFIX + planName] ?? '' };

        await this.api.patch(this.node, undefined, node, { metadata: { labels: hashLabel }, spec: { unschedulable: null } })
          .catch((e) => process.stderr.write(`[emulator] real-stack suc: marking ${ node } at its Job's TTL: ${ (e as Error).message }\n`));
        labelled.set(node, { ...labelled.get(node), ...hashLabel });
      }
      this.expiries.delete(job.metadata.uid);
      // Gone already when kube-controller-manager's TTL controller came first.
      await this.api.delete(this.job, job.metadata.namespace, job.metadata.name).catch(() => undefined);
    }

    return live;
  }

  private async reconcilePlan(object: KubeObject, nodes: KubeObject[], jobs: KubeObject[]): Promise<void> {
    const spec = asObject(object.spec);
    const state: PlanState = {
      name:      object.metadata.name,
      uid:       object.metadata.uid,
      namespace: object.metadata.namespace ?? '',
      hash:      hashOf(object),
      version:   (asString(spec.version) ?? '').replace(/\+/g, '-'),
    };

    const applying = asObject(object.status).applying;
    const selected = selectConcurrentNodes(state, spec, Array.isArray(applying) ? applying.map(String) : [], nodes, jobs);
    const { create, replace } = jobActions(state, spec, selected, jobs);

    for (const job of replace) {
      // wrangler's ErrReplace: deleted now; the Job's delete event brings the next pass, which creates it.
      await this.api.delete(this.job, job.metadata.namespace, job.metadata.name);
    }
    for (const node of create) {
      await this.stopKubeletIfItWould(node, jobImage({ name: state.name, spec }), forced(spec));
      const job = await this.api.create(this.job, state.namespace, this.withChosenFailure(upgradeJob(state, spec, node), node));

      jobs.push(job);
    }
    await this.writeStatus(object, state, nodes, selected);
  }

  /**
   * A host whose upgrade boots an image with invalid populated labels: its kubelet exits at start
   * (kubernetes cmd/kubelet/app/options/options.go ValidateKubeletFlags, suc/nodes.ts bootInto). The
   * harness stops kwok managing the node before the Job exists, so nothing posts its status (the
   * real kube-controller-manager's node lifecycle controller marks it Ready=Unknown) and its pod
   * never runs (the real Job controller fails the Job at activeDeadlineSeconds, DeadlineExceeded).
   */
  private async stopKubeletIfItWould(node: string, release: OSRelease, force: boolean): Promise<void> {
    const host = this.hosts.get(node);

    if (!host || host.kubeletStopped || !sucUpgradeDecision(host, release, force).upgrade || !invalidNodeLabels(release).length) {
      return;
    }
    bootInto(host, release);
    host.message = host.kubeletStopped ?? '';
    await this.api.patch(this.node, undefined, node, { metadata: { annotations: { [KWOK_ANNOTATION]: null } } });
  }

  /** A node failed by POST /__emulator/nodes/fail: its Job's pods fail on kwok (the failure used up as suc/suc.ts does). */
  private withChosenFailure(job: JsonObject, node: string): JsonObject {
    const host = this.hosts.get(node);

    if (host?.failNext === undefined) {
      return job;
    }
    const message = host.failNext;

    host.failTimes = (host.failTimes ?? 1) - 1;
    if (host.failTimes <= 0) {
      host.failNext = undefined;
      host.failTimes = undefined;
    }

    return failingJob(job, message);
  }

  private async writeStatus(object: KubeObject, state: PlanState, nodes: KubeObject[], applying: string[]): Promise<void> {
    const label = PLAN_LABEL_PREFIX + state.name;
    const pending = selectedNodes(asObject(object.spec), nodes).filter((n) => n.metadata.labels?.[label] !== state.hash);
    const status = {
      latestVersion: state.version,
      latestHash:    state.hash,
      applying,
      conditions:    [
        {
          type: 'Validated', status: 'True', reason: 'PlanIsValid'
        },
        {
          type: 'LatestResolved', status: 'True', reason: 'Version'
        },
        this.completeCondition(object, state, !applying.length && !pending.length),
      ],
    };
    const current = asObject(object.status);

    if (JSON.stringify([current.latestHash, current.applying, current.conditions]) !== JSON.stringify([status.latestHash, status.applying, status.conditions])) {
      await this.api.patch(this.plan, state.namespace, state.name, { status }, 'status');
    }
  }

  /**
   * handle_upgrade.go's Complete condition: reason Complete, or SyncJob while nodes apply (Resolved
   * first at a new version). wrangler's conditions (pkg/condition) move lastUpdateTime at each change
   * of status, reason or message, and have no lastTransitionTime.
   */
  private completeCondition(object: KubeObject, state: PlanState, complete: boolean): JsonObject {
    const current = asObject(object.status);
    const conditions = Array.isArray(current.conditions) ? current.conditions.filter(isObject) : [];
    const previous = conditions.find((c) => c.type === 'Complete');
    const condition = {
      type: 'Complete', status: complete ? 'True' : 'False', reason: complete ? 'Complete' : 'SyncJob'
    };
    const unchanged = previous && previous.status === condition.status && previous.reason === condition.reason && current.latestVersion === state.version;

    return { ...condition, lastUpdateTime: unchanged && previous.lastUpdateTime ? previous.lastUpdateTime : new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
  }

  /**
   * kube-scheduler's part for a Job's pod: bound to the node its affinity's hostname names; then the
   * cordon or drain init container's, which cordons that node (only a completed Job uncordons it).
   */
  private async bindPods(plans: KubeObject[]): Promise<void> {
    for (const pod of await this.api.list(this.pod)) {
      const labels = pod.metadata.labels ?? {};
      const node = labels['upgrade.cattle.io/node'];

      if (node && !asObject(pod.spec).nodeName && !pod.metadata.deletionTimestamp) {
        const bound = await this.api.post(`/api/v1/namespaces/${ pod.metadata.namespace }/pods/${ pod.metadata.name }/binding`, {
          apiVersion: 'v1',
          kind:       'Binding',
          metadata:   { name: pod.metadata.name },
          target:     {
            apiVersion: 'v1', kind: 'Node', name: node
          }
        }).then(() => true, () => false);
        const plan = plans.find((p) => p.metadata.namespace === pod.metadata.namespace && p.metadata.name === labels['upgrade.cattle.io/plan']);

        if (bound && plan && cordons(planOf(plan))) {
          await this.api.patch(this.node, undefined, node, { spec: { unschedulable: true } })
            .catch((e) => process.stderr.write(`[emulator] real-stack suc: cordoning ${ node }: ${ (e as Error).message }\n`));
        }
      }
    }
  }

  /** A completed Job: suc-upgrade's result on the host, then handle_batch.go's label and uncordon. */
  private async applyResult(job: KubeObject, labelled: Map<string, Record<string, string>>): Promise<void> {
    const key = `${ job.metadata.name }@${ job.metadata.uid }`;
    const labels = job.metadata.labels ?? {};
    const host = this.hosts.get(labels['upgrade.cattle.io/node'] ?? '');
    const planName = labels['upgrade.cattle.io/plan'] ?? '';

    if (this.applied.has(key) || job.metadata.annotations?.[HARNESS_APPLIED] || !host) {
      return;
    }
    const containers = asObject(asObject(asObject(job.spec).template).spec).containers;
    const container = asObject(Array.isArray(containers) ? containers[0] : undefined);
    const image = asString(container.image) ?? '';
    const envs = container.env;
    const release = jobImage({ name: planName, spec: { upgrade: { image } } });
    const decision = sucUpgradeDecision(host, release, forced({ upgrade: { envs } }));

    if (decision.upgrade) {
      bootInto(host, release);
    }
    host.message = decision.message;
    this.applied.add(key);
    await this.api.patch(this.job, job.metadata.namespace, job.metadata.name, { metadata: { annotations: { [HARNESS_APPLIED]: 'true' } } })
      .catch(() => undefined);
    // At the boot: the k3s agent's one patch of the labels elemental-populate-node-labels wrote
    // (k3s-io/k3s pkg/agent/run.go); the real API server refuses it whole when the image label is
    // over 63 characters, and the node keeps its older labels (bootInto does the same for the host).
    await this.api.patch(this.node, undefined, host.name, { metadata: { labels: populatedLabels(host.release) } })
      .catch((e) => process.stderr.write(`[emulator] real-stack: the k3s agent's label patch of ${ host.name } failed: ${ (e as Error).message }\n`));
    await this.api.patch(this.node, undefined, host.name, { status: { nodeInfo: { osImage: prettyName(host.release) } } }, 'status');
    // handle_batch.go: the Job's hash on the node, which is uncordoned.
    const hashLabel = { [PLAN_LABEL_PREFIX + planName]: labels[PLAN_LABEL_PREFIX + planName] ?? '' };

    await this.api.patch(this.node, undefined, host.name, { metadata: { labels: hashLabel }, spec: { unschedulable: null } });
    labelled.set(host.name, { ...labelled.get(host.name), ...hashLabel });
  }
}
