// Fleet, simulated for the bundles the Elemental operator writes (rancher/fleet: a Bundle's
// targets select clusters; each cluster's agent applies the resources; the Bundle's Ready
// condition and summary say how many clusters are ready). Here the resources that matter are
// the upgrade Plan and its Secret: each targeted cluster's system-upgrade-controller (suc.ts)
// runs the Plan on that cluster's nodes (nodes.ts). A bundle change is seen after one step
// (WaitApplied), applied after another; the upgrade jobs then advance one phase per step.
//
// When a cluster is ready: the agent judges each applied resource with wrangler's summary
// (rancher/fleet internal/cmd/agent/deployer/monitor/updatestatus.go nonReady →
// wrangler pkg/summary Summarize). A Plan's conditions (LatestResolved, Validated, Complete) are
// in none of wrangler's condition tables and the Secret, ServiceAccount and RBAC have none, so the
// bundle is Ready as soon as the agents applied it, while the nodes are still upgrading or have
// failed: Fleet never reports a node's job.

import { BundleDeployments, deleting } from './bundle-deployments';
import { PartitionedRollout, applyFailures } from './fleet-partitions';
import { JsonObject, asObject, asString, isObject } from '../core/json';
import { matchesLabels, selectorFromObject } from '../kube/labels';
import { NodeRegistry, OSRelease } from '../suc/nodes';
import { ObjectApi } from '../kube/objects';
import { ResourceType } from '../kube/resource-types';
import { KubeObject, StoreEvent } from '../kube/store';
import { PlanObject, SystemUpgradeControllers } from '../suc/suc';
import { SYSTEM_ACTOR } from '../rancher/users';

export interface FleetOptions {
  /** Time between two rollout steps. */
  stepMs: number;
}

const BUNDLE = 'fleet.cattle.io.bundle';
const CLUSTER = 'fleet.cattle.io.cluster';

interface Deployment {
  /** The bundle spec Fleet deployed (JSON), to tell a spec change from a status write. */
  spec: string;
  /** Clusters (`namespace/name`) the bundle is on now, with the plan name. */
  clusters: string[];
  plan?: PlanObject;
  secret: string;
  /** Which clusters have the new plan, stage by stage (fleet-partitions.ts). */
  rollout: PartitionedRollout;
}

/** The Plan and its cloud-config Secret in a bundle's resources. */
export function planOfBundle(bundle: KubeObject): { plan?: PlanObject; secret: string } {
  const resources = Array.isArray(asObject(bundle.spec).resources) ? asObject(bundle.spec).resources as unknown[] : [];
  let plan: PlanObject | undefined;
  let secret = '';

  for (const resource of resources.filter(isObject)) {
    let object: JsonObject;

    try {
      object = asObject(JSON.parse(asString(resource.content) ?? ''));
    } catch {
      continue;
    }
    if (object.kind === 'Plan') {
      plan = { name: asString(asObject(object.metadata).name) ?? '', spec: asObject(object.spec) };
    } else if (object.kind === 'Secret') {
      secret = JSON.stringify(object.data ?? {});
    }
  }

  return { plan, secret };
}

/** The node count the seed gives a cluster: status.display.readyNodes (`3/3`), else 1. */
function nodeCount(cluster: KubeObject): number {
  const text = asString(asObject(asObject(cluster.status).display).readyNodes) ?? '';
  const total = Number(text.split('/')[1]);

  return Number.isInteger(total) && total > 0 ? total : 1;
}

/** The worst state of the clusters not ready (rancher/fleet pkg/apis bundle_types.go StateRank). */
const STATE_RANK = ['ErrApplied', 'WaitApplied', 'Modified', 'OutOfSync', 'Pending', 'NotReady'];

/**
 * The Bundle's status.display (rancher/fleet internal/cmd/controller/reconciler/bundle_status.go
 * updateDisplay): readyClusters `<ready>/<desired>`, and the state of its worst non-ready cluster
 * (summary.go GetSummaryState), left out when all are ready.
 */
function displayOf(summary: JsonObject): JsonObject {
  const states = (Array.isArray(summary.nonReadyResources) ? summary.nonReadyResources : []).map((r) => asString(asObject(r).bundleState) ?? '');
  const state = STATE_RANK.find((s) => states.includes(s));

  return { readyClusters: `${ summary.ready ?? 0 }/${ summary.desiredReady ?? 0 }`, ...(state ? { state } : {}) };
}

export class FleetSimulator {
  private readonly deployments = new Map<string, Deployment>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private ticker?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private readonly bundleDeployments: BundleDeployments;

  constructor(
    private readonly api: ObjectApi,
    private readonly options: FleetOptions,
    readonly nodes: NodeRegistry,
    readonly suc: SystemUpgradeControllers,
  ) {
    this.bundleDeployments = new BundleDeployments(api);
  }

  private type(id: string): ResourceType {
    return this.api.types.require(id);
  }

  start(): void {
    this.unsubscribe = this.api.store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.deployments.clear();
    applyFailures.clear();
  }

  /** Nodes for every Fleet cluster, as the seed says (each runs `release` until a plan says otherwise). */
  seedNodes(release?: OSRelease): void {
    for (const cluster of this.api.list(this.type(CLUSTER)).items) {
      this.nodes.ensure(cluster.metadata.namespace ?? '', cluster.metadata.name, nodeCount(cluster), release);
    }
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);

    timer.unref();
    this.timers.add(timer);
  }

  private onEvent(event: StoreEvent): void {
    if (event.type !== BUNDLE) {
      return;
    }
    const key = `${ event.object.metadata.namespace }/${ event.object.metadata.name }`;

    if (event.action === 'remove' || deleting(event.object)) {
      // After the event, as a controller reacts to its watch: a write from inside a store listener
      // would reach the listeners after this one (Steve's watches) before the event itself.
      setImmediate(() => {
        this.undeploy(key);
        this.bundleDeployments.remove(this.bundle(key) ?? event.object);
      });

      return;
    }
    const spec = JSON.stringify(event.object.spec ?? {});

    if (this.deployments.get(key)?.spec !== spec) {
      this.later(this.options.stepMs, () => this.deploy(key, false));
    }
  }

  /** Brings a bundle straight to its final state (seeded pools start settled). */
  settle(namespace: string, name: string): void {
    this.deploy(`${ namespace }/${ name }`, true);
  }

  private bundle(key: string): KubeObject | undefined {
    const [namespace, name] = key.split('/');

    return this.api.find(this.type(BUNDLE), namespace, name);
  }

  /** Fleet saw a new bundle spec: WaitApplied on every target, then (a step later) the agents apply it. */
  private deploy(key: string, instant: boolean): void {
    const bundle = this.bundle(key);

    if (!bundle) {
      return;
    }
    const spec = JSON.stringify(bundle.spec ?? {});
    const previous = this.deployments.get(key);

    if (previous?.spec === spec) {
      return;
    }
    const clusters = this.targetClusters(bundle);
    const { plan, secret } = planOfBundle(bundle);
    const names = clusters.map((c) => `${ c.metadata.namespace }/${ c.metadata.name }`);

    // Clusters no longer targeted lose the plan.
    for (const gone of (previous?.clusters ?? []).filter((c) => !names.includes(c) || previous?.plan?.name !== plan?.name)) {
      const [namespace, cluster] = gone.split('/');

      if (previous?.plan) {
        this.suc.remove(namespace, cluster, previous.plan.name);
      }
    }
    const rollout = new PartitionedRollout(asObject(asObject(bundle.spec).rolloutStrategy), clusters, this.api.list(this.type('fleet.cattle.io.clustergroup'), { namespace: bundle.metadata.namespace }).items);
    const deployment: Deployment = {
      spec, clusters: names, plan, secret, rollout
    };
    const apply = (settle: boolean) => (name: string) => {
      const [namespace, cluster] = name.split('/');

      if (plan) {
        (settle ? this.suc.settle : this.suc.apply).call(this.suc, namespace, cluster, plan, secret);
      }
    };

    this.deployments.set(key, deployment);
    this.bundleDeployments.sync(bundle, clusters);
    for (const cluster of clusters) {
      this.nodes.ensure(cluster.metadata.namespace ?? '', cluster.metadata.name, nodeCount(cluster));
    }
    if (instant) {
      rollout.settle(apply(true));
    } else {
      rollout.step(apply(false));
      this.startTicker();
    }
    this.writeStatus(key);
  }

  private undeploy(key: string): void {
    const deployment = this.deployments.get(key);

    for (const name of deployment?.clusters ?? []) {
      const [namespace, cluster] = name.split('/');

      if (deployment?.plan) {
        this.suc.remove(namespace, cluster, deployment.plan.name);
      }
    }
    this.deployments.delete(key);
  }

  private startTicker(): void {
    if (this.ticker) {
      return;
    }
    this.ticker = setInterval(() => this.tick(), this.options.stepMs);
    this.ticker.unref();
  }

  /** One rollout step: the agents apply, Fleet starts the clusters its partitions allow, the jobs move on (Fleet's status does not follow them). */
  tick(): void {
    for (const [key, deployment] of this.deployments) {
      if (!deployment.rollout.done()) {
        deployment.rollout.step((name) => {
          const [namespace, cluster] = name.split('/');

          if (deployment.plan) {
            this.suc.apply(namespace, cluster, deployment.plan, deployment.secret);
          }
        });
        this.writeStatus(key);
      }
    }
    this.suc.tick();
    // Kept Jobs keep it going too: their TTL is handled at a step (suc.ts).
    if (!this.suc.busy() && !this.suc.keeping() && [...this.deployments.values()].every((d) => d.rollout.done())) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** The bundle's summary, partitions and Ready condition, as Fleet reports them (fleet-partitions.ts). */
  private writeStatus(key: string): void {
    const deployment = this.deployments.get(key);
    const bundle = this.bundle(key);

    if (!deployment || !bundle) {
      return;
    }
    const message = deployment.rollout.readyMessage();
    const rolloutStatus = deployment.rollout.status();
    const summary = asObject(rolloutStatus.summary);
    const status = {
      ...rolloutStatus,
      // Set in the reconcile that computes the summary (rancher/fleet
      // internal/cmd/controller/reconciler/bundle_controller.go: `bundle.Status.ObservedGeneration = bundle.Generation`).
      observedGeneration: bundle.metadata.generation,
      display:            displayOf(summary),
      // An empty message is left out (wrangler's condition setter, as recorded).
      conditions:         [{
        type: 'Ready', status: message ? 'False' : 'True', ...(message ? { message } : {})
      }],
    };

    this.api.update(this.type(BUNDLE), bundle.metadata.namespace, bundle.metadata.name, { ...bundle, status }, SYSTEM_ACTOR, 'status');
  }

  /** The Fleet clusters a bundle's targets select. */
  targetClusters(bundle: KubeObject): KubeObject[] {
    const namespace = bundle.metadata.namespace;
    const clusters = this.api.list(this.type(CLUSTER), { namespace }).items;
    const groups = this.api.list(this.type('fleet.cattle.io.clustergroup'), { namespace }).items;
    const targets = (Array.isArray(asObject(bundle.spec).targets) ? asObject(bundle.spec).targets as unknown[] : []).filter(isObject);

    return clusters.filter((cluster) => targets.some((target) => this.targetMatches(target, cluster, groups)));
  }

  private targetMatches(target: JsonObject, cluster: KubeObject, groups: KubeObject[]): boolean {
    const labels = cluster.metadata.labels;

    if (asString(target.clusterName) && target.clusterName !== cluster.metadata.name) {
      return false;
    }
    if (isObject(target.clusterSelector) && !matchesLabels(selectorFromObject(target.clusterSelector), labels)) {
      return false;
    }
    const groupName = asString(target.clusterGroup);

    if (groupName) {
      const group = groups.find((g) => g.metadata.name === groupName);

      if (!group || !matchesLabels(selectorFromObject(asObject(group.spec).selector), labels)) {
        return false;
      }
    }
    if (isObject(target.clusterGroupSelector)) {
      const selector = selectorFromObject(target.clusterGroupSelector);
      const matching = groups.filter((g) => matchesLabels(selector, g.metadata.labels));

      if (!matching.some((g) => matchesLabels(selectorFromObject(asObject(g.spec).selector), labels))) {
        return false;
      }
    }

    return !!(asString(target.clusterName) || isObject(target.clusterSelector) || groupName || isObject(target.clusterGroupSelector));
  }
}
