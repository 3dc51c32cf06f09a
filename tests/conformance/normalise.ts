// Strips from an answer what differs between any two runs of the same program (ids, revisions,
// times, the server's origin), so a recording compares with a replay.
import { ELEMENTAL_SCHEMA_PREFIX, SCENARIO_LABEL, SHARED_NAMESPACES } from './scenario';

const DROPPED_KEYS = new Set(['uid', 'resourceVersion', 'revision', 'creationTimestamp', 'managedFields', 'generation', 'selfLink']);
const TIME_KEY = /(Time|Timestamp|time|timestamp)$/;
// A time outside a time key: Steve's metadata.fields carries each row's creation time (its Age column).
const TIME_VALUE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
// Some types' metadata.fields give the age itself (a namespace's: "6m46s").
const AGE_VALUE = /^(\d+[dhms])+$/;
// A uid as a value elsewhere (a Job's label batch.kubernetes.io/controller-uid).
const UID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function normaliseEntry(key: string, value: unknown, origin: string): unknown {
  if (typeof value === 'string' && TIME_KEY.test(key)) {
    return '<time>';
  }
  if (key === 'fields' && Array.isArray(value)) {
    return value.map((field) => (typeof field === 'string' && AGE_VALUE.test(field) ? '<age>' : normalise(field, origin)));
  }

  return normalise(value, origin);
}

export function normalise(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) {
    return value.map((v) => normalise(v, origin));
  }
  if (typeof value === 'string') {
    if (TIME_VALUE.test(value)) {
      return '<time>';
    }

    return UID_VALUE.test(value) ? '<uid>' : value.split(origin).join('{origin}');
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};

    for (const [key, v] of Object.entries(value)) {
      if (DROPPED_KEYS.has(key)) {
        continue;
      }
      out[key] = normaliseEntry(key, v, origin);
    }

    return out;
  }

  return value;
}

interface Body {
  [key: string]: unknown;
}

function asBody(value: unknown): Body {
  return value && typeof value === 'object' && !Array.isArray(value) ? value as Body : {};
}

function sorted(value: unknown): unknown {
  return Array.isArray(value) ? [...value].sort() : value;
}

/** Steve's `checkPermissions` answer on a namespace list: each shared namespace's verbs per type. */
function namespacePermissions(data: unknown): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};

  for (const item of Array.isArray(data) ? data : []) {
    const id = asBody(item).id;

    if (typeof id === 'string' && SHARED_NAMESPACES.includes(id)) {
      const permissions = asBody(asBody(item).resourcePermissions);

      out[id] = Object.fromEntries(Object.entries(permissions).map(([type, verbs]) => [type, Object.keys(asBody(verbs)).sort()]));
    }
  }

  return out;
}

/**
 * What a recording keeps of a normalised answer: all of it, but of a schema list (`schema-ids`) only
 * the Elemental schemas, by id: the whole list is 300 kB a user, in an order that changes run to run.
 */
export function kept(compare: string, value: unknown): unknown {
  const body = asBody(value);

  if (compare !== 'schema-ids' || !Array.isArray(body.data)) {
    return value;
  }
  const elemental = body.data.filter((item) => String(asBody(item).id).startsWith(ELEMENTAL_SCHEMA_PREFIX));

  return { ...body, data: elemental.sort((a, b) => String(asBody(a).id).localeCompare(String(asBody(b).id))) };
}

/** Sorted: the API server gives an object's invalid fields in Go's map order, which changes run to run. */
function kubeCauseFields(details: unknown): unknown[] | undefined {
  const causes = asBody(details).causes;

  return Array.isArray(causes) ? causes.map((cause) => String(asBody(cause).field)).sort() : undefined;
}

function elementalSchemaIds(data: unknown): unknown[] {
  const ids = (Array.isArray(data) ? data : []).map((item) => asBody(item).id);

  return ids.filter((id) => typeof id === 'string' && id.startsWith(ELEMENTAL_SCHEMA_PREFIX)).sort();
}

function conditionsOf(status: Body, keys: string[]): unknown[] | undefined {
  const conditions = status.conditions;

  if (!Array.isArray(conditions)) {
    return undefined;
  }

  return conditions.map((c) => Object.fromEntries(keys.map((key) => [key, asBody(c)[key]])))
    .sort((a, b) => String(a.type).localeCompare(String(b.type)));
}

/** A Kubernetes object's identity and life: name, labels, finalizers, whether it is being deleted, its phase. */
function kubeObject(status: number, body: Body): unknown {
  const metadata = asBody(body.metadata);

  return status >= 400 ? { status, reason: body.reason } : {
    status,
    name:        metadata.name,
    namespace:   metadata.namespace,
    labels:      metadata.labels,
    finalizers:  sorted(metadata.finalizers),
    terminating: metadata.deletionTimestamp !== undefined,
    phase:       asBody(body.status).phase,
  };
}

/** A Job's counts and conditions, as kube-controller-manager's Job controller writes them. */
function kubeJob(status: number, body: Body): unknown {
  const jobStatus = asBody(body.status);

  return status >= 400 ? { status, reason: body.reason } : {
    status,
    active:     jobStatus.active,
    succeeded:  jobStatus.succeeded,
    failed:     jobStatus.failed,
    conditions: conditionsOf(jobStatus, ['type', 'status', 'reason', 'message']),
  };
}

/** A Fleet Bundle's targets and what the Fleet controller reports of it. */
function fleetBundle(status: number, body: Body): unknown {
  const bundleStatus = asBody(body.status);

  return status >= 400 ? { status, reason: body.reason } : {
    status,
    targets:            asBody(body.spec).targets,
    summary:            bundleStatus.summary,
    display:            bundleStatus.display,
    // Fleet says which spec its status is for (the extension's bundleDelivered compares it with
    // metadata.generation, which the recordings do not keep).
    observesGeneration: typeof bundleStatus.observedGeneration === 'number',
    conditions:         conditionsOf(bundleStatus, ['type', 'status', 'message']),
  };
}

function fleetBundleDeployments(status: number, body: Body): unknown {
  const items = Array.isArray(body.items) ? body.items.map(asBody) : undefined;

  return {
    status,
    items: items?.map((item) => {
      const metadata = asBody(item.metadata);
      // The content id is a hash of Fleet's own serialisation of the resources: only its shape is compared.
      const labels = Object.fromEntries(Object.entries(asBody(metadata.labels)).filter(([key]) => key.startsWith('fleet.cattle.io/'))
        .map(([key, value]) => [key, key === 'fleet.cattle.io/content-name' && /^s-[0-9a-f]{61}$/.test(String(value)) ? 's-<sha256>' : value]));

      return {
        namespace: metadata.namespace, name: metadata.name, labels, deploymentId: typeof asBody(item.spec).deploymentID === 'string'
      };
    }).sort((a, b) => `${ a.namespace }/${ a.name }`.localeCompare(`${ b.namespace }/${ b.name }`)),
  };
}

/** Steve's list items (`data`), sorted by id. */
function steveItems(body: Body): Body[] {
  const data = Array.isArray(body.data) ? body.data.map(asBody) : [];

  return data.sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

const READ_LABEL = /^(elemental\.cattle\.io\/|plan\.upgrade\.cattle\.io\/os-upgrader$)/;
/**
 * The Plans of the scenarios' pools (named `conf-…`, so `os-upgrader-conf-…`): the emulator's seed
 * has pools of its own on edge-berlin-01, whose Plans and node labels the stack does not have.
 */
const SCENARIO_PLAN = /^(cattle-system\/)?os-upgrader-conf-/;
const PLAN_LABEL = 'plan.upgrade.cattle.io/';
/**
 * A Plan's hash, compared by shape (sha256.New224, hex): the stack's SUC client hashes without the
 * Plan's secret (tests/emulator/real-stack/real-suc.ts), the emulator's SUC with it, as
 * rancher/system-upgrade-controller pkg/upgrade/plan/plan.go DigestStatus does.
 */
const hashShape = (value: unknown) => (typeof value === 'string' && /^[0-9a-f]{56}$/.test(value) ? '<sha224>' : value);

function readLabels(labels: Body): Record<string, unknown> {
  const read = Object.entries(labels).filter(([key]) => READ_LABEL.test(key) || (key.startsWith(PLAN_LABEL) && SCENARIO_PLAN.test(key.slice(PLAN_LABEL.length))));

  return Object.fromEntries(read.map(([key, value]) => [key, key.startsWith(`${ PLAN_LABEL }os-upgrader-`) ? hashShape(value) : value]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

/** A downstream node as the pool's node table reads it (domain/node-report.ts, node-rollout.ts). */
function downstreamNode(node: Body): unknown {
  const labels = asBody(asBody(node.metadata).labels);
  const ready = (Array.isArray(asBody(node.status).conditions) ? asBody(node.status).conditions as unknown[] : []).map(asBody).find((c) => c.type === 'Ready');

  return {
    id:            node.id,
    labels:        readLabels(labels),
    ready:         ready?.status,
    unschedulable: asBody(node.spec).unschedulable === true,
  };
}

function downstreamPlan(plan: Body): unknown {
  const status = asBody(plan.status);

  return {
    id: plan.id, latestVersion: status.latestVersion, latestHash: hashShape(status.latestHash), applying: sorted(status.applying ?? [])
  };
}

/** A Job by its Plan and node (its name ends with the Plan's hash, see hashShape). */
function downstreamJob(job: Body): unknown {
  const status = asBody(job.status);
  const labels = asBody(asBody(job.metadata).labels);

  return {
    plan:       labels['upgrade.cattle.io/plan'],
    node:       labels['upgrade.cattle.io/node'],
    active:     status.active,
    succeeded:  status.succeeded,
    failed:     status.failed,
    conditions: conditionsOf(status, ['type', 'status', 'reason', 'message']),
  };
}

/** A pod's phase and its upgrade container's state (the node table's message of a failed Job: domain/node-rollout.ts). */
function downstreamPod(pod: Body): string {
  const containers = Array.isArray(asBody(pod.status).containerStatuses) ? asBody(pod.status).containerStatuses as unknown[] : [];
  const upgrade = containers.map(asBody).find((c) => c.name === 'upgrade');
  const state = Object.entries(asBody(upgrade?.state)).map(([kind, value]) => {
    const detail = asBody(value);

    return `${ kind } ${ String(detail.reason ?? '') } ${ String(detail.message ?? '') } ${ String(detail.exitCode ?? '') }`.trim();
  });

  return `${ String(asBody(pod.status).phase) }: ${ state.join(', ') }`;
}

/** The last line of a log (the node table shows the end of the upgrade container's log). */
function lastLine(value: unknown): unknown {
  return typeof value === 'string' ? value.trimEnd().split('\n').pop() : value;
}

function downstream(compare: string, status: number, value: unknown): unknown {
  const body = asBody(value);

  if (compare === 'log-tail') {
    return { status, last: status >= 400 ? undefined : lastLine(value) };
  }
  if (status >= 400) {
    return { status, code: body.code };
  }
  const items = steveItems(body);

  switch (compare) {
  case 'downstream-nodes':
    return { status, nodes: items.map(downstreamNode) };
  case 'downstream-plans':
    return { status, plans: items.filter((plan) => SCENARIO_PLAN.test(String(plan.id))).map(downstreamPlan) };
  case 'downstream-jobs':
    // Sorted by what is compared: the names end with the Plan's hash, which the stack's SUC client
    // computes without the cloud-config secret (tests/emulator/real-stack/real-suc.ts hashOf).
    return {
      status,
      jobs: items.filter((job) => SCENARIO_PLAN.test(String(asBody(asBody(job.metadata).labels)['upgrade.cattle.io/plan']))).map(downstreamJob)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
    };
  default:
    return { status, pods: items.map(downstreamPod).sort() };
  }
}

/** The part of a normalised answer the replay compares (see Comparison). */
export function projection(compare: string, status: number, value: unknown): unknown {
  const body = asBody(value);
  const metadata = asBody(body.metadata);

  switch (compare) {
  case 'list':
    return {
      status,
      count: body.count,
      pages: body.pages,
      ids:   Array.isArray(body.data) ? body.data.map((item) => asBody(item).id) : undefined,
      // rancher/apiserver pkg/types/types.go: `summary,omitempty`.
      ...(body.summary === undefined ? {} : { summary: body.summary }),
    };
  case 'scenario-items':
    return {
      status,
      ids: Array.isArray(body.data) ? body.data.filter((item) => SCENARIO_LABEL in asBody(asBody(asBody(item).metadata).labels)).map((item) => asBody(item).id) : undefined,
    };
  case 'object':
    return status >= 400 ? { status, code: body.code } : {
      status, id: body.id, type: body.type, name: metadata.name, namespace: metadata.namespace, labels: metadata.labels, spec: body.spec,
    };
  case 'error':
    return { status, code: body.code };
  case 'permissions':
    return { status, namespaces: namespacePermissions(body.data) };
  case 'kube-list':
    return { status, names: Array.isArray(body.items) ? body.items.map((item) => asBody(asBody(item).metadata).name) : undefined };
  case 'kube-error':
    return {
      status, reason: body.reason, causes: kubeCauseFields(body.details)
    };
  case 'kube-object':
    return kubeObject(status, body);
  case 'kube-job':
    return kubeJob(status, body);
  case 'fleet-bundle':
    return fleetBundle(status, body);
  case 'fleet-bundledeployments':
    return fleetBundleDeployments(status, body);
  case 'schema-ids':
    return { status, ids: elementalSchemaIds(body.data) };
  case 'downstream-nodes':
  case 'downstream-plans':
  case 'downstream-jobs':
  case 'downstream-pods':
  case 'log-tail':
    return downstream(compare, status, value);
  case 'schema':
    return {
      status, id: body.id, collectionMethods: sorted(body.collectionMethods), resourceMethods: sorted(body.resourceMethods)
    };
  default:
    return { status };
  }
}

/** JSON with every object's keys sorted: two answers that differ only in key order are the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}
