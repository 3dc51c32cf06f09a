// What a downstream cluster really reports of a node's image and of a failed upgrade job.
// - The kubelet reports status.nodeInfo.osImage as /etc/os-release PRETTY_NAME ("SUSE Linux Micro
//   6.1"): it never names the image tag.
// - Elemental's elemental-populate-node-labels (rancher/elemental
//   framework/files/usr/sbin/elemental-populate-node-labels, a oneshot unit run at every boot)
//   writes node-label+ `elemental.cattle.io/tag=<IMAGE_TAG>` and `elemental.cattle.io/image=<IMAGE
//   with / and : as ->` into the RKE2/K3s config, and the agent patches the node's labels from that
//   config at each start (k3s-io/k3s pkg/agent/run.go configureNode, updateMutableLabels): after
//   the reboot of an upgrade the tag label names the image the host booted.
// - The system-upgrade-controller writes on the Plan's Complete condition, when a Job fails,
//   reason JobFailed and "Job <ns>/<job> failed on Node <node>: <reason>: <message>"
//   (pkg/upgrade/handle_batch.go); it stays while the node is being retried, until the Plan's
//   applying list changes (pkg/upgrade/handle_upgrade.go).
import { asText, isRecord } from './text';
import { ELEMENTAL_TAG_LABEL } from './keys';


function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The image tag a node booted, from Elemental's label; undefined when the node does not say. */
export function nodeImageTag(node: unknown): string | undefined {
  const value = record(record(record(node).metadata).labels)[ELEMENTAL_TAG_LABEL];

  return typeof value === 'string' && value ? value : undefined;
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
  const list = record(record(plan).status).conditions;
  const complete = (Array.isArray(list) ? list.filter(isRecord) : []).find((c) => c.type === 'Complete');

  if (!complete || complete.status === 'True' || complete.reason !== 'JobFailed') {
    return undefined;
  }
  const match = /^Job [^/\s]+\/(\S+) failed on Node (\S+): ([^:]*): ([\s\S]*)$/.exec(asText(complete.message));

  return match ? {
    job: match[1], node: match[2], reason: match[3], message: match[4]
  } : undefined;
}
