import { readPool } from './pool';
import { specOf } from './pool-object';
import {
  describeNodeSelector, FleetCluster, FleetGroup, targetedClusters, targetsOf
} from './cluster-targets';
import { isRecord } from './text';
import { APPROVED_AT_ANNOTATION } from './keys';

// What approving (or rolling back) a pool does to machines, in words, before the details: which
// clusters, how many nodes, whether they are cordoned, drained and rebooted, and how many at once.

export interface ImpactCluster {
  name: string;
  /** Nodes in the cluster (Fleet's report); undefined when unknown. */
  nodes?: number;
}

/**
 * Where a value of the impact comes from: the pool's spec, or a default applied because the spec
 * leaves it out. `drain`: the node is cordoned because it is drained, whatever `cordon` says.
 */
export type ImpactSource = 'pool' | 'operatorDefault' | 'crdDefault' | 'sucDefault' | 'drain';

export interface ImpactDrain {
  force: boolean;
  deleteLocalData: boolean;
  ignoreDaemonSets: boolean;
  /** Seconds after which pods whose deletion is pending are skipped (`--skip-wait-for-delete-timeout`). */
  skipWaitForDeleteTimeout?: number;
  /** The drain options the pool leaves out, and the system-upgrade-controller's default applies to. */
  sucDefaults: ('deleteLocalData' | 'ignoreDaemonSets')[];
}

export interface ApprovalImpact {
  clusters: ImpactCluster[];
  /** Nodes of the targeted clusters whose count is known. */
  knownNodes: number;
  /** Targeted clusters whose node count is unknown. */
  unknownClusters: number;
  /** The node selector in words; '' when every node of the clusters is upgraded. */
  nodeSelector: string;
  cordon: boolean;
  cordonSource: 'pool' | 'operatorDefault' | 'drain';
  /** undefined when the pool does not drain (`drain: null`). */
  drain?: ImpactDrain;
  drainSource: 'pool' | 'crdDefault';
  /**
   * Elemental's upgrade reboots each node into the new image: rancher/elemental's suc-upgrade
   * script runs `elemental upgrade` and then `nsenter -i -m -t 1 -- reboot`.
   */
  reboot: true;
  concurrency: number;
  concurrencySource: 'pool' | 'operatorDefault';
}

/**
 * The CRD's default for a missing `drain` (elemental-operator api/v1beta1/managedosimage_types.go,
 * `+kubebuilder:default:={"force":true,"skipWaitForDeleteTimeout":60,"ignoreDaemonSets":true,"deleteLocalData":true}`,
 * `+nullable`: `drain: null` is kept and means no drain).
 */
const CRD_DEFAULT_DRAIN: ImpactDrain = {
  force: true, deleteLocalData: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60, sucDefaults: []
};

/** elemental-operator controllers/managedosimage_controller.go: `cordon := true` and `concurrency := int64(1)` unless the spec sets them. */
export const OPERATOR_DEFAULT_CORDON = true;
export const OPERATOR_DEFAULT_CONCURRENCY = 1;

/**
 * A drain the pool sets, as the system-upgrade-controller runs it (pkg/upgrade/job/job.go): an
 * unset `ignoreDaemonSets` ignores DaemonSets, unset `deleteLocalData` and `deleteEmptydirData`
 * delete emptyDir data, an unset `force` is false.
 */
function poolDrain(spec: Record<string, unknown>): ImpactDrain {
  const sucDefaults: ImpactDrain['sucDefaults'] = [];
  const localData = [spec.deleteLocalData, spec.deleteEmptydirData];

  if (typeof spec.ignoreDaemonSets !== 'boolean') {
    sucDefaults.push('ignoreDaemonSets');
  }
  if (localData.every((v) => typeof v !== 'boolean')) {
    sucDefaults.push('deleteLocalData');
  }
  const skip = spec.skipWaitForDeleteTimeout;

  return {
    force:            spec.force === true,
    deleteLocalData:  localData.every((v) => v !== false),
    ignoreDaemonSets: spec.ignoreDaemonSets !== false,
    ...(typeof skip === 'number' && skip > 0 ? { skipWaitForDeleteTimeout: skip } : {}),
    sucDefaults,
  };
}

/**
 * The API server fills the CRD's default into a pool created without `drain`, so a drain equal to it
 * reads as that default (a pool that typed the same values gets the same drain).
 */
function isCrdDefaultDrain(drain: unknown): boolean {
  if (!isRecord(drain)) {
    return false;
  }
  const keys = Object.keys(drain).filter((key) => drain[key] !== undefined && drain[key] !== null);

  return keys.length === 4 && drain.force === true && drain.ignoreDaemonSets === true && drain.deleteLocalData === true && drain.skipWaitForDeleteTimeout === CRD_DEFAULT_DRAIN.skipWaitForDeleteTimeout;
}

export function approvalImpact(pool: unknown, clusters: readonly FleetCluster[], groups: readonly FleetGroup[]): ApprovalImpact {
  const spec = specOf(pool);
  const { namespace } = readPool(pool);
  const names = targetedClusters(namespace, targetsOf(pool), [...clusters], [...groups]);
  const byName = new Map(clusters.filter((c) => c.namespace === namespace).map((c) => [c.name, c]));
  const impactClusters = names.map((name) => ({ name, ...(byName.get(name)?.nodes === undefined ? {} : { nodes: byName.get(name)?.nodes }) }));
  const drainSpec = spec.drain;
  let drain: ImpactDrain | undefined;

  if (drainSpec === undefined) {
    drain = { ...CRD_DEFAULT_DRAIN, sucDefaults: [] };
  } else if (isRecord(drainSpec)) {
    drain = poolDrain(drainSpec);
  }
  const cordonSet = typeof spec.cordon === 'boolean';
  const cordon = cordonSet ? spec.cordon === true : OPERATOR_DEFAULT_CORDON;
  const concurrencySet = typeof spec.concurrency === 'number' && spec.concurrency > 0;

  return {
    clusters:          impactClusters,
    knownNodes:        impactClusters.reduce((sum, c) => sum + (c.nodes ?? 0), 0),
    unknownClusters:   impactClusters.filter((c) => c.nodes === undefined).length,
    nodeSelector:      describeNodeSelector(spec.nodeSelector),
    // The system-upgrade-controller cordons a node it drains, whatever `cordon` says (its PlanSpec.Cordon).
    cordon:            cordon || drain !== undefined,
    cordonSource:      !cordon && drain ? 'drain' : (cordonSet ? 'pool' : 'operatorDefault'),
    drain,
    drainSource:       drainSpec === undefined || isCrdDefaultDrain(drainSpec) ? 'crdDefault' : 'pool',
    reboot:            true,
    concurrency:       concurrencySet ? spec.concurrency as number : OPERATOR_DEFAULT_CONCURRENCY,
    concurrencySource: concurrencySet ? 'pool' : 'operatorDefault',
  };
}

/**
 * The object an approval writes, for display before the click: its `approved-at` is the time of
 * the click, not of drawing the dialog, so it shows `text` (e.g. "the time you approve") instead.
 */
export function withApprovalTimeShownAs(object: unknown, text: string): unknown {
  if (!isRecord(object) || !isRecord(object.metadata) || !isRecord(object.metadata.annotations) || !(APPROVED_AT_ANNOTATION in object.metadata.annotations)) {
    return object;
  }

  return { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [APPROVED_AT_ANNOTATION]: text } } };
}
