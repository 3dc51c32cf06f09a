// The Plan → Jobs → node labels cycle of a pool, read as the extension reads a downstream cluster
// (pkg/os-upgrades/api/downstream.ts: Steve of the cluster at /k8s/clusters/<id>/v1, a pod's log on
// its kube API). Recorded through the emulator in front of the real stack (`--backend real-stack
// --real-stack-downstream c-m-b3rl1n01`): edge-berlin-01 is the stack itself, its nodes kwok's, the
// Plan applied by real Fleet's agent, the Jobs run by kube-controller-manager and kwok; the SUC is
// the emulator's client of the API server (tests/emulator/real-stack/real-suc.ts). Replayed against
// the plain emulator (its SUC, tests/emulator/suc, and rancher/downstream.ts).
import { Comparison, RequestStep, SCENARIO_LABEL, Scenario } from '../scenario';
import { Answer, learnt, revisionAs } from './answers';

const NAME = 'downstream-rollout';
const POOL = 'conf-rollout';
const PLAN = `os-upgrader-${ POOL }`;
const CLUSTER = '/k8s/clusters/c-m-b3rl1n01';
const V1 = `${ CLUSTER }/v1`;
const REPOSITORY = 'registry.suse.com/suse/sl-micro/6.1/base-os-container';
/** The image label of 2.2.0-3.9 is 63 characters: a value the API server takes. */
const TAG = '2.2.0-3.9';
const BACK_TAG = '2.2.0-3.8';
const NODES = ['edge-berlin-01-node-1', 'edge-berlin-01-node-2', 'edge-berlin-01-node-3'];
/** Fleet's agent, then three Jobs one at a time on kwok (each 10 to 30 s on a loaded machine); a failing Job's three pods with the Job controller's backoff. */
const WITHIN_MS = 300000;

interface SteveItem {
  id?: string;
  metadata?: { name?: string; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: { unschedulable?: boolean };
  status?: {
    applying?: string[];
    latestHash?: string;
    conditions?: { type?: string; status?: string }[];
  };
}

const items = (answer: Answer): SteveItem[] => {
  const data = (answer.body as { data?: unknown } | null)?.data;

  return Array.isArray(data) ? data as SteveItem[] : [];
};
const trueCondition = (item: SteveItem, type: string) => (item.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

function get(path: string, compare: Comparison, options: Pick<RequestStep, 'learn'> & { until?: (answer: Answer) => boolean } = {}): RequestStep {
  return {
    compare,
    request: {
      user: 'admin', method: 'GET', path
    },
    ...(options.until ? { poll: { withinMs: WITHIN_MS, until: options.until } } : {}),
    ...(options.learn ? { learn: options.learn } : {}),
  };
}

const plan = (answer: Answer) => items(answer).find((p) => p.id === `cattle-system/${ PLAN }`);
/** Every node on the pool's image: its tag label, the Plan's hash label, Ready and uncordoned (domain/node-rollout.ts). */
const rolledOut = (tag: string) => (answer: Answer) => {
  const nodes = items(answer).filter((n) => NODES.includes(String(n.id)));

  return nodes.length === NODES.length && nodes.every((n) => n.metadata?.labels?.['elemental.cattle.io/tag'] === tag &&
    !!n.metadata?.labels?.[`plan.upgrade.cattle.io/${ PLAN }`] && trueCondition(n, 'Ready') && !n.spec?.unschedulable);
};
const jobOf = (answer: Answer, node: string, failed?: boolean) => items(answer).find((j) => j.metadata?.labels?.['upgrade.cattle.io/node'] === node &&
  j.metadata?.labels?.['upgrade.cattle.io/plan'] === PLAN && (failed === undefined || trueCondition(j, 'Failed') === failed));
/** The newest pod (its last attempt), as domain newestPodName picks it. */
const newestPod = (answer: Answer) => [...items(answer)].sort((a, b) => String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)) ||
  String(b.metadata?.name).localeCompare(String(a.metadata?.name)))[0]?.metadata?.name;

const podsOf = (key: string, compare: Comparison, until: (answer: Answer) => boolean, learnAs: string): RequestStep => get(
  `${ V1 }/pods/cattle-system?filter=${ encodeURIComponent('metadata.labels[job-name]=') }{name:${ key }}`, compare, {
    until,
    learn: (answer) => {
      const pod = newestPod(answer);

      return learnt(learnAs, pod);
    }
  });
const log = (key: string): RequestStep => get(`${ CLUSTER }/api/v1/namespaces/cattle-system/pods/{name:${ key }}/log?container=upgrade&tailLines=40`, 'log-tail');

function pool(tag: string): Record<string, unknown> {
  return {
    type:     'elemental.cattle.io.managedosimage',
    metadata: {
      name: POOL, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME }
    },
    spec: {
      osImage: `${ REPOSITORY }:${ tag }`, concurrency: 1, clusterTargets: [{ clusterName: 'edge-berlin-01' }]
    },
  };
}

/** The rollout to the new tag, read while the node table's watch is open. */
const rollout: RequestStep[] = [
  get(`${ V1 }/upgrade.cattle.io.plans/cattle-system`, 'downstream-plans', { until: (a) => !!plan(a)?.status?.latestHash }),
  // A node's Job of the Plan, while it runs or once it is done (the SUC keeps it until its TTL).
  get(`${ V1 }/batch.jobs/cattle-system`, 'status', {
    until: (a) => NODES.some((node) => !!jobOf(a, node)),
    learn: (a) => {
      const job = NODES.map((node) => jobOf(a, node)).find(Boolean)?.metadata?.name;

      return learnt('first-job', job);
    }
  }),
  // A running Job's pod is read at a moment the two run differently (kwok's stages, the emulator's steps): its status only.
  podsOf('first-job', 'status', (a) => items(a).length > 0, 'first-pod'),
  log('first-pod'),
  get(`${ V1 }/nodes`, 'downstream-nodes', { until: rolledOut(TAG) }),
  get(`${ V1 }/upgrade.cattle.io.plans/cattle-system`, 'downstream-plans', { until: (a) => (plan(a)?.status?.applying ?? []).length === 0 }),
];

export const downstreamRollout: Scenario = {
  name:            NAME,
  throughEmulator: true,
  replayEmulator:  { timeScale: 0.004, rolloutStepMs: 150 },
  needs:           ['kube-controller-manager', 'kwok', 'fleet'],
  about:           'a pool rolling out on edge-berlin-01 at concurrency 1, read as the extension reads the downstream cluster: its nodes, the Plan, the Jobs, a Job\'s pods by job-name and a pod\'s log, until every node has the new tag and the Plan\'s hash, Ready and uncordoned; then a node failed (POST /__emulator/nodes/fail): its Job Failed, its pods and the Plan waiting on it',
  steps:           [
    {
      compare: 'object',
      request: {
        user: 'admin', method: 'POST', path: '/v1/elemental.cattle.io.managedosimages', body: pool(TAG)
      }
    },
    get(`${ V1 }/namespaces/cattle-system`, 'status'),
    // The node table's first read (api/downstream.ts readDownstream), then its watch of each type from its list's revision.
    get(`${ V1 }/nodes`, 'status', { learn: revisionAs('nodes') }),
    get(`${ V1 }/batch.jobs/cattle-system`, 'status', { learn: revisionAs('jobs') }),
    // Once the Plan is there (Fleet's agent applies it on its own time): the watch then sees the rollout, not the Plan's creation.
    get(`${ V1 }/upgrade.cattle.io.plans/cattle-system`, 'status', { learn: revisionAs('plans'), until: (a) => !!plan(a) }),
    {
      watch: {
        user:      'admin',
        path:      `${ V1 }/subscribe`,
        subscribe: [
          { resourceType: 'node', resourceVersion: '{name:nodes}' },
          {
            resourceType: 'batch.job', namespace: 'cattle-system', resourceVersion: '{name:jobs}'
          },
          {
            resourceType: 'upgrade.cattle.io.plan', namespace: 'cattle-system', resourceVersion: '{name:plans}'
          },
        ],
        eventsBy: 'type',
      },
      during:    rollout,
      collectMs: 500,
    },
    get(`${ V1 }/batch.jobs/cattle-system`, 'downstream-jobs'),
    // A failing node: its next Job fails (the upgrade script's exit 1), then the pool goes back to the old tag.
    {
      compare: 'status',
      request: {
        user:   'admin',
        method: 'POST',
        path:   '/__emulator/nodes/fail',
        body:   {
          cluster: 'edge-berlin-01', node: NODES[0], message: 'conformance: disk full'
        }
      }
    },
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'PATCH', path: `/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages/${ POOL }`, body: { spec: { osImage: `${ REPOSITORY }:${ BACK_TAG }` } }, contentType: 'application/merge-patch+json'
      }
    },
    get(`${ V1 }/batch.jobs/cattle-system`, 'downstream-jobs', {
      until: (a) => !!jobOf(a, NODES[0], true),
      learn: (a) => {
        const job = jobOf(a, NODES[0], true)?.metadata?.name;

        return learnt('failed-job', job);
      }
    }),
    podsOf('failed-job', 'downstream-pods', (a) => items(a).length > 0, 'failed-pod'),
    log('failed-pod'),
    get(`${ V1 }/upgrade.cattle.io.plans/cattle-system`, 'downstream-plans'),
    get(`${ V1 }/nodes`, 'downstream-nodes'),
    // The node table watches the Jobs and the Plans without a revision when their list gave none
    // (api/downstream.ts); the Nodes' list always has one here, and their late changes would race the watch.
    {
      watch: {
        user:      'admin',
        path:      `${ V1 }/subscribe`,
        subscribe: [
          { resourceType: 'batch.job', namespace: 'cattle-system' },
          { resourceType: 'upgrade.cattle.io.plan', namespace: 'cattle-system' },
        ],
        eventsBy: 'type'
      },
      during: [{
        compare: 'status',
        request: {
          user: 'admin', method: 'DELETE', path: `/v1/elemental.cattle.io.managedosimages/fleet-default/${ POOL }`
        }
      }],
      // Fleet's agent removes the Plan, and the Jobs with it, seconds after the pool goes.
      collectMs: 5000,
    },
  ],
};
