// What the system-upgrade-controller decides for a Plan on the real stack (`--backend real-stack`),
// read from rancher/system-upgrade-controller:
// - pkg/upgrade/plan/plan.go SelectConcurrentNodes: the nodes the Plan's nodeSelector picks whose
//   `plan.upgrade.cattle.io/<plan>` label is not the Plan's hash; those in status.applying count
//   against `concurrency` and the rest fill the free places, in name order;
// - a finished Job is kept until its TTL, and a Plan back on its hash meets it (suc/suc.ts says how:
//   replaced when its pod template changed, else left, the node marked at the TTL);
// - pkg/upgrade/job/job.go New: the Job `apply-<plan>-on-<node>-with-<hash>` in the Plan's
//   namespace, its labels (and its pod template's), the node affinity on kubernetes.io/hostname,
//   the anti-affinity on the plan label, the toleration of node.kubernetes.io/unschedulable,
//   backoffLimit 2, activeDeadlineSeconds 600, ttlSecondsAfterFinished 900, restartPolicy Never;
//   the upgrade container runs the Plan's image tagged with its version (pkg/upgrade/container).
// The hash and version are suc/suc.ts's (plan.go DigestStatus, MungeVersion).

import { JsonObject, asObject, asString, isObject } from '../core/json';
import { matchesLabels, selectorFromObject } from '../kube/labels';
import { KubeObject } from '../kube/store';
import { safeConcatName } from '../kube/wrangler-name';
import { PLAN_LABEL_PREFIX } from '../suc/suc';

export const SUC_NAME = 'system-upgrade-controller';
const BACKOFF_LIMIT = 2;
const ACTIVE_DEADLINE_SECONDS = 600;
const TTL_SECONDS_AFTER_FINISHED = 900;

export interface PlanState {
  name: string;
  uid: string;
  namespace: string;
  hash: string;
  version: string;
}

export function jobName(plan: PlanState, node: string): string {
  return safeConcatName('apply', plan.name, 'on', node, 'with', plan.hash);
}

function jobLabels(plan: PlanState, node: string): Record<string, string> {
  return {
    'upgrade.cattle.io/controller':  SUC_NAME,
    'upgrade.cattle.io/node':        node,
    'upgrade.cattle.io/plan':        plan.name,
    'upgrade.cattle.io/version':     plan.version,
    [PLAN_LABEL_PREFIX + plan.name]: plan.hash,
  };
}

/** The upgrade container's image: the Plan's, tagged with its version when it has no tag (container.go WithLatestTag). */
export function upgradeImage(spec: JsonObject, version: string): string {
  const image = asString(asObject(spec.upgrade).image) ?? '';

  return (image.split('/').pop() ?? '').includes(':') ? image : `${ image }:${ version }`;
}

/** job.go New, without the volumes and the prepare/cordon/drain init containers nothing here runs. */
export function upgradeJob(plan: PlanState, spec: JsonObject, node: string): JsonObject {
  const labels = jobLabels(plan, node);
  const upgrade = asObject(spec.upgrade);

  return {
    apiVersion: 'batch/v1',
    kind:       'Job',
    metadata:   {
      name:            jobName(plan, node),
      namespace:       plan.namespace,
      annotations:     { 'upgrade.cattle.io/ttl-seconds-after-finished': String(TTL_SECONDS_AFTER_FINISHED) },
      labels,
      // RegisterPlanGeneratingHandler (pkg/upgrade/handle_upgrade.go; rancher/wrangler's generating
      // handler applies with the Plan as owner reference): the Jobs go with the Plan.
      // GeneratingHandlerOptions NoOwnerReference → WithSetOwnerReference(true, false)
      // (rancher/wrangler v3 pkg/generic/generating.go, pkg/apply/desiredset_process.go).
      ownerReferences: [{
        apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', name: plan.name, uid: plan.uid, controller: true, blockOwnerDeletion: false
      }],
    },
    spec: {
      backoffLimit:            BACKOFF_LIMIT,
      activeDeadlineSeconds:   ACTIVE_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: TTL_SECONDS_AFTER_FINISHED,
      template:                {
        metadata: { labels },
        spec:     {
          hostIPC:            true,
          hostPID:            true,
          hostNetwork:        true,
          serviceAccountName: asString(spec.serviceAccountName),
          affinity:           {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{
                  matchExpressions: [{
                    key: 'kubernetes.io/hostname', operator: 'In', values: [node]
                  }]
                }]
              }
            },
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{
                labelSelector: {
                  matchExpressions: [{
                    key: 'upgrade.cattle.io/plan', operator: 'In', values: [plan.name]
                  }]
                },
                topologyKey: 'kubernetes.io/hostname'
              }]
            },
          },
          tolerations: [{
            key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule'
          }, ...(Array.isArray(spec.tolerations) ? spec.tolerations : [])],
          restartPolicy: 'Never',
          containers:    [{
            name:    'upgrade',
            image:   upgradeImage(spec, plan.version),
            command: upgrade.command,
            args:    upgrade.args,
            env:     upgrade.envs,
          }],
        },
      },
    },
  };
}

/** Which of the Plan's own Jobs finished: Kubernetes' Job controller's Complete or Failed condition. */
export function jobOutcome(job: KubeObject): 'running' | 'succeeded' | 'failed' {
  const conditions = asObject(job.status).conditions;
  const isTrue = (type: string) => (Array.isArray(conditions) ? conditions.filter(isObject) : []).some((c) => c.type === type && c.status === 'True');

  return isTrue('Complete') ? 'succeeded' : isTrue('Failed') ? 'failed' : 'running';
}

/** The nodes the Plan's nodeSelector picks. */
export function selectedNodes(spec: JsonObject, nodes: KubeObject[]): KubeObject[] {
  const selector = selectorFromObject(spec.nodeSelector);

  return nodes.filter((n) => matchesLabels(selector, n.metadata.labels));
}

/** The Plan's own Job for a node and the Plan's hash (its name, job.go New: one per node and hash). */
function ownJob(plan: PlanState, node: string, jobs: KubeObject[]): KubeObject | undefined {
  const label = PLAN_LABEL_PREFIX + plan.name;

  return jobs.find((j) => j.metadata.namespace === plan.namespace && !j.metadata.deletionTimestamp && j.metadata.labels?.['upgrade.cattle.io/plan'] === plan.name &&
    j.metadata.labels?.['upgrade.cattle.io/node'] === node && j.metadata.labels?.[label] === plan.hash);
}

/**
 * plan.go SelectConcurrentNodes: the nodes the Plan's nodeSelector picks without its hash; those in
 * status.applying (or with a Job of the Plan running or failed) first, then the others by name
 * up to `concurrency`. They are the new status.applying.
 */
export function selectConcurrentNodes(plan: PlanState, spec: JsonObject, applying: readonly string[], nodes: KubeObject[], jobs: KubeObject[]): string[] {
  const label = PLAN_LABEL_PREFIX + plan.name;
  const busy = new Set(jobs.filter((j) => j.metadata.namespace === plan.namespace && j.metadata.labels?.['upgrade.cattle.io/plan'] === plan.name &&
    jobOutcome(j) !== 'succeeded').map((j) => j.metadata.labels?.['upgrade.cattle.io/node']));
  const pending = selectedNodes(spec, nodes).filter((n) => n.metadata.labels?.[label] !== plan.hash).map((n) => n.metadata.name).sort();
  const first = pending.filter((name) => applying.includes(name) || busy.has(name));
  const concurrency = typeof spec.concurrency === 'number' ? spec.concurrency : 1;

  return [...first, ...pending.filter((name) => !first.includes(name)).slice(0, Math.max(0, concurrency - first.length))].sort();
}

/** What job.go New takes from the Plan into the upgrade container (the API server adds defaults to the rest). */
function containerShape(job: JsonObject): string {
  const containers = asObject(asObject(asObject(job.spec).template).spec).containers;
  const upgrade = asObject(Array.isArray(containers) ? containers.filter(isObject).find((c) => c.name === 'upgrade') : undefined);

  return JSON.stringify([upgrade.image, upgrade.env ?? [], upgrade.command ?? [], upgrade.args ?? []]);
}

/**
 * The Plan's generating handler for the selected nodes (handle_upgrade.go, applied by rancher/wrangler
 * v3 pkg/apply): a node without its Job gets one; a finished Job whose pod template the Plan now
 * builds differently (FORCE added or removed) is replaced (reconcilers.go reconcileJob ErrReplace:
 * deleted now, created at the next pass); the same template is left as it is, running or not.
 */
export function jobActions(plan: PlanState, spec: JsonObject, selected: readonly string[], jobs: KubeObject[]): { create: string[]; replace: KubeObject[] } {
  const create: string[] = [];
  const replace: KubeObject[] = [];

  for (const node of selected) {
    const job = ownJob(plan, node, jobs);

    if (!job) {
      create.push(node);
    } else if (jobOutcome(job) === 'succeeded' && containerShape(job) !== containerShape(upgradeJob(plan, spec, node))) {
      replace.push(job);
    }
  }

  return { create, replace };
}

/**
 * handle_batch.go enqueueOrDelete: a finished Job is handled once more at its TTL
 * (`completionTime` + ttlSecondsAfterFinished; kube-controller-manager's TTL-after-finished
 * controller deletes it then too): undefined before that time, else its expiry (ms).
 */
export function finishedJobExpiry(job: KubeObject): number | undefined {
  const spec = asObject(job.spec);
  const ttl = typeof spec.ttlSecondsAfterFinished === 'number' ? spec.ttlSecondsAfterFinished : TTL_SECONDS_AFTER_FINISHED;
  const completed = Date.parse(String(asObject(job.status).completionTime ?? ''));

  return jobOutcome(job) === 'succeeded' && Number.isFinite(completed) ? completed + ttl * 1000 : undefined;
}

/** kwok's chaos stage pod-container-running-failed (sigs.k8s.io/kwok kustomize/stage/pod/chaos): a running pod with this label fails. */
export const KWOK_FAIL_LABEL = 'pod-container-running-failed.stage.kwok.x-k8s.io';

/**
 * The Job with its pods failed by kwok, as the upgrade script's `exit 1` would fail them on the host:
 * every pod of the Job fails (the Job controller retries up to backoffLimit, then marks it Failed),
 * its container terminated with `message` (the stage's reason, message and exit-code annotations).
 */
export function failingJob(job: JsonObject, message: string): JsonObject {
  const spec = asObject(job.spec);
  const template = asObject(spec.template);
  const metadata = asObject(template.metadata);

  return {
    ...job,
    spec: {
      ...spec,
      template: {
        ...template,
        metadata: {
          ...metadata,
          labels:      { ...asObject(metadata.labels), [KWOK_FAIL_LABEL]: 'true' },
          annotations: {
            ...asObject(metadata.annotations),
            [`${ KWOK_FAIL_LABEL }/reason`]:    'Error',
            // The stage's template writes it unquoted into YAML: as a JSON string it stays one scalar (a ': ' would break it).
            [`${ KWOK_FAIL_LABEL }/message`]:   JSON.stringify(message),
            [`${ KWOK_FAIL_LABEL }/exit-code`]: '1',
          },
        },
      },
    },
  };
}
