// What the system-upgrade-controller decides for a Plan on the real stack (`--backend real-stack`),
// read from rancher/system-upgrade-controller:
// - pkg/upgrade/plan/plan.go SelectConcurrentNodes: the nodes the Plan's nodeSelector picks whose
//   `plan.upgrade.cattle.io/<plan>` label is not the Plan's hash; those with a Job already count
//   against `concurrency` and the rest fill the free places, in name order;
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
      ownerReferences: [{
        apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', name: plan.name, uid: plan.uid, blockOwnerDeletion: true
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

/** SelectConcurrentNodes: the nodes to create Jobs for now. */
export function nodesToStart(plan: PlanState, spec: JsonObject, nodes: KubeObject[], jobs: KubeObject[]): string[] {
  const label = PLAN_LABEL_PREFIX + plan.name;
  const ownJobs = jobs.filter((j) => j.metadata.namespace === plan.namespace && j.metadata.labels?.['upgrade.cattle.io/plan'] === plan.name &&
    j.metadata.labels?.[label] === plan.hash);
  const withJob = new Set(ownJobs.map((j) => j.metadata.labels?.['upgrade.cattle.io/node']));
  // plan.go SelectConcurrentNodes: a node in status.applying (its Job running or failed, the node
  // still without the hash) keeps its slot; a failed node's Job comes again after its TTL.
  const applying = ownJobs.filter((j) => jobOutcome(j) !== 'succeeded').length;
  const free = Math.max(0, (typeof spec.concurrency === 'number' ? spec.concurrency : 1) - applying);
  const waiting = selectedNodes(spec, nodes).filter((n) => n.metadata.labels?.[label] !== plan.hash && !withJob.has(n.metadata.name))
    .map((n) => n.metadata.name).sort();

  return waiting.slice(0, free);
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
