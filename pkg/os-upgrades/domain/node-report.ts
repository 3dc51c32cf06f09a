// What a downstream cluster really reports of a node's image and of a failed upgrade job.
// - The kubelet reports status.nodeInfo.osImage as /etc/os-release PRETTY_NAME ("SUSE Linux Micro
//   6.1"): it never names the image tag.
// - Elemental's elemental-populate-node-labels (rancher/elemental
//   framework/files/usr/sbin/elemental-populate-node-labels, a oneshot unit run at every boot)
//   writes node-label+ `elemental.cattle.io/tag=<IMAGE_TAG>` and `elemental.cattle.io/image=<IMAGE
//   with / and : as ->` into the RKE2/K3s config, and the agent patches the node's labels from that
//   config at each start (k3s-io/k3s pkg/agent/run.go configureNode, updateMutableLabels): after
//   the reboot of an upgrade the tag label names the image the host booted, unless a value is
//   invalid: the image label is not shortened, and an image name over 63 characters
//   (registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12 is 64) is refused by the API
//   server (k8s.io/apimachinery pkg/util/validation IsValidLabelValue), the one patch fails whole and
//   the tag label keeps the older tag (nodeImage below; docs/emulator.md).
// - The system-upgrade-controller writes on the Plan's Complete condition, when a Job fails,
//   reason JobFailed and "Job <ns>/<job> failed on Node <node>: <reason>: <message>"
//   (pkg/upgrade/handle_batch.go); it stays while the node is being retried, until the Plan's
//   applying list changes (pkg/upgrade/handle_upgrade.go).
import { asRecord, asText, isRecord } from './text';
import { ELEMENTAL_TAG_LABEL, PLAN_LABEL_PREFIX } from './keys';
import { compareSortV } from './image-tag';
import { nodeLabelProblems } from './node-labels';


/** The image tag a node booted, from Elemental's label; undefined when the node does not say. */
export function nodeImageTag(node: unknown): string | undefined {
  const value = asRecord(asRecord(asRecord(node).metadata).labels)[ELEMENTAL_TAG_LABEL];

  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Which image a node runs, as far as the API shows it (rule "Node image"):
 * - `label`: Elemental's tag label, when the system-upgrade-controller's evidence does not contradict it;
 * - `stale`: the node carries the Plan's current hash (the system-upgrade-controller writes
 *   `plan.upgrade.cattle.io/<plan>=<latestHash>` only when the node's Job completed,
 *   pkg/upgrade/handle_batch.go) but its tag label names a LOWER tag than the Plan's latestVersion.
 *   suc-upgrade completes only once the host runs the image (isEqualVersion after the reboot), or
 *   without upgrading a host already on a higher tag (isHigherVersion, `sort -V`): so a lower label
 *   is one elemental-populate-node-labels could not write (an image name over 63 characters makes
 *   the whole label set invalid), and neither source is claimed;
 * - `marked`: the same, but the image's labels are valid, so Elemental wrote them and the label is
 *   right: the hash came without the upgrade. The controller also writes it when it deletes a Job
 *   it kept (ttlSecondsAfterFinished) from an earlier roll out of the same hash, for the Plan's
 *   current version (handle_batch.go enqueueOrDelete), though that Job never ran for this one
 *   (rule "Kept Jobs");
 * - `none`: no tag label. The hash alone does not tell: the Job also completes on a host that
 *   skipped the upgrade because it runs a higher tag.
 */
export type NodeImageReading =
  | { kind: 'label'; tag: string }
  | { kind: 'stale' | 'marked'; label: string; plan: string }
  | { kind: 'none' };

/** The Plan's latestVersion when the node carries the Plan's current hash (its Job completed). */
export function planTagOnNode(node: unknown, plan: unknown): string | undefined {
  const status = asRecord(asRecord(plan).status);
  const hash = asText(status.latestHash);
  const version = asText(status.latestVersion);
  const name = asText(asRecord(asRecord(plan).metadata).name);
  const labels = asRecord(asRecord(asRecord(node).metadata).labels);

  return hash && version && name && labels[PLAN_LABEL_PREFIX + name] === hash ? version : undefined;
}

/** `image`: the image the Plan applies, when known; its labels decide between `stale` and `marked`. */
export function nodeImage(node: unknown, plan?: unknown, image?: string): NodeImageReading {
  const label = nodeImageTag(node);

  if (!label) {
    return { kind: 'none' };
  }
  const completed = plan === undefined ? undefined : planTagOnNode(node, plan);

  if (!completed || compareSortV(label, completed) >= 0) {
    return { kind: 'label', tag: label };
  }

  return {
    kind: image && !nodeLabelProblems(image).length ? 'marked' : 'stale', label, plan: completed
  };
}

/** The last failure the system-upgrade-controller wrote on a Plan. */
export interface PlanFailure {
  job: string;
  node: string;
  /** The Job's Failed reason (BackoffLimitExceeded, DeadlineExceeded…). */
  reason: string;
  message: string;
}

/** The Plan's Complete condition when it says a job failed; undefined otherwise. */
export function planFailure(plan: unknown): PlanFailure | undefined {
  const list = asRecord(asRecord(plan).status).conditions;
  const complete = (Array.isArray(list) ? list.filter(isRecord) : []).find((c) => c.type === 'Complete');

  if (!complete || complete.status === 'True' || complete.reason !== 'JobFailed') {
    return undefined;
  }
  const match = /^Job [^/\s]+\/(\S+) failed on Node (\S+): ([^:]*): ([\s\S]*)$/.exec(asText(complete.message));

  return match ? {
    job: match[1], node: match[2], reason: match[3], message: match[4]
  } : undefined;
}
