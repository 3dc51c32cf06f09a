// Rule "Kept Jobs" before the click: the system-upgrade-controller keeps a finished Job for its
// ttlSecondsAfterFinished, named by node and Plan hash, and its hash covers the version only
// (rancher/system-upgrade-controller pkg/upgrade/job/job.go, pkg/upgrade/plan/plan.go
// DigestStatus). A write that brings the pool's Plan back to a version whose Jobs are still kept,
// with the same upgrade container (rancher/wrangler v3 pkg/apply reconcileJob replaces a Job only
// when its pod template changed), runs nothing on those nodes until the Jobs go, and then the
// controller marks them as upgraded (handle_batch.go enqueueOrDelete).
import type { ClusterInput } from './node-rollout';
import { upgradePlanName } from './node-rollout';
import { asRecord, asText, isRecord } from './text';
import { JOB_NODE_LABEL, JOB_PLAN_LABEL, PLAN_LABEL_PREFIX } from './keys';
import { FORCE_ENV } from './force';

/** The Job label naming the Plan version it was made for (job.go New). */
const JOB_VERSION_LABEL = 'upgrade.cattle.io/version';

export interface KeptJobs {
  /** The nodes the move would not upgrade now. */
  nodes: number;
  /** Unix seconds: the first of those Jobs finished, and the last one is deleted. */
  finished: number;
  until: number;
}

function labelsOf(obj: unknown): Record<string, unknown> {
  return asRecord(asRecord(asRecord(obj).metadata).labels);
}

function seconds(value: unknown): number | undefined {
  const ms = typeof value === 'string' && value ? Date.parse(value) : NaN;

  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** The FORCE the Job's upgrade container runs with ('' when none). */
function jobForce(job: unknown): string {
  const containers = asRecord(asRecord(asRecord(asRecord(job).spec).template).spec).containers;
  const upgrade = (Array.isArray(containers) ? containers.filter(isRecord) : []).find((c) => c.name === 'upgrade');
  const env = Array.isArray(upgrade?.env) ? upgrade.env.filter(isRecord) : [];

  return asText(env.find((e) => e.name === FORCE_ENV)?.value);
}

/** A Complete Job's finish and deletion times, while it is kept (undefined otherwise). */
function keptTimes(job: unknown, now: number): { finished: number; until: number } | undefined {
  const status = asRecord(asRecord(job).status);
  const complete = (Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : []).find((c) => c.type === 'Complete');
  const ttl = asRecord(asRecord(job).spec).ttlSecondsAfterFinished;
  const finished = seconds(status.completionTime) ?? seconds(complete?.lastTransitionTime);

  if (complete?.status !== 'True' || finished === undefined || typeof ttl !== 'number' || finished + ttl <= now) {
    return undefined;
  }

  return { finished, until: finished + ttl };
}

/**
 * The Jobs still kept for pool `pool`'s Plan at `tag` whose upgrade container runs FORCE as the
 * write would (`force`: its FORCE value, '' when none), on nodes that do not carry their hash: a
 * move to `tag` upgrades none of them before `until` (rule "Kept Jobs"). Undefined when none.
 */
export function keptJobsFor(pool: string, clusters: readonly ClusterInput[], tag: string, force: string, now: number): KeptJobs | undefined {
  const plan = upgradePlanName(pool);
  // The Plan's version as the controller keeps it (plan.go MungeVersion).
  const version = tag.replace(/\+/g, '-');
  const found: { finished: number; until: number }[] = [];

  for (const cluster of clusters) {
    if (cluster.reading.kind !== 'read') {
      continue;
    }
    const { jobs, nodes } = cluster.reading;

    for (const job of jobs) {
      const labels = labelsOf(job);
      const times = keptTimes(job, now);
      const node = nodes.find((n) => asText(asRecord(asRecord(n).metadata).name) === labels[JOB_NODE_LABEL]);
      const hash = labels[PLAN_LABEL_PREFIX + plan];

      if (times && labels[JOB_PLAN_LABEL] === plan && labels[JOB_VERSION_LABEL] === version && jobForce(job) === force &&
        node && labelsOf(node)[PLAN_LABEL_PREFIX + plan] !== hash) {
        found.push(times);
      }
    }
  }

  return found.length ? {
    nodes: found.length, finished: Math.min(...found.map((f) => f.finished)), until: Math.max(...found.map((f) => f.until))
  } : undefined;
}
