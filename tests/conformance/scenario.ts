// A conformance scenario: requests the extension makes to Steve, run live against the real stack
// (record.ts) and replayed against the emulator (tests/unit/conformance/replay.test.ts).

/** The emulator's users (tests/emulator/rancher/users.ts); on the real stack each is a Kubernetes identity named by its Rancher user id. */
export const USER_IDS = {
  admin: 'user-h5cqk', viewer: 'u-8mx2p', editor: 'u-q7c4t', limited: 'u-l1m7d', member: 'u-m3b9r'
} as const;

export type UserName = keyof typeof USER_IDS;

/**
 * In a request body, the string `{uid:<name>}` is replaced when sent by the uid of the object of
 * that name in the latest answer that held one (an ownerReference needs its owner's uid); the
 * recording keeps the placeholder, so the emulator's uids compare with the real ones.
 */
export const UID_PLACEHOLDER = /^\{uid:(.+)\}$/;

export interface ConformanceRequest {
  user: UserName;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Steve path and query, e.g. `/v1/elemental.cattle.io.managedosversions?filter=…` */
  path: string;
  body?: unknown;
  contentType?: string;
}

/**
 * What the replay compares of an answer (the recording keeps the whole normalised answer):
 * `status` the status code; `list` status, count, pages and the ids in order; `scenario-items` status and
 * the ids, in order, of the items a scenario made (SCENARIO_LABEL: a list of every object of a type,
 * where the emulator's seed has others); `object` status, id,
 * type, name, namespace, labels and spec; `error` status and Steve's error code; `schema` status,
 * id and the methods the user is given (collectionMethods, resourceMethods), sorted; `permissions`
 * status and, for each of SHARED_NAMESPACES in the list, the verbs of its `resourcePermissions`, sorted;
 * `schema-ids` status and the ids of the Elemental schemas in a schema list, sorted; on the Kubernetes
 * API (`/apis/…`), `kube-list` status and the items' names in order, `kube-error` status, reason and
 * the fields of its causes, sorted; `kube-object` status, name, namespace, labels, finalizers, whether
 * it is being deleted and its status.phase; `kube-job` status and a Job's counts (active, succeeded,
 * failed) and conditions (type, status, reason, message), sorted by type; `fleet-bundle` status, a
 * Bundle's targets, status.summary, status.display and conditions (type, status, message);
 * `fleet-bundledeployments` status and each BundleDeployment's namespace, name, fleet.cattle.io labels
 * and whether its spec carries a deployment id, sorted.
 */
export type Comparison = 'status' | 'list' | 'scenario-items' | 'object' | 'error' | 'schema' | 'permissions' | 'schema-ids' | 'kube-list' | 'kube-error'
  | 'kube-object' | 'kube-job' | 'fleet-bundle' | 'fleet-bundledeployments' | DownstreamComparison;

/**
 * What the extension reads of a downstream cluster's answers (api/downstream.ts, domain/node-rollout.ts,
 * domain/node-report.ts), each list sorted by id: `downstream-nodes` status and each node's id, its
 * labels `elemental.cattle.io/*` and `plan.upgrade.cattle.io/*`, its Ready condition's status and
 * `spec.unschedulable`; `downstream-plans` status and each Plan's id and `status.latestVersion`,
 * `latestHash`, `applying`; `downstream-jobs` status and each Job's id, its node label, counts
 * (active, succeeded, failed) and conditions (type, status, reason, message); `downstream-pods`
 * status and each pod's phase and its `upgrade` container's state (waiting, running or terminated,
 * with reason, message and exit code), sorted; `log-tail` status and the log's last line.
 */
export type DownstreamComparison = 'downstream-nodes' | 'downstream-plans' | 'downstream-jobs' | 'downstream-pods' | 'log-tail';

/** In a path, `{name:<key>}`: a name learnt from an earlier answer (RequestStep.learn). */
export const NAME_PLACEHOLDER = /\{name:([^}]+)\}/g;

/** The schemas a `schema-ids` comparison keeps: the Elemental operator's, whose presence the extension reads (api/operator.ts). */
export const ELEMENTAL_SCHEMA_PREFIX = 'elemental.cattle.io.';

/** The namespaces both the real stack (tests/real-stack/rbac.yaml) and the emulator's seed have. */
export const SHARED_NAMESPACES = ['cattle-system', 'fleet-default', 'fleet-local'];

export interface RequestStep {
  request: ConformanceRequest;
  compare: Comparison;
  /**
   * Names this answer gives for later paths: a path's `{name:<key>}` is replaced when sent by the
   * value learnt under `<key>` (a Job's name carries the Plan's hash, a pod's a random suffix); the
   * recording keeps the placeholder.
   */
  learn?: (answer: { status: number; body: unknown }) => Record<string, string>;
  /** Steve's SQL cache sees a write through a watch: wait this long before the step. */
  settleMs?: number;
  /**
   * A controller acts on its own time: the request is sent again every 250 ms (times the target's
   * waitScale) until `until` holds of the answer, for at most `withinMs`; the last answer is recorded.
   */
  poll?: { withinMs: number; until: (answer: { status: number; body: unknown }) => boolean };
}

/**
 * A websocket on /v1/subscribe as the shell opens it (plugins/steve/subscribe.js): the subscribe
 * messages are sent, then the steps run, then the events seen are recorded. The replay compares
 * which events came for which object (name and id, each once), not their count or timing.
 */
export interface WatchStep {
  watch: {
    user: UserName;
    /** The messages sent; a string `{name:<key>}` in one is replaced by a name learnt (RequestStep.learn), such as a list's revision. */
    subscribe: Record<string, unknown>[];
    /** Send the `revision` of the latest list answer as the subscription's `resourceVersion`. */
    atLastRevision?: boolean;
    /** The socket's path: `/v1/subscribe` unless given (a downstream cluster's `/k8s/clusters/<id>/v1/subscribe`). */
    path?: string;
    /**
     * How an event is named: `<event name> <object id>` (the default) or `<event name> <resourceType>`
     * (where the ids differ between the two: a Job's name carries the Plan's hash, and the emulator's
     * downstream cluster has objects of its own seed).
     */
    eventsBy?: 'id' | 'type';
    /**
     * Wait this long after each message: a stop sent while real Steve still starts the watch it stops
     * may answer `resource.error` "context canceled" (its cache for the type waited on a canceled
     * context), which a person's stop, sent long after the start, never meets.
     */
    messageGapMs?: number;
  };
  during: RequestStep[];
  /** How long to listen after the last step. */
  collectMs: number;
}

export type Step = RequestStep | WatchStep;

/** Parts of the real stack a scenario needs besides the API server and Steve (scripts/real-stack/up, REAL_STACK_SKIP). */
export type StackPart = 'kube-controller-manager' | 'kwok' | 'fleet';

export interface Scenario {
  name: string;
  /**
   * Recorded through the emulator in front of the real stack (`--backend real-stack
   * --real-stack-downstream c-m-b3rl1n01`), as the browser reaches it: Rancher's own parts
   * (login, the cluster proxy, the control endpoints) are the emulator's, the rest the stack's.
   */
  throughEmulator?: boolean;
  /**
   * The replay starts an emulator of its own for this scenario with these `--time-scale` and
   * `--rollout-step-ms` (the others replay at 0 and 20 ms, where every emulated duration is none and a
   * node's Job lives a few steps): its SUC keeps a failed Job for its TTL, 900 s times `timeScale`,
   * and a running Job long enough for the polls to read it and its pods.
   */
  replayEmulator?: { timeScale: number; rolloutStepMs: number; changelogService?: 'pr891' };
  /**
   * `pr891`: the scenario reads the ManagedOSChangelog type of the Elemental operator's PR #891. The
   * recorder applies that CRD (config/crd/bases of the PR's head, from the operator's git copy, as
   * tests/real-stack/apply.mjs reads v1.9.2's) before the scenario and deletes it after, so no other
   * scenario and no browser run on the stack sees it; the replay's emulator runs
   * `--changelog-service pr891` (replayEmulator).
   */
  operatorCrds?: 'pr891';
  /** What the extension relies on here, and where (the extension's file). */
  about: string;
  /** The recorder skips the scenario (keeping its recording) when one of these did not start. */
  needs?: StackPart[];
  steps: Step[];
}

export interface RequestExchange {
  request: ConformanceRequest;
  compare: Comparison;
  response: { status: number; body: unknown };
}

export interface WatchExchange {
  watch: WatchStep['watch'];
  /** `<event name> <object id>` (or `<resourceType>`: `eventsBy`), each once, in the order first seen (pings left out). */
  events: string[];
}

export type Exchange = RequestExchange | WatchExchange;

export interface Recording {
  scenario: string;
  about: string;
  /** The real programs that answered. */
  versions: Record<string, string>;
  exchanges: Exchange[];
}

/** Objects of a scenario carry this label, so its lists never see another's (or the emulator's seed). */
export const SCENARIO_LABEL = 'conformance.os-upgrades.cattle.io/scenario';
