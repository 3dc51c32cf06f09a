import { APPROVED_AT_ANNOTATION, readPool } from './pool';
import { specOf } from './pool-object';
import {
  describeNodeSelector, FleetCluster, FleetGroup, targetedClusters, targetsOf
} from './cluster-targets';
import { isRecord } from './text';

// What approving (or rolling back) a pool does to machines, in words, before the details: which
// clusters, how many nodes, whether they are cordoned, drained and rebooted, and how many at once.

export interface ImpactCluster {
  name: string;
  /** Nodes in the cluster (Fleet's report); undefined when unknown. */
  nodes?: number;
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
  /** undefined when the pool does not drain (`drain: null`). */
  drain?: { force: boolean; deleteLocalData: boolean; ignoreDaemonSets: boolean };
  /**
   * Elemental's upgrade reboots each node into the new image: rancher/elemental's suc-upgrade
   * script runs `elemental upgrade` and then `nsenter -i -m -t 1 -- reboot`.
   */
  reboot: true;
  concurrency: number;
}

/** The CRD's defaults (tests/fixtures/elemental/crds): drain with force, delete-local-data, ignore DaemonSets. */
const DEFAULT_DRAIN = {
  force: true, deleteLocalData: true, ignoreDaemonSets: true
};

export function approvalImpact(pool: unknown, clusters: readonly FleetCluster[], groups: readonly FleetGroup[]): ApprovalImpact {
  const spec = specOf(pool);
  const { namespace } = readPool(pool);
  const names = targetedClusters(namespace, targetsOf(pool), [...clusters], [...groups]);
  const byName = new Map(clusters.filter((c) => c.namespace === namespace).map((c) => [c.name, c]));
  const impactClusters = names.map((name) => ({ name, ...(byName.get(name)?.nodes === undefined ? {} : { nodes: byName.get(name)?.nodes }) }));
  const drainSpec = spec.drain;
  let drain: ApprovalImpact['drain'];

  if (drainSpec === undefined) {
    drain = { ...DEFAULT_DRAIN };
  } else if (isRecord(drainSpec)) {
    drain = {
      force: drainSpec.force === true, deleteLocalData: drainSpec.deleteLocalData === true || drainSpec.deleteEmptydirData === true, ignoreDaemonSets: drainSpec.ignoreDaemonSets === true
    };
  }

  return {
    clusters:        impactClusters,
    knownNodes:      impactClusters.reduce((sum, c) => sum + (c.nodes ?? 0), 0),
    unknownClusters: impactClusters.filter((c) => c.nodes === undefined).length,
    nodeSelector:    describeNodeSelector(spec.nodeSelector),
    cordon:          spec.cordon === true,
    drain,
    reboot:          true,
    concurrency:     typeof spec.concurrency === 'number' && spec.concurrency > 0 ? spec.concurrency : 1,
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
