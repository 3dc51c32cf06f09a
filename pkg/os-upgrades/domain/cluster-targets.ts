import type { Reason } from './types';
import { matchesLabelSelector } from './label-selector';
import { specOf } from './pool-object';
import { isRecord } from './text';

// Fleet's target rules, as far as this page needs them: which clusters a pool's
// `spec.clusterTargets` select, and whether two pools could upgrade the same machines.

export interface FleetCluster {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  /** Nodes Fleet's agent reports (`status.display.readyNodes`, "ready/total"); undefined when unknown. */
  nodes?: number;
}

export interface FleetGroup {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  selector: unknown;
}

function metadataOf(obj: unknown): Record<string, unknown> {
  return isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
}

function labelsOf(obj: unknown): Record<string, string> {
  const labels = metadataOf(obj).labels;

  return isRecord(labels) ? Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])) : {};
}

/** rancher/fleet pkg/apis/fleet.cattle.io/v1alpha1/cluster_types.go, ClusterDisplay.ReadyNodes: "ready/total". */
function nodeTotal(obj: unknown): number | undefined {
  const status = isRecord(obj) && isRecord(obj.status) ? obj.status : {};
  const display = isRecord(status.display) ? status.display : {};
  const match = typeof display.readyNodes === 'string' ? /^\s*\d+\s*\/\s*(\d+)\s*$/.exec(display.readyNodes) : null;

  return match ? Number(match[1]) : undefined;
}

export function toFleetCluster(obj: unknown): FleetCluster {
  const metadata = metadataOf(obj);
  const nodes = nodeTotal(obj);

  return {
    name: String(metadata.name ?? ''), namespace: String(metadata.namespace ?? ''), labels: labelsOf(obj), ...(nodes === undefined ? {} : { nodes })
  };
}

export function toFleetGroup(obj: unknown): FleetGroup {
  const metadata = metadataOf(obj);

  return {
    name:      String(metadata.name ?? ''),
    namespace: String(metadata.namespace ?? ''),
    labels:    labelsOf(obj),
    selector:  specOf(obj).selector,
  };
}

/** Kubernetes label selector semantics (matchesLabelSelector); an empty selector matches everything, a missing one nothing. */
export function matchesSelector(selector: unknown, labels: Record<string, string>): boolean {
  return isRecord(selector) && matchesLabelSelector(selector, labels);
}

function inGroup(cluster: FleetCluster, group: FleetGroup): boolean {
  return group.namespace === cluster.namespace && matchesSelector(group.selector, cluster.labels);
}

/** One Fleet target: every criterion it sets must hold; a target that sets none selects nothing. */
function targetMatches(target: Record<string, unknown>, cluster: FleetCluster, groups: FleetGroup[]): boolean {
  const {
    clusterName, clusterSelector, clusterGroup, clusterGroupSelector
  } = target;

  if (!clusterName && !isRecord(clusterSelector) && !clusterGroup && !isRecord(clusterGroupSelector)) {
    return false;
  }
  if (clusterName && clusterName !== cluster.name) {
    return false;
  }
  if (isRecord(clusterSelector) && !matchesSelector(clusterSelector, cluster.labels)) {
    return false;
  }
  const memberOf = groups.filter((group) => inGroup(cluster, group));

  if (clusterGroup && !memberOf.some((group) => group.name === clusterGroup)) {
    return false;
  }
  if (isRecord(clusterGroupSelector) && !memberOf.some((group) => matchesSelector(clusterGroupSelector, group.labels))) {
    return false;
  }

  return true;
}

export function targetsOf(obj: unknown): Record<string, unknown>[] {
  const targets = specOf(obj).clusterTargets;

  return Array.isArray(targets) ? targets.filter(isRecord) : [];
}

/** Names of the Fleet clusters a pool's targets select (a fleet-local pool without targets: the local cluster). */
export function targetedClusters(namespace: string, targets: Record<string, unknown>[], clusters: FleetCluster[], groups: FleetGroup[]): string[] {
  if (namespace === 'fleet-local' && !targets.length) {
    return ['local'];
  }

  return clusters
    .filter((cluster) => cluster.namespace === namespace && targets.some((target) => targetMatches(target, cluster, groups)))
    .map((cluster) => cluster.name);
}

/** False only when both node selectors require one label with different values. */
export function nodeSelectorsMayOverlap(a: unknown, b: unknown): boolean {
  const labelsA = isRecord(a) && isRecord(a.matchLabels) ? a.matchLabels : {};
  const labelsB = isRecord(b) && isRecord(b.matchLabels) ? b.matchLabels : {};

  return Object.entries(labelsA).every(([key, value]) => !(key in labelsB) || String(labelsB[key]) === String(value));
}

export interface Overlap {
  pool: string;
  clusters: string[];
}

/** Other pools of the same namespace that could upgrade the same machines as `draft`. */
export function overlappingPools(draft: { name: string; namespace: string; targets: Record<string, unknown>[]; nodeSelector: unknown }, pools: unknown[], clusters: FleetCluster[], groups: FleetGroup[]): Overlap[] {
  const mine = new Set(targetedClusters(draft.namespace, draft.targets, clusters, groups));

  if (!mine.size) {
    return [];
  }
  // Only the draft's clusters can be shared: each other pool's targets are matched against those
  // alone (a pool often targets one cluster of many; the pool form asks on every change).
  const candidates = clusters.filter((cluster) => mine.has(cluster.name));

  return pools.flatMap((pool) => {
    const metadata = metadataOf(pool);

    if (metadata.namespace !== draft.namespace || metadata.name === draft.name || !nodeSelectorsMayOverlap(draft.nodeSelector, specOf(pool).nodeSelector)) {
      return [];
    }
    const shared = targetedClusters(draft.namespace, targetsOf(pool), candidates, groups).filter((name) => mine.has(name));

    return shared.length ? [{ pool: String(metadata.name), clusters: shared }] : [];
  });
}

function labelText(selector: unknown): string {
  if (!isRecord(selector)) {
    return '';
  }
  const labels = isRecord(selector.matchLabels) ? Object.entries(selector.matchLabels).map(([k, v]) => `${ k }=${ v }`) : [];
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isRecord).map((e) => `${ e.key } ${ e.operator }${ Array.isArray(e.values) ? ` (${ e.values.join(', ') })` : '' }`) : [];

  return [...labels, ...expressions].join(', ');
}

/** A target as an l10n key (`osUpgrades.pools.target.*`) with its values, for display. */
export function describeTarget(target: Record<string, unknown>): Reason {
  const prefix = 'osUpgrades.pools.target';

  if (target.clusterName) {
    return { key: `${ prefix }.clusterName`, values: { name: String(target.clusterName) } };
  }
  if (target.clusterGroup) {
    return { key: `${ prefix }.clusterGroup`, values: { name: String(target.clusterGroup) } };
  }
  if (isRecord(target.clusterSelector)) {
    const labels = labelText(target.clusterSelector);

    return labels ? { key: `${ prefix }.clusterSelector`, values: { labels } } : { key: `${ prefix }.allClusters` };
  }
  if (isRecord(target.clusterGroupSelector)) {
    return { key: `${ prefix }.clusterGroupSelector`, values: { labels: labelText(target.clusterGroupSelector) } };
  }

  return { key: `${ prefix }.other`, values: { name: String(target.name ?? '') } };
}

/** `key=value` texts of a node selector. */
export function describeNodeSelector(selector: unknown): string {
  return labelText(selector);
}
