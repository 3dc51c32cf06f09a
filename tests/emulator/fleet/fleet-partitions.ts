// Fleet's staged rollout of one bundle over its clusters, as the bundle controller walks it
// (rancher/fleet internal/cmd/controller/reconciler/bundle_controller.go calls
// target.UpdatePartitions on each reconcile):
// - the clusters are cut in partitions (internal/cmd/controller/target/rollout.go: manualPartition
//   collects, per partition in order, every target its clusterName / clusterGroup /
//   clusterGroupSelector / clusterSelector all match, matcher/clustermatcher.go; autoPartition keeps
//   one partition "All" below 200 targets or with autoPartitionSize <= 0, else slices of
//   autoPartitionSize, default 25%);
// - limits: internal/cmd/controller/target/status.go limit (an int as is, "N%" of the count rounded
//   down, at least 1; default 100%), maxUnavailablePartitions default 0 (target/builder.go);
// - each pass (target/partition.go UpdatePartitions): per partition in order, an out-of-date cluster
//   gets the new deployment only while fewer than the bundle's and the partition's maxUnavailable are
//   unavailable (updateDeploymentFromStaged); a partition with more unavailable (not up to date or
//   not ready, status.go) than its maxUnavailable counts as unavailable, and once more partitions
//   are unavailable than maxUnavailablePartitions the pass stops: later partitions wait.
// A cluster given the deployment is applied by its agent a step later, unless a test made its agent
// fail (`POST /__emulator/fleet/apply-failure`): it then stays ErrApplied and unavailable.

import { JsonObject, asObject, asString, isObject } from '../core/json';
import { matchesLabels, selectorFromObject } from '../kube/labels';
import { KubeObject } from '../kube/store';

type ClusterState = 'old' | 'applying' | 'ready' | 'failed';

interface Partition {
  name: string;
  clusters: string[];
  maxUnavailable: number;
}

const AUTO_PARTITION_MINIMUM = 200;

/** status.go limit; a value Fleet refuses is taken as 1 here (Fleet would fail the bundle). */
export function fleetLimit(count: number, ...values: unknown[]): number {
  if (count <= 0) {
    return 1;
  }
  const value = values.find((v) => v !== undefined && v !== null) ?? '100%';

  if (typeof value === 'number') {
    return value;
  }
  const text = String(value);

  if (/^\d+$/.test(text) && Number(text) > 0) {
    return Number(text);
  }
  const percent = text.endsWith('%') ? Number(text.slice(0, -1)) : NaN;

  if (!Number.isFinite(percent)) {
    return 1;
  }

  return percent <= 0 ? 1 : Math.max(1, Math.floor(Math.floor(count * percent) / 100));
}

function partitionMatches(def: JsonObject, cluster: KubeObject, groups: KubeObject[]): boolean {
  const name = asString(def.clusterName);
  const group = asString(def.clusterGroup);
  const clusterSelector = isObject(def.clusterSelector) ? selectorFromObject(def.clusterSelector) : undefined;
  const groupSelector = isObject(def.clusterGroupSelector) ? selectorFromObject(def.clusterGroupSelector) : undefined;

  if (!name && !group && !clusterSelector && !groupSelector) {
    return false;
  }
  if ((name && name !== cluster.metadata.name) || (clusterSelector && !matchesLabels(clusterSelector, cluster.metadata.labels))) {
    return false;
  }
  const memberOf = groups.filter((g) => matchesLabels(selectorFromObject(asObject(g.spec).selector), cluster.metadata.labels));
  const fits = (g?: KubeObject) => (!group || g?.metadata.name === group) && (!groupSelector || matchesLabels(groupSelector, g?.metadata.labels ?? {}));

  return memberOf.length ? memberOf.some(fits) : fits(undefined);
}

/** rollout.go partitions: named partitions from the strategy, else the automatic ones. */
export function partitionsOf(strategy: JsonObject, clusters: KubeObject[], groups: KubeObject[]): Partition[] {
  const names = clusters.map((c) => `${ c.metadata.namespace }/${ c.metadata.name }`);
  const defs = Array.isArray(strategy.partitions) ? strategy.partitions.filter(isObject) : [];

  if (defs.length) {
    return defs.map((def) => {
      const members = clusters.filter((c) => partitionMatches(def, c, groups)).map((c) => `${ c.metadata.namespace }/${ c.metadata.name }`);

      return {
        name: asString(def.name) ?? '', clusters: members, maxUnavailable: fleetLimit(members.length, def.maxUnavailable, strategy.maxUnavailable)
      };
    });
  }
  const size = strategy.autoPartitionSize;

  if ((typeof size === 'number' && size <= 0) || names.length < AUTO_PARTITION_MINIMUM) {
    return [{
      name: 'All', clusters: names, maxUnavailable: fleetLimit(names.length, strategy.maxUnavailable)
    }];
  }
  const chunk = fleetLimit(names.length, size, '25%');
  const out: Partition[] = [];

  for (let offset = 0; offset < names.length; offset += chunk) {
    const part = names.slice(offset, offset + chunk);

    out.push({
      name: `Partition ${ offset } - ${ offset + part.length }`, clusters: part, maxUnavailable: fleetLimit(part.length, strategy.maxUnavailable)
    });
  }

  return out;
}

/** Clusters (`namespace/name`) whose Fleet agent fails to apply, with the message it reports. */
export const applyFailures = new Map<string, string>();

export class PartitionedRollout {
  private readonly states = new Map<string, ClusterState>();
  private readonly partitions: Partition[];
  private unavailablePartitions = 0;

  constructor(private readonly strategy: JsonObject, clusters: KubeObject[], groups: KubeObject[]) {
    this.partitions = partitionsOf(strategy, clusters, groups);
    for (const cluster of clusters) {
      this.states.set(`${ cluster.metadata.namespace }/${ cluster.metadata.name }`, 'old');
    }
  }

  get clusters(): string[] {
    return [...this.states.keys()];
  }

  private unavailable(cluster: string): boolean {
    return this.states.get(cluster) !== 'ready';
  }

  /**
   * One step: the agents apply what they were given a step ago (`apply` puts the Plan on the
   * cluster), then one controller pass gives the deployment to the clusters the limits allow.
   */
  step(apply: (cluster: string) => void): void {
    for (const [cluster, state] of this.states) {
      if (state === 'applying' && !applyFailures.has(cluster)) {
        this.states.set(cluster, 'ready');
        apply(cluster);
      } else if (state === 'applying' || (state === 'failed' && !applyFailures.has(cluster))) {
        this.states.set(cluster, applyFailures.has(cluster) ? 'failed' : 'applying');
      }
    }
    this.pass();
  }

  /** Everything at once (a seeded pool starts rolled out). */
  settle(apply: (cluster: string) => void): void {
    for (const cluster of this.states.keys()) {
      this.states.set(cluster, 'ready');
      apply(cluster);
    }
  }

  private pass(): void {
    const all = this.clusters;
    const bundleMax = fleetLimit(all.length, this.strategy.maxUnavailable);
    const maxUnavailablePartitions = fleetLimit(this.partitions.length, this.strategy.maxUnavailablePartitions, 0);
    let bundleUnavailable = all.filter((c) => this.states.get(c) !== 'old' && this.unavailable(c)).length;

    this.unavailablePartitions = 0;
    for (const partition of this.partitions) {
      let partitionUnavailable = partition.clusters.filter((c) => this.states.get(c) !== 'old' && this.unavailable(c)).length;

      for (const cluster of partition.clusters) {
        if (this.states.get(cluster) === 'old' && bundleUnavailable < bundleMax && partitionUnavailable < partition.maxUnavailable) {
          this.states.set(cluster, 'applying');
          bundleUnavailable++;
          partitionUnavailable++;
        }
      }
      if (partition.clusters.filter((c) => this.unavailable(c)).length > partition.maxUnavailable) {
        this.unavailablePartitions++;
      }
      if (this.unavailablePartitions > maxUnavailablePartitions) {
        break;
      }
    }
  }

  done(): boolean {
    return [...this.states.values()].every((state) => state === 'ready');
  }

  /**
   * Clusters not ready, each with Fleet's state for it (rancher/fleet internal/cmd/controller/summary/summary.go
   * GetDeploymentState): OutOfSync while a later partition waits, WaitApplied until the agent applied,
   * ErrApplied when the agent failed.
   */
  private nonReady(clusters: string[]): JsonObject[] {
    const stateOf: Record<ClusterState, string> = {
      old: 'OutOfSync', applying: 'WaitApplied', failed: 'ErrApplied', ready: 'Ready'
    };

    return clusters.filter((c) => this.unavailable(c)).map((c) => ({
      kind: 'Cluster', name: c, bundleState: stateOf[this.states.get(c) ?? 'old'], message: this.states.get(c) === 'failed' ? applyFailures.get(c) ?? '' : ''
    }));
  }

  private summary(clusters: string[]): JsonObject {
    const nonReady = this.nonReady(clusters);

    const counts: JsonObject = {
      desiredReady:      clusters.length,
      ready:             clusters.length - nonReady.length,
      waitApplied:       nonReady.filter((r) => r.bundleState === 'WaitApplied').length,
      outOfSync:         nonReady.filter((r) => r.bundleState === 'OutOfSync').length,
      errApplied:        nonReady.filter((r) => r.bundleState === 'ErrApplied').length,
      nonReadyResources: nonReady,
    };

    // rancher/fleet pkg/apis fleet.cattle.io/v1alpha1/bundle_types.go BundleSummary: every field but
    // ready and desiredReady is `omitempty`, so a ready bundle's summary is those two alone (recorded:
    // tests/conformance/recordings/fleet-bundles.json).
    return Object.fromEntries(Object.entries(counts).filter(([key, value]) => key === 'ready' || key === 'desiredReady' || (Array.isArray(value) ? value.length > 0 : value !== 0)));
  }

  /** The bundle status fields of a partitioned rollout (fleet.cattle.io/v1alpha1 BundleStatus, PartitionStatus). */
  status(): JsonObject {
    const all = this.clusters;

    return {
      summary:                  this.summary(all),
      maxUnavailable:           fleetLimit(all.length, this.strategy.maxUnavailable),
      unavailable:              all.filter((c) => this.unavailable(c)).length,
      maxUnavailablePartitions: fleetLimit(this.partitions.length, this.strategy.maxUnavailablePartitions, 0),
      unavailablePartitions:    this.unavailablePartitions,
      partitions:               this.partitions.map((p) => ({
        name: p.name, count: p.clusters.length, maxUnavailable: p.maxUnavailable, unavailable: p.clusters.filter((c) => this.unavailable(c)).length, summary: this.summary(p.clusters)
      })),
    };
  }

  /**
   * The Ready condition's message (rancher/fleet internal/cmd/controller/summary/summary.go
   * ReadyMessage): per state the count and only the first cluster in it, `State(n) [Cluster ns/name]`,
   * an ErrApplied one with the agent's message; '' when every cluster is ready.
   */
  readyMessage(): string {
    const nonReady = this.nonReady(this.clusters);

    return ['ErrApplied', 'WaitApplied', 'OutOfSync'].flatMap((state) => {
      const inState = nonReady.filter((r) => r.bundleState === state);
      const first = inState[0];

      return first ? [`${ state }(${ inState.length }) [Cluster ${ first.name }${ first.message ? `: ${ first.message }` : '' }]`] : [];
    }).join('; ');
  }
}
