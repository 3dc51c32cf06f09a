// A pool's rollout as its clusters show it, node by node (docs/architecture.md, "Rollout state").
// Fleet's Ready only says the bundle (with the upgrade Plan) was applied on a cluster; the node
// state is in that cluster, read through Rancher at /k8s/clusters/<cluster id>/v1:
// - the system-upgrade-controller's Plan `os-upgrader-<pool>` in cattle-system
//   (elemental-operator newFleetBundleResources): status.latestVersion (the image tag the Plan
//   applies), status.latestHash, status.applying (nodes with a job now);
// - its Jobs (labels upgrade.cattle.io/node and /plan, plan.upgrade.cattle.io/<plan> = the hash
//   they apply; condition Failed=True when the job failed; status.ready > 0 once the upgrade
//   container runs, after the cordon/drain init containers);
// - the Nodes: label plan.upgrade.cattle.io/<plan> = the hash of the last job that succeeded
//   there (system-upgrade-controller pkg/upgrade/handle_batch.go), spec.unschedulable (cordoned),
//   the Ready condition (not True while the host reboots), and Elemental's label
//   elemental.cattle.io/tag: the tag of the image the host booted (node-report.ts; osImage is the
//   distribution's PRETTY_NAME and never names a tag).
// A node is on the pool's image when its tag label names the pinned tag. A node whose job for
// the pinned Plan succeeded but that reports no tag is "unknown": suc-upgrade exits 0 without
// upgrading a host that runs a higher version, so only the label tells.
// A failed Job is deleted after its TTL and the Plan makes a new one (system-upgrade-controller
// handle_batch.go, handle_core.go): the Plan's Complete condition keeps the last failure, so a
// node being retried says so.
import { nodeLabelProblems } from './node-labels';
import type { OSVersion, Reason } from './types';
import { imageParts } from './image-tag';
import { matchesLabelSelector } from './label-selector';
import { nodeImage, planFailure, PlanFailure } from './node-report';
import { asRecord, asText, isRecord } from './text';
import { bundlePools } from './bundle-delivery';
import { JOB_NAME_LABEL, JOB_NODE_LABEL, JOB_PLAN_LABEL, PLAN_LABEL_PREFIX } from './keys';

const MAX_NAME = 63;

/** What a pool's nodes should run. */
export interface RolloutTarget {
  /** The pool (ManagedOSImage) name: its Plan is named after it. */
  pool: string;
  /** The image the pool pins ('' when unknown). */
  image: string;
  /** Its tag: the Plan's version once the operator and Fleet delivered it. */
  tag: string;
  /** The pool's spec.nodeSelector, for clusters whose Plan has not arrived yet. */
  nodeSelector?: unknown;
}

/** `unknown`: nothing the person may read tells where the node stands (no tag label, or no rights on Plans and Jobs). */
export type NodeRolloutState = 'updated' | 'waiting' | 'draining' | 'upgrading' | 'rebooting' | 'failed' | 'other' | 'unknown';

export const NODE_ROLLOUT_STATES: readonly NodeRolloutState[] = ['updated', 'waiting', 'draining', 'upgrading', 'rebooting', 'failed', 'other', 'unknown'];

/** The upgrade objects a person may not read in a cluster whose nodes they read. */
export type HiddenKind = 'plans' | 'jobs';

/** One targeted node. */
export interface NodeRolloutRow {
  /** `<cluster id>/<node>`, unique across clusters. */
  id: string;
  /** The Fleet cluster's name. */
  cluster: string;
  clusterId: string;
  node: string;
  /** status.nodeInfo.osImage ('' when not reported): the distribution's name. */
  image: string;
  /** The image tag the node booted (label elemental.cattle.io/tag), when it says. */
  tag?: string;
  /**
   * The node is not Ready and the pool's image gives it a label the kubelet refuses (rule "Node
   * labels of an image"): it may have booted the image and never come back.
   */
  labelRefused?: { key: string; length: number };
  /** The tag label and the Plan's hash on the node disagree (nodeImage `stale`): what each says. */
  staleLabel?: { label: string; plan: string };
  /**
   * The node carries the Plan's hash but was not upgraded (nodeImage `marked`): it runs `label`,
   * the controller counts it as done for `plan` (rule "Kept Jobs").
   */
  markedNotUpgraded?: { label: string; plan: string; planName: string };
  /**
   * The node waits on a Job kept from an earlier roll out of the same hash (rule "Kept Jobs"):
   * when it finished and when the controller deletes it (unix seconds), then marking the node.
   */
  keptJob?: { finished: number; until?: number; planName: string };
  /** The node failed before and its job runs again: the last failure's message. */
  retrying?: string;
  /**
   * The node is cordoned (spec.unschedulable) and no Job of this pool runs or failed on it: a Job
   * deleted before it completed left it so (rule "Node rollout").
   */
  cordoned?: true;
  state: NodeRolloutState;
  /** Unix seconds since the node is in this state, when the cluster says. */
  since?: number;
  /** Why the node failed, in the upgrade script's words when its pod's log was read ('' otherwise). */
  message: string;
  /** The failed Job's own condition message ("Job has reached the specified backoff limit"). */
  jobMessage?: string;
}

/** What could be read of one targeted cluster. */
export type ClusterReading =
  | {
    kind: 'read'; plans: readonly unknown[]; jobs: readonly unknown[]; nodes: readonly unknown[];
    /** Job name → the end of the log of its newest pod's upgrade container, for failed jobs. */
    logs?: Readonly<Record<string, string>>;
    /** What the person may not read there (Steve answers 404 for a type listed nowhere, an empty list for a namespace they cannot see). */
    hidden?: readonly HiddenKind[];
  }
  | { kind: 'loading' }
  /** forbidden: no rights in that cluster; unreachable: disconnected or erroring; unmapped: no Rancher cluster id. */
  | { kind: 'forbidden' | 'unreachable' | 'unmapped'; message?: string };

export interface ClusterInput {
  /** The Fleet cluster's name. */
  cluster: string;
  /** Its Rancher cluster id (label management.cattle.io/cluster-name), '' when it has none. */
  clusterId: string;
  reading: ClusterReading;
}

export type NodeCounts = Record<NodeRolloutState | 'total', number>;

export interface ClusterRollout {
  cluster: string;
  clusterId: string;
  reading: ClusterReading['kind'];
  counts: NodeCounts;
  failures: { node: string; message: string }[];
  message: Reason;
}

export type RolloutVerdict = 'rolledOut' | 'progressing' | 'failed' | 'unknown' | 'loading' | 'bundleMissing' | 'noClusters' | 'noNodes';

export interface NodeRolloutSummary {
  verdict: RolloutVerdict;
  /** A short name of the target image, as the messages show it. */
  image: string;
  /** Over the clusters whose nodes could be read. */
  counts: NodeCounts;
  clusters: ClusterRollout[];
  /** Fleet cluster names whose node state could not be read. */
  unknownClusters: string[];
  failures: { cluster: string; node: string; message: string }[];
  message: Reason;
  /** The non-zero counts of nodes in motion, and the known progress when some clusters are unknown. */
  details: Reason[];
}

function labelsOf(obj: unknown): Record<string, string> {
  const labels = asRecord(asRecord(asRecord(obj).metadata).labels);
  const out: Record<string, string> = {};

  for (const [key, value] of Object.entries(labels)) {
    out[key] = asText(value);
  }

  return out;
}

function nameOf(obj: unknown): string {
  return asText(asRecord(asRecord(obj).metadata).name);
}

function conditions(obj: unknown): Record<string, unknown>[] {
  const list = asRecord(asRecord(obj).status).conditions;

  return Array.isArray(list) ? list.filter(isRecord) : [];
}

function condition(obj: unknown, type: string): Record<string, unknown> | undefined {
  return conditions(obj).find((c) => c.type === type);
}

/** An RFC 3339 time as unix seconds; undefined when missing or unreadable. */
function unixSeconds(value: unknown): number | undefined {
  const ms = typeof value === 'string' && value ? Date.parse(value) : NaN;

  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** The operator's Plan name for a pool: `os-upgrader-<pool>` with other characters than [a-zA-Z0-9-] replaced. */
export function upgradePlanName(pool: string): string {
  return `os-upgrader-${ pool }`.replace(/[^a-zA-Z0-9-]+/g, '-').replace(/^-|-$/g, '');
}

/** wrangler's SafeConcatName cuts a name over 63 characters to 57 and a hash: such a Plan is known by that prefix. */
function isPlanOf(plan: unknown, planName: string): boolean {
  const name = nameOf(plan);

  return name === planName || (planName.length > MAX_NAME && name.startsWith(planName.slice(0, 57)));
}

/** The image a pool's nodes should run: spec.osImage, else the pinned version's image. */
export function rolloutTarget(pool: unknown, versions: readonly OSVersion[]): RolloutTarget {
  // The fields alone, not readPool: each row of the pools list asks, and the selector is not needed.
  const metadata = asRecord(asRecord(pool).metadata);
  const spec = asRecord(asRecord(pool).spec);
  const namespace = asText(metadata.namespace);
  const pin = asText(spec.managedOSVersionName);
  const pinned = pin ? versions.find((v) => v.name === pin && (v.namespace === namespace || v.namespace === '')) : undefined;
  const image = asText(spec.osImage) || pinned?.image || '';

  return {
    pool: asText(metadata.name), image, tag: image ? imageParts(image).tag : '', nodeSelector: spec.nodeSelector
  };
}

/** `base-os-container:2.2.0-3.12` for `registry/…/base-os-container:2.2.0-3.12`. */
export function shortImageName(image: string): string {
  if (!image) {
    return '';
  }
  const { repo, tag } = imageParts(image);

  return `${ repo.split('/').pop() }:${ tag }`;
}

/**
 * The Jobs that failed (condition Failed=True): their pods' logs say why. `uid` tells a Job the
 * Plan made again after deleting the failed one (it has the same name).
 */
export function failedJobs(jobs: readonly unknown[]): { name: string; uid: string }[] {
  return jobs.filter((job) => condition(job, 'Failed')?.status === 'True')
    .map((job) => ({ name: nameOf(job), uid: asText(asRecord(asRecord(job).metadata).uid) })).filter((job) => job.name);
}

/** Kubernetes' Job controller stopped the job at its active deadline: the log's last line is not why. */
const DEADLINE_EXCEEDED = 'DeadlineExceeded';

/** Why a job failed: the script's own last words, unless the deadline stopped it. */
function failureText(reason: string, jobMessage: string, log: string | undefined): string {
  return (reason !== DEADLINE_EXCEEDED && scriptFailure(log ?? '')) || jobMessage;
}

function logOf(cluster: ClusterInput, job: string): string | undefined {
  return cluster.reading.kind === 'read' ? cluster.reading.logs?.[job] : undefined;
}

function hiddenOf(cluster: ClusterInput): readonly HiddenKind[] {
  return cluster.reading.kind === 'read' ? cluster.reading.hidden ?? [] : [];
}

/**
 * What an upgrade script printed last before it failed: the last non-empty line of its log that
 * is not a `set -x` trace line (`+ command`, as suc-upgrade runs with `set -x -e`). '' when none.
 */
export function scriptFailure(log: string): string {
  const lines = log.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !/^\++ /.test(line));

  return lines.length ? lines[lines.length - 1] : '';
}

/**
 * The pod a Job's log is read from: its newest (the last attempt) among the pods labelled with the
 * Job's name (Kubernetes' Job controller sets `job-name`). Steve with the SQL cache ignores a
 * labelSelector, so a list may hold every Job's pods: only this Job's count.
 */
export function newestPodName(pods: readonly unknown[], jobName: string): string {
  const created = (pod: unknown) => asText(asRecord(asRecord(pod).metadata).creationTimestamp);
  const own = pods.filter((pod) => jobName && labelsOf(pod)[JOB_NAME_LABEL] === jobName);
  const newest = own.sort((a, b) => created(b).localeCompare(created(a)) || nameOf(b).localeCompare(nameOf(a)))[0];

  return newest ? nameOf(newest) : '';
}

/** The states in which this pool's Job, running or failed (the controller runs it again), cordons the node. */
const CORDONED_BY_JOB: readonly NodeRolloutState[] = ['draining', 'upgrading', 'rebooting', 'failed'];

function nodeRow(target: RolloutTarget, cluster: ClusterInput, node: unknown, plan: unknown, jobs: readonly unknown[]): NodeRolloutRow {
  const row = nodeRowOf(target, cluster, node, plan, jobs);

  if (asRecord(asRecord(node).spec).unschedulable === true && !CORDONED_BY_JOB.includes(row.state)) {
    row.cordoned = true;
  }
  const [problem] = nodeLabelProblems(target.image);
  const ready = condition(node, 'Ready');

  if (problem && ready && ready.status !== 'True') {
    row.labelRefused = { key: problem.key, length: problem.value.length };
    if (row.state === 'updated') {
      // Its labels are the last ones its kubelet posted: they do not show the node runs the image now.
      row.state = 'unknown';
    }
  }

  return row;
}

function nodeRowOf(target: RolloutTarget, cluster: ClusterInput, node: unknown, plan: unknown, jobs: readonly unknown[]): NodeRolloutRow {
  const name = nameOf(node);
  const labels = labelsOf(node);
  const image = asText(asRecord(asRecord(asRecord(node).status).nodeInfo).osImage);
  const planVersion = asText(asRecord(asRecord(plan).status).latestVersion);
  const reading = hiddenOf(cluster).length ? nodeImage(node) : nodeImage(node, plan, planVersion && planVersion === target.tag ? target.image : undefined);
  const tag = reading.kind === 'label' ? reading.tag : reading.kind === 'marked' ? reading.label : undefined;
  const onTarget = !!target.tag && tag === target.tag;
  const row: NodeRolloutRow = {
    id: `${ cluster.clusterId }/${ name }`, cluster: cluster.cluster, clusterId: cluster.clusterId, node: name, image, ...(tag ? { tag } : {}), state: 'waiting', message: ''
  };

  if (reading.kind === 'stale') {
    row.staleLabel = { label: reading.label, plan: reading.plan };
  }
  if (reading.kind === 'marked') {
    row.markedNotUpgraded = {
      label: reading.label, plan: reading.plan, planName: nameOf(plan)
    };
  }

  if (hiddenOf(cluster).length) {
    // Without the Plan and its Jobs only the node's own tag tells anything.
    row.state = onTarget ? 'updated' : 'unknown';
    setRunningSince(row, node);

    return row;
  }
  const status = asRecord(asRecord(plan).status);
  const hash = asText(status.latestHash);
  const version = asText(status.latestVersion) || asText(asRecord(asRecord(plan).spec).version);

  if (!plan || !target.tag || version !== target.tag) {
    // The Plan for the pinned image has not reached this cluster: only a node already on it counts.
    row.state = onTarget ? 'updated' : 'waiting';
    setRunningSince(row, node);

    return row;
  }
  const planName = nameOf(plan);
  const job = jobs.filter((j) => labelsOf(j)[JOB_NODE_LABEL] === name && labelsOf(j)[JOB_PLAN_LABEL] === planName)
    .find((j) => labelsOf(j)[PLAN_LABEL_PREFIX + planName] === hash);
  const failed = job ? condition(job, 'Failed') : undefined;
  const applying = Array.isArray(status.applying) && status.applying.map(asText).includes(name);
  const lastFailure = [planFailure(plan)].find((f): f is PlanFailure => f?.node === name);

  if (failed?.status === 'True') {
    const jobMessage = asText(failed.message) || asText(failed.reason);

    row.state = 'failed';
    row.message = failureText(asText(failed.reason), jobMessage, logOf(cluster, nameOf(job)));
    row.jobMessage = jobMessage;
    row.since = unixSeconds(failed.lastTransitionTime);

    return row;
  }
  const jobStatus = asRecord(asRecord(job).status);
  const active = Number(jobStatus.active) > 0;
  const kept = applying && !active && labels[PLAN_LABEL_PREFIX + planName] !== hash ? keptJob(job, plan) : undefined;

  if (kept) {
    row.state = 'waiting';
    row.keptJob = kept;
    row.since = kept.finished;

    return row;
  }
  if (!active && !applying) {
    if (hash && labels[PLAN_LABEL_PREFIX + planName] === hash) {
      row.state = tag === undefined ? 'unknown' : onTarget ? 'updated' : 'other';
      setRunningSince(row, node);
    }

    return row;
  }
  if (lastFailure && !job) {
    // The failed Job was deleted after its TTL; the Plan makes a new one on the next node event.
    row.state = 'failed';
    row.message = failureText(lastFailure.reason, lastFailure.message, logOf(cluster, lastFailure.job));
    row.jobMessage = lastFailure.message;

    return row;
  }
  if (lastFailure) {
    row.retrying = failureText(lastFailure.reason, lastFailure.message, logOf(cluster, lastFailure.job));
  }
  const ready = condition(node, 'Ready');

  if (ready && ready.status !== 'True') {
    row.state = 'rebooting';
    row.since = unixSeconds(ready.lastTransitionTime);
  } else if (Number(jobStatus.ready) > 0 || !asRecord(asRecord(node).spec).unschedulable) {
    row.state = 'upgrading';
    row.since = unixSeconds(jobStatus.startTime);
  } else {
    row.state = 'draining';
    row.since = unixSeconds(jobStatus.startTime);
  }

  return row;
}

/**
 * A Complete Job that finished before the Plan's Complete condition last changed (rule "Kept
 * Jobs"): the controller kept it from an earlier roll out of the same hash and starts no other for
 * the node. wrangler's conditions move only lastUpdateTime (pkg/condition), at each change of
 * status, reason or message: the Plan's move to this version is such a change.
 */
function keptJob(job: unknown, plan: unknown): NodeRolloutRow['keptJob'] {
  const complete = condition(job, 'Complete');

  if (complete?.status !== 'True') {
    return undefined;
  }
  const finished = unixSeconds(asRecord(asRecord(job).status).completionTime) ?? unixSeconds(complete.lastTransitionTime);
  const planChanged = unixSeconds(condition(plan, 'Complete')?.lastUpdateTime);

  if (finished === undefined || planChanged === undefined || finished >= planChanged) {
    return undefined;
  }
  const ttl = asRecord(asRecord(job).spec).ttlSecondsAfterFinished;

  return {
    finished, planName: nameOf(plan), ...(typeof ttl === 'number' ? { until: finished + ttl } : {})
  };
}

/**
 * An updated node runs its image since it last became Ready: Elemental's upgrade reboots it, and
 * the kubelet moves the Ready condition's lastTransitionTime only on a change (k8s.io/kubernetes
 * pkg/kubelet/nodestatus/setters.go). The promotion soak (promotion.ts) counts from it.
 */
function setRunningSince(row: NodeRolloutRow, node: unknown): void {
  const ready = condition(node, 'Ready');

  if (row.state === 'updated' && ready?.status === 'True') {
    const since = unixSeconds(ready.lastTransitionTime);

    if (since !== undefined) {
      row.since = since;
    }
  }
}

/** The targeted nodes of one cluster and where each stands ([] when the cluster could not be read). */
export function nodeRolloutRows(target: RolloutTarget, cluster: ClusterInput): NodeRolloutRow[] {
  if (cluster.reading.kind !== 'read') {
    return [];
  }
  const { plans, jobs, nodes } = cluster.reading;
  const planName = upgradePlanName(target.pool);
  const plan = hiddenOf(cluster).length ? undefined : plans.find((p) => isPlanOf(p, planName));
  const selector = plan ? asRecord(asRecord(plan).spec).nodeSelector : target.nodeSelector;

  return nodes.filter((node) => matchesLabelSelector(selector, labelsOf(node)))
    .map((node) => nodeRow(target, cluster, node, plan, jobs));
}

export function countNodeStates(rows: readonly NodeRolloutRow[]): NodeCounts {
  const counts = { total: rows.length } as NodeCounts;

  for (const state of NODE_ROLLOUT_STATES) {
    counts[state] = 0;
  }
  for (const row of rows) {
    counts[row.state] += 1;
  }

  return counts;
}

function clusterRollout(target: RolloutTarget, input: ClusterInput, image: string): { rollout: ClusterRollout; rows: NodeRolloutRow[] } {
  const rows = nodeRolloutRows(target, input);
  const counts = countNodeStates(rows);
  const failures = rows.filter((r) => r.state === 'failed').map((r) => ({ node: r.node, message: r.message }));
  let message: Reason;

  if (input.reading.kind !== 'read') {
    const because = input.reading.kind === 'unreachable' && input.reading.message;

    message = because ? { key: 'osUpgrades.rollout.cluster.unreachableBecause', values: { cluster: input.cluster, reason: because } } : { key: `osUpgrades.rollout.cluster.${ input.reading.kind }`, values: { cluster: input.cluster } };
  } else if (!counts.total) {
    message = { key: 'osUpgrades.rollout.cluster.noNodes' };
  } else if (hiddenOf(input).length && counts.updated < counts.total) {
    message = { key: 'osUpgrades.rollout.cluster.hidden', values: { cluster: input.cluster } };
  } else if (failures.length) {
    message = {
      key:    'osUpgrades.rollout.cluster.failed',
      values: {
        count: failures.length, node: failures[0].node, message: failures[0].message
      }
    };
  } else if (counts.updated === counts.total) {
    message = { key: 'osUpgrades.rollout.done', values: { total: counts.total, image } };
  } else {
    message = {
      key:    'osUpgrades.rollout.progress',
      values: {
        updated: counts.updated, total: counts.total, image
      }
    };
  }

  return {
    rollout: {
      cluster: input.cluster, clusterId: input.clusterId, reading: input.reading.kind, counts, failures, message
    },
    rows,
  };
}

const MOVING: NodeRolloutState[] = ['draining', 'upgrading', 'rebooting', 'failed', 'waiting', 'other', 'unknown'];

/**
 * A pool's rollout from its clusters: "Rolled out" only when every targeted node of every
 * targeted cluster reports the pinned image; a failed job makes it failed; a cluster whose
 * nodes cannot be read makes it unknown ("delivered to N clusters; node state unknown for X").
 * `bundleMissing`: the operator's Fleet bundle for the pool is gone (the operator does not
 * recreate it once FleetBundleCreation=True).
 */
export function summarizeNodeRollout(input: { target: RolloutTarget; clusters: readonly ClusterInput[]; bundleMissing?: boolean }): NodeRolloutSummary {
  const image = shortImageName(input.target.image) || input.target.tag;
  const built = input.clusters.map((c) => clusterRollout(input.target, c, image));
  const clusters = built.map((b) => b.rollout);
  const counts = countNodeStates(built.flatMap((b) => b.rows));
  const failures = clusters.flatMap((c) => c.failures.map((f) => ({ cluster: c.cluster, ...f })));
  const unknownClusters = clusters.filter((c) => c.reading !== 'read' && c.reading !== 'loading').map((c) => c.cluster);
  const rows = built.flatMap((b) => b.rows);
  const retrying = rows.filter((r) => r.retrying !== undefined);
  const details: Reason[] = MOVING.filter((state) => state !== 'failed' && counts[state] > 0)
    .map((state) => ({ key: `osUpgrades.rollout.count.${ state }`, values: { count: counts[state] } }));

  if (retrying.length) {
    details.unshift({
      key:    'osUpgrades.rollout.retrying',
      values: {
        count: retrying.length, cluster: retrying[0].cluster, node: retrying[0].node, message: retrying[0].retrying
      }
    });
  }
  // Rule "Kept Jobs": nothing runs on these nodes, or they count as upgraded and are not.
  const kept = rows.filter((r) => r.keptJob).length;
  const marked = rows.filter((r) => r.markedNotUpgraded).length;

  if (marked) {
    details.unshift({ key: 'osUpgrades.rollout.markedNotUpgraded', values: { count: marked } });
  }
  if (kept) {
    details.unshift({ key: 'osUpgrades.rollout.keptJobs', values: { count: kept } });
  }
  const progress = {
    updated: counts.updated, total: counts.total, image
  };
  let verdict: RolloutVerdict;
  let message: Reason;

  if (input.bundleMissing) {
    verdict = 'bundleMissing';
    message = { key: 'osUpgrades.rollout.bundleMissing', values: { pool: input.target.pool } };
  } else if (!clusters.length) {
    verdict = 'noClusters';
    message = { key: 'osUpgrades.rollout.noClusters' };
  } else if (failures.length) {
    verdict = 'failed';
    message = { key: 'osUpgrades.rollout.failed', values: { ...progress, failed: failures.length } };
  } else if (clusters.some((c) => c.reading === 'loading')) {
    verdict = 'loading';
    message = { key: 'osUpgrades.rollout.loading' };
  } else if (unknownClusters.length) {
    verdict = 'unknown';
    message = {
      key:    'osUpgrades.rollout.unknown',
      values: {
        delivered: clusters.length, count: unknownClusters.length, clusters: unknownClusters.join(', ')
      }
    };
    if (counts.total) {
      details.unshift({ key: 'osUpgrades.rollout.knownProgress', values: progress });
    }
  } else if (counts.unknown) {
    verdict = 'unknown';
    message = { key: 'osUpgrades.rollout.nodesUnknown', values: { ...progress, unknown: counts.unknown } };
  } else if (!counts.total) {
    verdict = 'noNodes';
    message = { key: 'osUpgrades.rollout.noNodes' };
  } else if (counts.updated === counts.total) {
    verdict = 'rolledOut';
    message = { key: 'osUpgrades.rollout.done', values: { total: counts.total, image } };
  } else {
    verdict = 'progressing';
    message = { key: 'osUpgrades.rollout.progress', values: progress };
  }

  return {
    verdict, image, counts, clusters, unknownClusters, failures, message, details
  };
}

/** Every targeted node of every readable cluster, for the per-node table. */
export function nodeRolloutTable(target: RolloutTarget, clusters: readonly ClusterInput[]): NodeRolloutRow[] {
  return clusters.flatMap((c) => nodeRolloutRows(target, c));
}

/**
 * The operator's Fleet bundle for a pool (`mos-<pool>`, owned by the pool) is gone although the
 * pool says it was created (FleetBundleCreation=True): the operator does not create it again
 * (elemental-operator controllers/managedosimage_controller.go), so nothing rolls out.
 */
export function isBundleMissing(pool: unknown, bundles: readonly unknown[] | ReadonlySet<string>): boolean {
  const created = conditions(pool).some((c) => c.type === 'FleetBundleCreation' && c.status === 'True');

  if (!created) {
    return false;
  }
  const owners = bundles instanceof Set ? bundles : bundleOwners(bundles as readonly unknown[]);

  return !owners.has(`${ asText(asRecord(asRecord(pool).metadata).namespace) }/${ nameOf(pool) }`);
}

/**
 * `namespace/name` of each pool some bundle belongs to (named `mos-<pool>` or owned by the pool):
 * worked out once for a page of pools instead of once per pool.
 */
export function bundleOwners(bundles: readonly unknown[]): Set<string> {
  return new Set(bundles.flatMap(bundlePools));
}
