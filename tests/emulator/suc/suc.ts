// The system-upgrade-controller of each emulated cluster, running the Plans Fleet deploys there,
// and the upgrade script its jobs run on the nodes. Sources:
// - rancher/system-upgrade-controller pkg/upgrade/plan/plan.go: DigestStatus (the hash of the
//   Plan's version, service account and secrets: nothing else, so a change of image with the
//   same tag starts no job), SelectConcurrentNodes (nodes whose `plan.upgrade.cattle.io/<plan>`
//   label is not the hash, `concurrency` at a time, those already applying first);
// - pkg/upgrade/job/job.go: cordon, or drain (which cordons), before the upgrade container; the
//   node is labelled with the hash and uncordoned when the job succeeds (handle_batch.go), left as it
//   is when it fails or is deleted: with its Plan (the garbage collector; see remove) or, for a Plan
//   moved to another version, by handle_batch.go;
// - pkg/upgrade/container/container.go WithLatestTag: an image without tag runs with the Plan's version;
// - rancher/elemental framework/files/usr/sbin/suc-upgrade: the script's decision per node; after
//   `elemental upgrade` it runs `reboot` then `exit 1`, so a successful upgrade's Job has two pods:
//   the first fails with exit 1 as the host goes down, the second (after the boot) finds the
//   upgrade done and exits 0 (backoffLimit 2 leaves room for it);
// - pkg/upgrade/job/job.go: defaultActiveDeadlineSeconds 600 (the Job fails with DeadlineExceeded),
//   defaultTTLSecondsAfterFinished 900; pkg/upgrade/handle_batch.go: a failed Job is deleted once
//   its TTL passed (enqueueOrDelete), and the Plan, enqueued again by node events
//   (pkg/upgrade/handle_core.go), creates it anew on the node that still lacks the hash: a failing
//   node cycles failed → upgrading → failed. The failure is written on the Plan's Complete
//   condition (JobFailed, "Job <ns>/<job> failed on Node <node>: <reason>: <message>") and stays
//   until the applying list changes (pkg/upgrade/handle_upgrade.go). Both durations are multiplied
//   by the emulator's --time-scale.
// - Two Plans on one node (overlapping pools): SelectConcurrentNodes looks at one Plan, so both
//   Jobs are created at once; rancher/elemental framework/files/usr/sbin/suc-upgrade runs under
//   `flock -w $LOCK_TIMEOUT 200 || exit 1` (LOCK_TIMEOUT 600) on the host's upgrade lock, so the
//   second pod waits for the first script; past 600 s (× --time-scale) it exits 1, and the Job
//   controller starts another pod until backoffLimit (or the Job's deadline) fails the Job.
// - A finished Job is kept until its TTL (job.go ttlSecondsAfterFinished 900; kube-controller-manager's
//   TTL-after-finished controller deletes it then, and handle_batch.go enqueueOrDelete handles it once
//   more at that time: for the Plan's current version (its upgrade.cattle.io/version label) the node
//   gets the Job's hash). A Job is named by its node and hash (job.go New), so a Plan that comes back
//   to a hash while that hash's Jobs are kept meets them: the Plan's generating handler applies the
//   Job it wants over the kept one (rancher/wrangler v3 pkg/apply reconcilers.go reconcileJob): a
//   changed pod template (FORCE added or removed, another image) is ErrReplace, the kept Job is
//   deleted and made again at the next pass (desiredset_process.go); the same template changes
//   nothing, so the node stays in status.applying with nothing running until the kept Job's TTL,
//   when it gets the hash without having been upgraded for this approval.

import { createHash } from 'crypto';
import { JsonObject, asObject, asString, isObject } from '../core/json';
import { matchesLabels, selectorFromObject } from '../kube/labels';
import {
  bootInto, EmulatedNode, NodeRegistry, OSRelease, releaseOf
} from './nodes';

export const PLAN_LABEL_PREFIX = 'plan.upgrade.cattle.io/';

/** What the last pod of a Job that never got the lock printed (`set -x`: flock timed out, `exit 1`). */
export const LOCK_FAILURE_MESSAGE = '+ exit 1';

/** The upgrade.cattle.io/v1 Plan fields the emulation reads. */
export interface PlanObject {
  name: string;
  spec: JsonObject;
}

/** `verifying`: the Job's second pod, after the reboot, finds the upgrade done. */
export type Phase = 'cordoned' | 'draining' | 'upgrading' | 'rebooting' | 'verifying';

/** Kubernetes' Job controller's reasons (pkg/controller/job): all attempts failed, or the deadline passed. */
export type FailureReason = 'BackoffLimitExceeded' | 'DeadlineExceeded';

/**
 * job.go defaultTTLSecondsAfterFinished and defaultActiveDeadlineSeconds; the controller's
 * SYSTEM_UPGRADE_JOB_TTL_SECONDS_AFTER_FINISH and SYSTEM_UPGRADE_JOB_ACTIVE_DEADLINE_SECONDS
 * change them (here POST /__emulator/suc/settings).
 */
export interface JobTimes {
  ttlSeconds: number;
  deadlineSeconds: number;
}

export const DEFAULT_JOB_TIMES: JobTimes = { ttlSeconds: 900, deadlineSeconds: 600 };

interface Job {
  node: string;
  hash: string;
  /** The Plan's version when the Job was made (its upgrade.cattle.io/version label). */
  version: string;
  /** What job.go New builds the pod template from: a different one is replaced, not reused. */
  template: string;
  /** The Plan's upgrade container when the Job was made (the pod template's). */
  upgrade: JsonObject;
  phase: Phase;
  /** The os-release of the image the job runs (the upgrade container's image). */
  image: OSRelease;
  force: boolean;
  drain: boolean;
  /** When the Job was created (ms): tells a recreated Job from the one it replaces. */
  created: number;
  failure?: { reason: FailureReason; at: number };
  /** When the Job controller marked it Complete (ms); it is kept until its TTL. */
  completed?: number;
  /** What the script printed last, for the kept Job's pods' logs. */
  message?: string;
  /** The script waits on the node's upgrade lock, held by another plan's job: since when, and how many pods timed out. */
  lock?: { since: number; timeouts: number };
}

/** suc-upgrade's LOCK_TIMEOUT (seconds) and job.go's defaultBackoffLimit: a Job runs at most 3 pods. */
const LOCK_TIMEOUT_SECONDS = 600;
const BACKOFF_LIMIT = 2;

/** The last failure the controller wrote on the Plan's Complete condition. */
export interface PlanFailure {
  node: string;
  hash: string;
  created: number;
  reason: FailureReason;
}

interface PlanRun {
  namespace: string;
  cluster: string;
  plan: PlanObject;
  hash: string;
  /** By job name (node and hash, jobKey): the running, failed and finished (kept) Jobs. */
  jobs: Map<string, Job>;
  /** status.applying: the nodes SelectConcurrentNodes chose at the last pass. */
  applying: string[];
  lastFailure?: PlanFailure;
}

/** What one cluster's controller holds for a plan: the downstream API (downstream.ts) shows it. */
export interface PlanRunView {
  plan: PlanObject;
  hash: string;
  /** status.latestVersion: the Plan's version, munged. */
  version: string;
  /** status.applying. */
  applying: string[];
  jobs: {
    node: string; hash: string; version: string; upgrade: JsonObject; phase: Phase; created: number; failure?: Job['failure']; lock?: Job['lock']; completed?: number; message?: string
  }[];
  lastFailure?: PlanFailure;
}

/** How one cluster's run of a plan stands, for the bundle status Fleet reports. */
export interface PlanProgress {
  /** Every node the plan selects carries the plan's hash and no job is running. */
  complete: boolean;
  /** A node whose job failed, with the failure. */
  failed?: { node: string; message: string };
}

/** Plan.spec.version as SUC uses it (MungeVersion: `+` is not valid in a tag). */
function latestVersion(plan: PlanObject): string {
  return (asString(plan.spec.version) ?? '').replace(/\+/g, '-');
}

/** DigestStatus: version, service account and the (cloud-config) secret's content. */
export function planHash(plan: PlanObject, secret: string): string {
  const hash = createHash('sha224');

  hash.update(latestVersion(plan));
  hash.update(asString(plan.spec.serviceAccountName) ?? '');
  hash.update(secret);

  return hash.digest('hex');
}

/** The image the upgrade container runs: its own, tagged with the Plan's version when it has no tag. */
export function jobImage(plan: PlanObject): OSRelease {
  const image = asString(asObject(plan.spec.upgrade).image) ?? '';
  const last = image.split('/').pop() ?? '';

  return releaseOf(last.includes(':') ? image : `${ image }:${ latestVersion(plan) }`);
}

/** The Plan fields job.go New builds a Job's pod template from (the hash is in its labels). */
function jobTemplate(plan: PlanObject): string {
  const {
    upgrade, drain, cordon, tolerations, serviceAccountName, secrets
  } = plan.spec;

  return JSON.stringify([upgrade, drain, cordon, tolerations, serviceAccountName, secrets]);
}

function jobKey(node: string, hash: string): string {
  return `${ node }@${ hash }`;
}

/** job.go: the Plan's drain (which cordons) or cordon runs as init containers before the upgrade. */
export function cordons(plan: PlanObject): boolean {
  return isObject(plan.spec.drain) || plan.spec.cordon === true;
}

/** A Job that has not finished well: running, waiting on the lock, or failed (kept until its TTL). */
function unfinished(job: Job): boolean {
  return job.completed === undefined;
}

function envValue(plan: PlanObject, name: string): string | undefined {
  const env = asObject(plan.spec.upgrade).envs;

  return (Array.isArray(env) ? env.filter(isObject) : []).find((e) => e.name === name)?.value as string | undefined;
}

function releaseText(release: OSRelease): string {
  return `IMAGE_REPO=${ osReleaseRepo(release.repo) } IMAGE_TAG=${ release.tag }`;
}

/** The weight of a character outside a digit run in GNU's version sort: `~` first, then the end, letters, the rest. */
function charOrder(text: string, i: number): number {
  const c = text[i];

  if (c === undefined || /\d/.test(c)) {
    return 0;
  }
  if (/[A-Za-z]/.test(c)) {
    return c.charCodeAt(0);
  }

  return c === '~' ? -1 : c.charCodeAt(0) + 256;
}

/** isHigherVersion's `sort -V` on two tags (GNU coreutils filevercmp, for names without a suffix). */
export function compareVersionSort(a: string, b: string): number {
  let i = 0;
  let j = 0;

  while (i < a.length || j < b.length) {
    while ((i < a.length && !/\d/.test(a[i])) || (j < b.length && !/\d/.test(b[j]))) {
      const diff = charOrder(a, i) - charOrder(b, j);

      if (diff) {
        return Math.sign(diff);
      }
      i++;
      j++;
    }
    const x = /^\d*/.exec(a.slice(i))?.[0] ?? '';
    const y = /^\d*/.exec(b.slice(j))?.[0] ?? '';
    const diff = BigInt(x || '0') - BigInt(y || '0');

    if (diff !== 0n) {
      return diff < 0n ? -1 : 1;
    }
    i += x.length;
    j += y.length;
  }

  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * IMAGE_REPO as the image's own /etc/os-release has it: the repository without its registry
 * (rancher/elemental .obs/dockerfile/SL-Micro-base-container/Dockerfile writes
 * `IMAGE_REPO=suse/sl-micro/<v>/base-os-container`), so an image pulled through a mirror
 * carries the same one. The registry is the first part when it has a '.' or ':' or is
 * `localhost` (distribution/reference's rule).
 */
export function osReleaseRepo(repo: string): string {
  const [first, ...rest] = repo.split('/');

  return rest.length && (/[.:]/.test(first) || first === 'localhost') ? rest.join('/') : repo;
}

/**
 * suc-upgrade's decision for `host` given the image the job runs: the message it prints and
 * whether it goes on to `elemental upgrade` and a reboot (rancher/elemental d686409; the
 * "Active configuration" check went in 93c22785).
 */
export function sucUpgradeDecision(host: EmulatedNode, image: OSRelease, force: boolean): { upgrade: boolean; message: string } {
  const hostRepo = osReleaseRepo(host.release.repo);
  const imageRepo = osReleaseRepo(image.repo);

  // isEqualVersion: the image's /etc/os-release is the host's.
  if (hostRepo === imageRepo && host.release.tag === image.tag) {
    return { upgrade: false, message: `Upgrade already done with release: ${ releaseText(host.release) }` };
  }
  // isHigherVersion: another repository, or an unknown host tag, counts as higher.
  if (!force && hostRepo === imageRepo && host.release.tag && compareVersionSort(image.tag, host.release.tag) <= 0) {
    return { upgrade: false, message: `Current OS is in a higher version, use FORCE to downgrade. Current version: ${ releaseText(host.release) }` };
  }

  return { upgrade: true, message: `elemental --debug upgrade --bootloader --system dir:/ to ${ releaseText(image) }; rebooting` };
}

export class SystemUpgradeControllers {
  private readonly runs = new Map<string, PlanRun>();
  /** Told after every change of a run, a job or a node (the downstream API follows them). */
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);

    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }

  /** The Jobs' TTL and deadline, as the controller's environment sets them. */
  times: JobTimes = { ...DEFAULT_JOB_TIMES };

  constructor(private readonly nodes: NodeRegistry, private readonly options: { timeScale: number } = { timeScale: 1 }) {}

  /** A duration of the Jobs in ms: the controller's seconds, times the emulator's --time-scale. */
  private scaled(seconds: number): number {
    return seconds * 1000 * this.options.timeScale;
  }

  private key(namespace: string, cluster: string, plan: string): string {
    return `${ namespace }/${ cluster }/${ plan }`;
  }

  private selected(run: PlanRun): EmulatedNode[] {
    const selector = selectorFromObject(run.plan.spec.nodeSelector);

    return (this.nodes.of(run.namespace, run.cluster) ?? []).filter((node) => matchesLabels(selector, node.labels));
  }

  /** Fleet applied the Plan on a cluster (a new or changed one). */
  apply(namespace: string, cluster: string, plan: PlanObject, secret: string): void {
    const key = this.key(namespace, cluster, plan.name);
    const existing = this.runs.get(key);

    this.runs.set(key, {
      namespace, cluster, plan, hash: planHash(plan, secret), jobs: existing?.jobs ?? new Map(), applying: existing?.applying ?? []
    });
    this.notify();
  }

  /**
   * Fleet removed the Plan, and the garbage collector its Jobs: the Plan's generating handler
   * applies them with the Plan as controller owner (handle_upgrade.go GeneratingHandlerOptions
   * NoOwnerReference: rancher/wrangler v3 pkg/generic/generating.go WithSetOwnerReference(true,
   * false), pkg/apply/desiredset_process.go assignOwnerReference), so kube-controller-manager
   * deletes them with it, and their running pods (kubernetes pkg/controller/garbagecollector).
   * What the host keeps is what the script did by then (rancher/elemental
   * framework/files/usr/sbin/suc-upgrade): killed before its `reboot`, the host keeps its OS; after
   * it, the host boots the image `elemental upgrade` installed. No hash on the node, no uncordon.
   */
  remove(namespace: string, cluster: string, planName: string): void {
    const key = this.key(namespace, cluster, planName);
    const run = this.runs.get(key);

    if (run) {
      for (const job of run.jobs.values()) {
        const node = this.nodeByName(run, job.node);

        if (node && unfinished(job) && !job.failure) {
          this.killed(node, job);
        }
      }
      this.runs.delete(key);
    }
    this.notify();
  }

  /** The seed's plans are done already: their nodes run the image and carry the hash. */
  settle(namespace: string, cluster: string, plan: PlanObject, secret: string): void {
    this.apply(namespace, cluster, plan, secret);
    const run = this.runs.get(this.key(namespace, cluster, plan.name)) as PlanRun;

    for (const node of this.selected(run)) {
      bootInto(node, jobImage(plan));
      node.labels[PLAN_LABEL_PREFIX + plan.name] = run.hash;
    }
    this.notify();
  }

  progress(namespace: string, cluster: string, planName: string): PlanProgress {
    const run = this.runs.get(this.key(namespace, cluster, planName));

    if (!run) {
      return { complete: false };
    }
    for (const job of run.jobs.values()) {
      const node = this.nodeByName(run, job.node);

      if (node && job.failure && job.hash === run.hash) {
        return { complete: false, failed: { node: job.node, message: job.lock ? LOCK_FAILURE_MESSAGE : node.message } };
      }
    }
    const complete = !run.applying.length && ![...run.jobs.values()].some(unfinished) &&
      this.selected(run).every((node) => node.labels[PLAN_LABEL_PREFIX + run.plan.name] === run.hash);

    return { complete };
  }

  /** One step of every run: each job moves on one phase, then free slots get new jobs. Returns the runs that changed. */
  tick(): { namespace: string; cluster: string; plan: string }[] {
    const changed: { namespace: string; cluster: string; plan: string }[] = [];

    for (const run of this.runs.values()) {
      if (this.step(run)) {
        changed.push({
          namespace: run.namespace, cluster: run.cluster, plan: run.plan.name
        });
      }
    }
    if (changed.length) {
      this.notify();
    }

    return changed;
  }

  /** True while any run has work left: a Job not finished well, or a node to start (a rollout is on). */
  busy(): boolean {
    return [...this.runs.values()].some((run) => [...run.jobs.values()].some(unfinished) || this.candidates(run).length > 0);
  }

  /** True while a finished Job is kept: its TTL still has to be handled (the ticker keeps going). */
  keeping(): boolean {
    return [...this.runs.values()].some((run) => run.jobs.size > 0);
  }

  private nodeByName(run: PlanRun, name: string): EmulatedNode | undefined {
    return (this.nodes.of(run.namespace, run.cluster) ?? []).find((n) => n.name === name);
  }

  /** The node's Job of this plan that has not finished well (at most one). */
  private unfinishedJob(run: PlanRun, node: string): Job | undefined {
    return [...run.jobs.values()].find((job) => job.node === node && unfinished(job));
  }

  /** Nodes without the plan's hash, not applying yet (other plans' jobs do not count: plan.go). */
  private candidates(run: PlanRun): EmulatedNode[] {
    const label = PLAN_LABEL_PREFIX + run.plan.name;

    return this.selected(run).filter((node) => node.labels[label] !== run.hash && !run.applying.includes(node.name) && !this.unfinishedJob(run, node.name));
  }

  /**
   * plan.go SelectConcurrentNodes: the nodes of status.applying that still lack the hash, then
   * other nodes without it up to `concurrency`.
   */
  private selectConcurrent(run: PlanRun): EmulatedNode[] {
    const label = PLAN_LABEL_PREFIX + run.plan.name;
    const concurrency = Math.max(1, Number(run.plan.spec.concurrency) || 1);
    const pending = this.selected(run).filter((node) => node.labels[label] !== run.hash);
    const applying = pending.filter((node) => run.applying.includes(node.name) || this.unfinishedJob(run, node.name));
    const rest = pending.filter((node) => !applying.includes(node));

    return [...applying, ...rest.slice(0, Math.max(0, concurrency - applying.length))];
  }

  /** Another plan's job on the node whose script holds the upgrade lock (it runs and does not wait). */
  private lockHeld(run: PlanRun, node: EmulatedNode): boolean {
    return [...this.runs.values()].some((other) => {
      const job = other === run ? undefined : this.unfinishedJob(other, node.name);

      return other.namespace === run.namespace && other.cluster === run.cluster && !!job && !job.failure && !job.lock;
    });
  }

  /** A script waiting on the lock: it goes on when the lock is free, a pod exits 1 after LOCK_TIMEOUT. The node stays the holder's. */
  private waitForLock(run: PlanRun, node: EmulatedNode, job: Job, lock: NonNullable<Job['lock']>, now: number): void {
    if (!this.lockHeld(run, node)) {
      job.lock = undefined;
      node.state = 'upgrading';

      return;
    }
    if (now - job.created >= this.scaled(this.times.deadlineSeconds)) {
      this.failWaiting(run, node, job, 'DeadlineExceeded', now);
    } else if (now - lock.since >= this.scaled(LOCK_TIMEOUT_SECONDS)) {
      lock.timeouts++;
      lock.since = now;
      if (lock.timeouts > BACKOFF_LIMIT) {
        this.failWaiting(run, node, job, 'BackoffLimitExceeded', now);
      }
    }
  }

  /** The waiting Job failed: its node's state and message are the lock holder's and stay so. */
  private failWaiting(run: PlanRun, node: EmulatedNode, job: Job, reason: FailureReason, now: number): void {
    job.failure = { reason, at: now };
    run.lastFailure = {
      node: node.name, hash: job.hash, created: job.created, reason
    };
  }

  private step(run: PlanRun): boolean {
    let changed = false;
    const now = Date.now();

    for (const [key, job] of [...run.jobs]) {
      const node = this.nodeByName(run, job.node);
      // handle_batch.go deletes a Job of another version than the Plan's (a new approval while it runs).
      const stale = job.version !== latestVersion(run.plan);

      if (!node) {
        run.jobs.delete(key);
        changed = true;
      } else if (job.completed !== undefined) {
        changed = this.expireFinished(run, node, key, job, now) || changed;
      } else if (job.failure) {
        // handle_batch.go: a failed Job is deleted once its TTL passed, or at once when the plan's
        // hash changed; the node, still without the hash, gets a new Job below.
        if (job.hash !== run.hash || now - job.failure.at >= this.scaled(this.times.ttlSeconds)) {
          run.jobs.delete(key);
          changed = true;
        }
      } else if (stale && job.lock) {
        // Simplified: the waiting script's pod is deleted at once (see docs/emulator.md).
        run.jobs.delete(key);
        changed = true;
      } else {
        changed = true;
        this.advance(run, node, job, now, stale);
      }
    }
    const selected = this.selectConcurrent(run);

    for (const node of selected) {
      changed = this.applyJob(run, node, now) || changed;
    }
    const applying = selected.map((node) => node.name).sort();

    if (applying.join(',') !== run.applying.join(',')) {
      // handle_upgrade.go: a new applying list resets Complete (reason SyncJob, no message).
      run.applying = applying;
      run.lastFailure = undefined;
      changed = true;
    }

    return changed;
  }

  /**
   * handle_batch.go enqueueOrDelete: a finished Job is handled once more at its TTL and deleted;
   * for the Plan's current version the node gets the Job's hash, upgraded by it or not.
   */
  private expireFinished(run: PlanRun, node: EmulatedNode, key: string, job: Job, now: number): boolean {
    if (now - (job.completed as number) < this.scaled(this.times.ttlSeconds)) {
      return false;
    }
    if (job.version === latestVersion(run.plan)) {
      node.labels[PLAN_LABEL_PREFIX + run.plan.name] = job.hash;
    }
    run.jobs.delete(key);

    return true;
  }

  /** The Plan's generating handler for one selected node: its Job made, kept, or replaced (see the top). */
  private applyJob(run: PlanRun, node: EmulatedNode, now: number): boolean {
    const key = jobKey(node.name, run.hash);
    const kept = run.jobs.get(key);

    if (kept) {
      if (kept.completed === undefined || kept.template === jobTemplate(run.plan)) {
        return false;
      }
      // reconcilers.go reconcileJob: ErrReplace; the Job is made again at the next pass.
      run.jobs.delete(key);

      return true;
    }
    if (this.unfinishedJob(run, node.name)) {
      // A Job for the plan's previous hash of the same version still runs (handle_batch.go deletes
      // only another version's, in step): it finishes first.
      return false;
    }
    const drain = isObject(run.plan.spec.drain);
    const job: Job = {
      node:     node.name,
      hash:     run.hash,
      version:  latestVersion(run.plan),
      template: jobTemplate(run.plan),
      upgrade:  asObject(run.plan.spec.upgrade),
      phase:    'cordoned',
      image:    jobImage(run.plan),
      force:    envValue(run.plan, 'FORCE') === 'true',
      drain,
      created:  now
    };

    run.jobs.set(key, job);
    if (cordons(run.plan)) {
      node.unschedulable = true;
    }
    if (this.lockHeld(run, node)) {
      // Its cordon/drain init containers find the node cordoned already; the script waits on the lock.
      job.phase = 'upgrading';
      job.lock = { since: now, timeouts: 0 };
    } else if (cordons(run.plan)) {
      node.state = 'cordoned';
    } else {
      job.phase = 'upgrading';
      node.state = 'upgrading';
    }

    return true;
  }

  private fail(run: PlanRun, node: EmulatedNode, job: Job, reason: FailureReason, now: number): void {
    job.failure = { reason, at: now };
    node.state = 'failed';
    run.lastFailure = {
      node: node.name, hash: job.hash, created: job.created, reason
    };
  }

  /**
   * One step of a Job. A `stale` one (its Plan now at another version) runs on until the
   * Job next changes, when handle_batch.go deletes it (drop): its upgrade container starting (ready),
   * its pod failing or completing. So the node stays cordoned, and the host keeps what the script
   * did by then (rancher/elemental framework/files/usr/sbin/suc-upgrade): a script that ran
   * `reboot` boots the image `elemental upgrade` installed, and the Job is deleted after the boot.
   */
  private advance(run: PlanRun, node: EmulatedNode, job: Job, now: number, stale: boolean): void {
    // The Job's pod fails or completes: a change handle_batch.go sees, so a stale Job is deleted then.
    const fail = (reason: FailureReason) => (stale ? this.drop(run, node, job) : this.fail(run, node, job, reason, now));
    const complete = () => (stale ? this.drop(run, node, job) : this.succeed(run, node, job));

    if (node.kubeletStopped) {
      // No kubelet runs the Job's pod (nodes.ts bootInto), so it never completes: the Job controller
      // ends the Job at its activeDeadlineSeconds (rancher/system-upgrade-controller
      // pkg/upgrade/job/job.go; kubernetes pkg/controller/job/job_controller.go, DeadlineExceeded).
      node.state = 'rebooting';
      if (now - job.created >= this.scaled(this.times.deadlineSeconds)) {
        fail('DeadlineExceeded');
      }

      return;
    }
    if (job.lock) {
      this.waitForLock(run, node, job, job.lock, now);

      return;
    }
    switch (job.phase) {
    case 'cordoned':
    case 'draining':
      if (job.phase === 'cordoned' && job.drain) {
        job.phase = 'draining';
        node.state = 'draining';
      } else if (stale) {
        // The upgrade container starts, the Job's pod turns ready: deleted before the script runs.
        this.drop(run, node, job);
      } else {
        job.phase = 'upgrading';
        node.state = 'upgrading';
      }
      break;
    case 'upgrading': {
      if (node.hangNext !== undefined) {
        // The script hangs (a pull that never ends): the Job controller stops it at the deadline.
        node.message = node.hangNext;
        if (now - job.created >= this.scaled(this.times.deadlineSeconds)) {
          node.hangNext = undefined;
          fail('DeadlineExceeded');
        }
        break;
      }
      if (node.failNext !== undefined) {
        node.message = node.failNext;
        node.failTimes = (node.failTimes ?? 1) - 1;
        if (node.failTimes <= 0) {
          node.failNext = undefined;
          node.failTimes = undefined;
        }
        fail('BackoffLimitExceeded');
        break;
      }
      const decision = sucUpgradeDecision(node, job.image, job.force);

      node.message = decision.message;
      if (decision.upgrade) {
        job.phase = 'rebooting';
        node.state = 'rebooting';
      } else {
        complete();
      }
      break;
    }
    case 'rebooting':
      // elemental upgrade installed the image in the active partition; the host boots it, and the
      // Job's second pod runs the script again.
      node.active = true;
      if (!bootInto(node, job.image)) {
        // The kubelet exits at start: the pod after the reboot never runs (see above).
        node.message = node.kubeletStopped ?? '';
        break;
      }
      node.message = sucUpgradeDecision(node, job.image, job.force).message;
      if (stale) {
        // The first pod's failure (the host went down) is the Job's next change.
        this.drop(run, node, job);
        break;
      }
      job.phase = 'verifying';
      node.state = 'upgrading';
      break;
    case 'verifying':
      complete();
      break;
    }
  }

  /** handle_batch.go deletes a stale Job (propagation Background): no hash on the node, no uncordon. */
  private drop(run: PlanRun, node: EmulatedNode, job: Job): void {
    run.jobs.delete(jobKey(job.node, job.hash));
    node.state = 'idle';
  }

  /** An unfinished Job's pod killed (remove): a host going down after the script's `reboot` boots the new image. */
  private killed(node: EmulatedNode, job: Job): void {
    if (job.phase === 'rebooting') {
      node.active = true;
      bootInto(node, job.image);
    }
    node.state = 'idle';
  }

  /** The Job completes (kept until its TTL): handle_batch.go labels the node with its hash and uncordons it. */
  private succeed(run: PlanRun, node: EmulatedNode, job: Job): void {
    node.labels[PLAN_LABEL_PREFIX + run.plan.name] = job.hash;
    node.state = 'idle';
    if (cordons(run.plan)) {
      node.unschedulable = false;
    }
    job.completed = Date.now();
    job.message = node.message;
  }

  /** Every plan run on one cluster, as its Plan, Jobs and node labels show it. */
  runsOn(namespace: string, cluster: string): PlanRunView[] {
    return [...this.runs.values()].filter((run) => run.namespace === namespace && run.cluster === cluster).map((run) => ({
      plan:     run.plan,
      hash:     run.hash,
      version:  latestVersion(run.plan),
      applying: [...run.applying],
      jobs:     [...run.jobs.values()].map((job) => ({
        node:    job.node,
        hash:    job.hash,
        version: job.version,
        upgrade: job.upgrade,
        phase:   job.phase,
        created: job.created,
        ...(job.failure ? { failure: job.failure } : {}),
        ...(job.lock ? { lock: { ...job.lock } } : {}),
        ...(job.completed !== undefined ? { completed: job.completed, message: job.message } : {}),
      })),
      ...(run.lastFailure ? { lastFailure: run.lastFailure } : {}),
    }));
  }

  clear(): void {
    this.runs.clear();
    this.times = { ...DEFAULT_JOB_TIMES };
  }
}
