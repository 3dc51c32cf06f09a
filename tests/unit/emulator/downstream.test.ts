/** @jest-environment node */
// The downstream clusters' Nodes, Plans and Jobs (tests/emulator/downstream.ts) follow the emulated rollout.

import { Emulator } from '../../emulator/emulator';
import { JsonObject } from '../../emulator/json';
import { KubeObject } from '../../emulator/store';
import { SYSTEM_ACTOR } from '../../emulator/users';
import { entry, fixtures } from './helpers';

const IMAGE = 'elemental.cattle.io.managedosimage';

const CLUSTER: JsonObject = {
  apiVersion: 'fleet.cattle.io/v1alpha1',
  kind:       'Cluster',
  metadata:   {
    name: 'c1', namespace: 'fleet-default', labels: { 'management.cattle.io/cluster-name': 'c-m-one' }
  },
  status: { display: { readyNodes: '2/2' } },
};

const POOL: JsonObject = {
  apiVersion: 'elemental.cattle.io/v1beta1',
  kind:       'ManagedOSImage',
  metadata:   { name: 'pool', namespace: 'fleet-default' },
  spec:       { managedOSVersionName: 'os-1', clusterTargets: [{ clusterName: 'c1' }] },
};

async function start(): Promise<Emulator> {
  const em = new Emulator({
    fixtures: fixtures({ test: [entry('os-1', 'v1'), entry('os-2', 'v2')] }, [CLUSTER, POOL]), generated: [], origin: 'http://localhost:1', timeScale: 0, sqlCache: true, retryBaseMs: 60000, rolloutStepMs: 10
  });

  await em.start();

  return em;
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;

  while (!check()) {
    if (Date.now() > end) {
      throw new Error('timed out');
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const osImage = (node: KubeObject) => (node.status as { nodeInfo: { osImage: string } }).nodeInfo.osImage;

describe('downstream clusters', () => {
  it('serves the nodes with the seeded image and the plan hash label, and the settled Plan', async() => {
    const em = await start();
    const nodes = em.downstream.list('c-m-one', 'node') ?? [];
    const [plan] = em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [];
    const status = plan.status as JsonObject;

    expect(nodes.map((n) => n.metadata.name)).toEqual(['c1-node-1', 'c1-node-2']);
    expect(nodes.map(osImage)).toEqual(['registry.example.test/os:v1', 'registry.example.test/os:v1']);
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

      return (em.downstream.list('c-m-one', 'batch.job') ?? []).some((j) => (j.status as JsonObject).failed === 1);
    });
    const [job] = (em.downstream.list('c-m-one', 'batch.job') ?? []).filter((j) => (j.status as JsonObject).failed === 1);
    const [plan] = em.downstream.list('c-m-one', 'upgrade.cattle.io.plan') ?? [];

    expect(seen.has('cordoned')).toBe(true);
    expect(job.metadata.labels?.['upgrade.cattle.io/node']).toBe('c1-node-2');
    // Kubernetes' words on the Job; the script's in the log of each of its backoffLimit + 1 pods.
    expect((job.status as { conditions: JsonObject[] }).conditions[0]).toMatchObject({
      type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit'
    });
    const pods = (em.downstream.list('c-m-one', 'pod') ?? []).filter((p) => p.metadata.labels?.['job-name'] === job.metadata.name);

    expect(pods).toHaveLength(3);
    expect(pods.every((p) => (p.status as JsonObject).phase === 'Failed')).toBe(true);
    const log = em.downstream.podLog('c-m-one', 'cattle-system', pods[0].metadata.name) ?? '';

    expect(log).toContain('+ elemental --debug upgrade --bootloader --system dir:/');
    expect(log.trimEnd().split('\n').pop()).toBe('no space left on device');
    expect((plan.status as JsonObject).applying).toEqual(['c1-node-2']);
    expect(osImage((em.downstream.list('c-m-one', 'node') ?? [])[0])).toBe('registry.example.test/os:v2');
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
