/** @jest-environment node */
// The downstream clusters' Nodes, Plans and Jobs (tests/emulator/rancher/downstream.ts) follow the emulated rollout.

import { Emulator } from '../../emulator/core/emulator';
import { JsonObject } from '../../emulator/core/json';
import { KubeObject } from '../../emulator/kube/store';
import { RequestContext } from '../../emulator/core/http';
import { SYSTEM_ACTOR, USERS, User } from '../../emulator/rancher/users';
import { nodeRolloutRows } from '../../../pkg/os-upgrades/domain';
import {
  entry, fixtures, fleetCluster, poolOnCluster, until
} from './helpers';

const IMAGE = 'elemental.cattle.io.managedosimage';

const CLUSTER = fleetCluster('2/2');

const POOL = poolOnCluster('os-1');

/** `timeScale` scales the Jobs' TTL and deadline too: 1 keeps a failed Job for 900 s. */
async function start(sqlCache = true, timeScale = 1): Promise<Emulator> {
  const em = new Emulator({
    fixtures: fixtures({ test: [entry('os-1', 'v1'), entry('os-2', 'v2')] }, [CLUSTER, POOL]), generated: [], origin: 'http://localhost:1', timeScale, sqlCache, retryBaseMs: 60000, rolloutStepMs: 10
  });

  await em.start();

  return em;
}


function user(name: string): User {
  return USERS.find((u) => u.username === name) as User;
}

/** A GET of `/k8s/clusters/…` as the emulator's router hands it over: the status and the parsed body. */
function get(em: Emulator, url: string, as = user('admin')): { status: number; body: { data?: KubeObject[] } & JsonObject } {
  const out = { status: 0, text: '' };
  const res = {
    statusCode: 200,
    setHeader:  () => undefined,
    end:        (text = '') => {
      out.status = res.statusCode;
      out.text = text;
    }
  };
  const parsed = new URL(url, 'http://localhost:1');
  const ctx = {
    req: {}, res, method: 'GET', url: parsed, path: parsed.pathname, cookies: {}, base: 'http://localhost:1', secure: false
  } as unknown as RequestContext;

  em.downstream.handle(ctx, as);

  return { status: out.status, body: out.text.startsWith('{') ? JSON.parse(out.text) : {} };
}

const isFailed = (job: KubeObject) => ((job.status as { conditions?: JsonObject[] }).conditions ?? []).some((c) => c.type === 'Failed' && c.status === 'True');

const osImage = (node: KubeObject) => (node.status as { nodeInfo: { osImage: string } }).nodeInfo.osImage;

describe('downstream clusters', () => {
  it('serves the nodes with the seeded image and the plan hash label, and the settled Plan', async() => {
    const em = await start();
    const nodes = em.downstream.list('c-m-one', 'node') ?? [];
    const [plan] = em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [];
    const status = plan.status as JsonObject;

    expect(nodes.map((n) => n.metadata.name)).toEqual(['c1-node-1', 'c1-node-2']);
    // A kubelet's PRETTY_NAME, and the tag Elemental's labels give at boot.
    expect(nodes.map(osImage)).toEqual(['SUSE Linux Micro', 'SUSE Linux Micro']);
    expect(nodes.map((n) => n.metadata.labels?.['elemental.cattle.io/tag'])).toEqual(['v1', 'v1']);
    expect(nodes[0].metadata.labels?.['elemental.cattle.io/image']).toBe('registry.example.test-os-v1');
    expect(plan.metadata).toMatchObject({ name: 'os-upgrader-pool', namespace: 'cattle-system' });
    expect(nodes.every((n) => n.metadata.labels?.['plan.upgrade.cattle.io/os-upgrader-pool'] === status.latestHash)).toBe(true);
    expect(status.applying).toEqual([]);
    expect(em.downstream.list('c-m-none', 'node')).toBeUndefined();
    em.stop();
  });

  it('shows a job, a cordoned node and a failure as the rollout goes, and every node on the new image at the end', async() => {
    const em = await start();
    const type = em.types.require(IMAGE);
    const latest = em.api.get(type, 'fleet-default', 'pool');
    const seen = new Set<string>();

    (em.nodes.find('c1', 'c1-node-2') ?? { failNext: '' }).failNext = 'no space left on device';
    em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), managedOSVersionName: 'os-2' } }, SYSTEM_ACTOR);
    await until(() => {
      for (const job of em.downstream.list('c-m-one', 'batch.job') ?? []) {
        seen.add(JSON.stringify((job.status as JsonObject).conditions ?? 'running'));
      }
      for (const node of em.downstream.list('c-m-one', 'node') ?? []) {
        if ((node.spec as JsonObject).unschedulable) {
          seen.add('cordoned');
        }
      }

      return (em.downstream.list('c-m-one', 'batch.job') ?? []).some(isFailed);
    });
    const [job] = (em.downstream.list('c-m-one', 'batch.job') ?? []).filter(isFailed);
    const [plan] = em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [];

    expect(seen.has('cordoned')).toBe(true);
    expect(job.metadata.labels?.['upgrade.cattle.io/node']).toBe('c1-node-2');
    // Kubernetes' words on the Job, FailureTarget then Failed as the real Job controller writes them
    // (tests/conformance/recordings/kube-controllers.json); the script's in the log of each of its backoffLimit + 1 pods.
    const words = {
      status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit'
    };

    expect((job.status as { conditions: JsonObject[] }).conditions).toMatchObject([{ type: 'FailureTarget', ...words }, { type: 'Failed', ...words }]);
    const pods = (em.downstream.list('c-m-one', 'pod') ?? []).filter((p) => p.metadata.labels?.['job-name'] === job.metadata.name);

    expect(pods).toHaveLength(3);
    expect(pods.every((p) => (p.status as JsonObject).phase === 'Failed')).toBe(true);
    const log = em.downstream.podLog('c-m-one', 'cattle-system', pods[0].metadata.name) ?? '';

    expect(log).toContain('+ elemental --debug upgrade --bootloader --system dir:/');
    expect(log.trimEnd().split('\n').pop()).toBe('no space left on device');
    expect((plan.status as JsonObject).applying).toEqual(['c1-node-2']);
    expect((em.downstream.list('c-m-one', 'node') ?? [])[0].metadata.labels?.['elemental.cattle.io/tag']).toBe('v2');
    em.stop();
  });

  it('removes the Plan when the bundle is deleted', async() => {
    const em = await start();
    const bundles = em.types.require('fleet.cattle.io.bundle');

    em.api.delete(bundles, 'fleet-default', 'mos-pool', SYSTEM_ACTOR);
    await until(() => (em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? []).length === 0);
    expect(em.downstream.list('c-m-one', 'node')).toHaveLength(2);
    em.stop();
  });
});

describe('downstream Steve queries', () => {
  async function failedRollout(sqlCache: boolean): Promise<Emulator> {
    const em = await start(sqlCache);
    const type = em.types.require(IMAGE);
    const latest = em.api.get(type, 'fleet-default', 'pool');

    for (const node of em.nodes.all()) {
      node.failNext = 'no space left on device';
    }
    // Two nodes at once: pods of two Jobs in cattle-system.
    em.api.update(type, 'fleet-default', 'pool', {
      ...latest,
      spec: {
        ...(latest.spec as JsonObject), managedOSVersionName: 'os-2', concurrency: 2
      }
    }, SYSTEM_ACTOR);
    await until(() => new Set((em.downstream.list('c-m-one', 'pod') ?? []).map((p) => p.metadata.labels?.['job-name'])).size === 2);

    return em;
  }

  it('ignores labelSelector with the SQL cache, as Steve\'s ParseQuery does, and honours its own filter', async() => {
    const em = await failedRollout(true);
    const all = em.downstream.list('c-m-one', 'pod') ?? [];
    const jobName = all[0].metadata.labels?.['job-name'] ?? '';
    const bySelector = get(em, `/k8s/clusters/c-m-one/v1/pods/cattle-system?labelSelector=${ encodeURIComponent(`job-name=${ jobName }`) }`);
    const byFilter = get(em, `/k8s/clusters/c-m-one/v1/pods/cattle-system?filter=${ encodeURIComponent(`metadata.labels[job-name]=${ jobName }`) }`);

    expect(bySelector.status).toBe(200);
    expect(new Set(bySelector.body.data?.map((p) => p.metadata.labels?.['job-name'])).size).toBe(2);
    expect(bySelector.body.data).toHaveLength(all.length);
    expect(byFilter.body.data?.length).toBeGreaterThan(0);
    expect(byFilter.body.data?.every((p) => p.metadata.labels?.['job-name'] === jobName)).toBe(true);
    em.stop();
  });

  it('honours labelSelector without the SQL cache', async() => {
    const em = await failedRollout(false);
    const all = em.downstream.list('c-m-one', 'pod') ?? [];
    const jobName = all[0].metadata.labels?.['job-name'] ?? '';
    const bySelector = get(em, `/k8s/clusters/c-m-one/v1/pods/cattle-system?labelSelector=${ encodeURIComponent(`job-name=${ jobName }`) }`);

    expect(bySelector.body.data?.length).toBeGreaterThan(0);
    expect(bySelector.body.data?.length).toBeLessThan(all.length);
    expect(bySelector.body.data?.every((p) => p.metadata.labels?.['job-name'] === jobName)).toBe(true);
    em.stop();
  });
});

describe('the system-upgrade-controller\'s job cycle', () => {
  async function approveOs2(em: Emulator): Promise<void> {
    const type = em.types.require(IMAGE);
    const latest = em.api.get(type, 'fleet-default', 'pool');

    em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), managedOSVersionName: 'os-2' } }, SYSTEM_ACTOR);
  }
  const jobs = (em: Emulator) => em.downstream.list('c-m-one', 'batch.job') ?? [];
  const complete = (em: Emulator) => ((em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [])[0].status as { conditions: JsonObject[] }).conditions.find((c) => c.type === 'Complete');

  it('runs a successful Elemental upgrade in two pods: the first exits 1 after reboot, the second finds it done', async() => {
    const em = await start();
    let twoPods: KubeObject[] = [];

    await approveOs2(em);
    await until(() => {
      const pods = (em.downstream.list('c-m-one', 'pod') ?? []).filter((p) => p.metadata.labels?.['upgrade.cattle.io/node'] === 'c1-node-1');

      if (pods.length === 2) {
        twoPods = pods;
      }

      return twoPods.length === 2;
    });
    const job = jobs(em).find((j) => j.metadata.labels?.['upgrade.cattle.io/node'] === 'c1-node-1') as KubeObject;

    expect(twoPods.map((p) => (p.status as JsonObject).phase).sort()).toEqual(['Failed', 'Running']);
    expect(job.status).toMatchObject({ active: 1, failed: 1 });
    expect(isFailed(job)).toBe(false);
    await until(() => (em.nodes.of('fleet-default', 'c1') ?? []).every((n) => n.labels['elemental.cattle.io/tag'] === 'v2' && n.state === 'idle'));
    em.stop();
  });

  it('deletes a failed Job after its TTL and makes it again, so a failing node cycles, and the Plan keeps the last failure', async() => {
    const em = await start(true, 0.0001);
    const node = em.nodes.find('c1', 'c1-node-1') as NonNullable<ReturnType<Emulator['nodes']['find']>>;
    const uids = new Set<string>();
    const states: string[] = [];

    node.failNext = 'no space left on device';
    node.failTimes = 2;
    await approveOs2(em);
    await until(() => {
      const job = jobs(em).find((j) => j.metadata.labels?.['upgrade.cattle.io/node'] === 'c1-node-1');

      if (job) {
        uids.add(`${ job.metadata.uid }:${ isFailed(job) }`);
      }
      if (states[states.length - 1] !== node.state) {
        states.push(node.state);
      }

      return node.labels['elemental.cattle.io/tag'] === 'v2';
    }, 10000);
    // Two failed Jobs of the same name, each deleted and made again, then the one that succeeds.
    expect([...uids].filter((u) => u.endsWith(':true'))).toHaveLength(2);
    expect(new Set([...uids].map((u) => u.split(':')[0])).size).toBe(3);
    expect(states.filter((s) => s === 'failed')).toHaveLength(2);
    expect(states.indexOf('upgrading')).toBeLessThan(states.indexOf('failed'));
    em.stop();
  });

  it('keeps the failure on the Plan\'s Complete condition while the node is retried', async() => {
    const em = await start(true, 0.00002);
    const node = em.nodes.find('c1', 'c1-node-1') as NonNullable<ReturnType<Emulator['nodes']['find']>>;
    let retried: JsonObject | undefined;

    node.failNext = 'no space left on device';
    node.failTimes = Infinity;
    await approveOs2(em);
    await until(() => {
      const job = jobs(em).find((j) => j.metadata.labels?.['upgrade.cattle.io/node'] === 'c1-node-1');

      if (job && !isFailed(job) && complete(em)?.reason === 'JobFailed') {
        retried = complete(em);
      }

      return !!retried;
    }, 10000);
    expect(retried?.message).toMatch(/^Job cattle-system\/apply-os-upgrader-pool-on-c1-node-1-with-\S+ failed on Node c1-node-1: BackoffLimitExceeded: Job has reached the specified backoff limit$/);
    em.stop();
  });

  it('fails a hanging Job at its active deadline with DeadlineExceeded', async() => {
    const em = await start(true, 0.0001);
    const node = em.nodes.find('c1', 'c1-node-1') as NonNullable<ReturnType<Emulator['nodes']['find']>>;

    node.hangNext = 'pulling layer 3 of 9';
    await approveOs2(em);
    await until(() => jobs(em).some(isFailed));
    const job = jobs(em).find(isFailed) as KubeObject;

    expect(job.spec).toMatchObject({ activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 900 });
    expect((job.status as { conditions: JsonObject[] }).conditions[0]).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    em.stop();
  });
});

describe('two pools over the same nodes', () => {
  it('runs the second pool\'s Job at once, its pod waiting on the upgrade lock, and the extension shows that node upgrading in both pools', async() => {
    const em = await start();
    const type = em.types.require(IMAGE);
    const latest = em.api.get(type, 'fleet-default', 'pool');

    (em.nodes.find('c1', 'c1-node-1') ?? { hangNext: '' }).hangNext = 'pulling layer 3 of 9';
    em.api.create(type, 'fleet-default', {
      ...POOL, metadata: { name: 'second', namespace: 'fleet-default' }, spec: { ...(POOL.spec as JsonObject), managedOSVersionName: 'os-2' }
    }, SYSTEM_ACTOR);
    em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), managedOSVersionName: 'os-2' } }, SYSTEM_ACTOR);
    const onNode1 = () => (em.downstream.list('c-m-one', 'batch.job') ?? []).filter((j) => j.metadata.labels?.['upgrade.cattle.io/node'] === 'c1-node-1');

    await until(() => onNode1().length === 2 && onNode1().every((j) => (j.status as JsonObject).ready === 1));
    const waiting = onNode1().find((j) => j.metadata.labels?.['upgrade.cattle.io/plan'] === 'os-upgrader-second') as KubeObject;
    const [pod] = (em.downstream.list('c-m-one', 'pod') ?? []).filter((p) => p.metadata.labels?.['job-name'] === waiting.metadata.name);

    expect(waiting.status).toMatchObject({ active: 1, ready: 1 });
    expect((pod.status as JsonObject).phase).toBe('Running');
    expect((em.downstream.podLog('c-m-one', 'cattle-system', pod.metadata.name) ?? '').trimEnd().split('\n').pop()).toBe('+ flock -w 600 200');
    const reading = {
      kind: 'read' as const, plans: em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [], jobs: em.downstream.list('c-m-one', 'batch.job') ?? [], nodes: em.downstream.list('c-m-one', 'node') ?? []
    };

    for (const pool of ['pool', 'second']) {
      const rows = nodeRolloutRows({
        pool, image: 'registry.example.test/os:v2', tag: 'v2'
      }, {
        cluster: 'c1', clusterId: 'c-m-one', reading
      });

      expect(rows.find((r) => r.node === 'c1-node-1')?.state).toBe('upgrading');
    }
    em.stop();
  });
});

describe('a cluster member without the System project', () => {
  it('reads the nodes; Steve answers 404 for Plans, an empty list for Jobs in cattle-system, and refuses the cattle-system namespace', async() => {
    const em = await start();
    const member = user('member');

    expect(get(em, '/k8s/clusters/c-m-one/v1/nodes', member).body.data).toHaveLength(2);
    expect(get(em, '/k8s/clusters/c-m-one/v1/upgrade.cattle.io.plans/cattle-system', member).status).toBe(404);
    const memberJobs = get(em, '/k8s/clusters/c-m-one/v1/batch.jobs/cattle-system', member);

    expect(memberJobs.status).toBe(200);
    expect(memberJobs.body.data).toEqual([]);
    // Real Steve passes a read by name to the API server, whose RBAC refuses it (recorded: downstream-readers#0).
    expect(get(em, '/k8s/clusters/c-m-one/v1/namespaces/cattle-system', member).status).toBe(403);
    expect(get(em, '/k8s/clusters/c-m-one/v1/namespaces/edge-apps', member).status).toBe(200);
    expect(get(em, '/k8s/clusters/c-m-one/v1/namespaces', member).body.data?.map((n) => n.metadata.name)).toEqual(['edge-apps']);
    // The admin sees what is there.
    expect(get(em, '/k8s/clusters/c-m-one/v1/upgrade.cattle.io.plans/cattle-system').body.data).toHaveLength(1);
    expect(get(em, '/k8s/clusters/c-m-one/v1/namespaces/cattle-system').status).toBe(200);
    em.stop();
  });
});
