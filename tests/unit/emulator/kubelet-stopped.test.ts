/** @jest-environment node */
// A host that boots an image whose populated labels are invalid (suc/nodes.ts bootInto): the new OS
// runs, the kubelet does not start, the Node turns Ready=Unknown with its old labels and the Job
// ends at its deadline (suc/suc.ts, rancher/downstream.ts).

import { Emulator } from '../../emulator/core/emulator';
import { JsonObject } from '../../emulator/core/json';
import { KubeObject } from '../../emulator/kube/store';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import { NodeRegistry, bootInto, releaseOf } from '../../emulator/suc/nodes';
import {
  entry, fixtures, fleetCluster, poolOnCluster, until
} from './helpers';

const IMAGE = 'elemental.cattle.io.managedosimage';
const LONG = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';
const FITS = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9';

const CLUSTER = fleetCluster('1/1');

const POOL = poolOnCluster('fits');

async function start(): Promise<Emulator> {
  const em = new Emulator({
    fixtures: fixtures({
      test: [
        {
          ...entry('fits', '2.2.0-3.9'),
          spec: {
            version: '2.2.0-3.9', type: 'container', metadata: { upgradeImage: FITS }
          }
        },
        {
          ...entry('long', '2.2.0-3.12'),
          spec: {
            version: '2.2.0-3.12', type: 'container', metadata: { upgradeImage: LONG }
          }
        },
      ]
    }, [CLUSTER, POOL]),
    generated:     [],
    origin:        'http://localhost:1',
    timeScale:     0.0001,
    sqlCache:      true,
    retryBaseMs:   60000,
    rolloutStepMs: 10
  });

  await em.start();

  return em;
}

describe('booting an image whose label is over 63 characters', () => {
  it('runs the new OS, keeps the older boot\'s labels and stops the kubelet', () => {
    const [node] = new NodeRegistry().ensure('fleet-default', 'c', 1, releaseOf(FITS));

    expect(bootInto(node, releaseOf(LONG))).toBe(false);
    expect(node.release.tag).toBe('2.2.0-3.12');
    expect(node.labels['elemental.cattle.io/tag']).toBe('2.2.0-3.9');
    expect(node.kubeletStopped).toMatch(/^invalid node labels: elemental\.cattle\.io\/image=\S+: must be no more than 63 characters/);
    expect(bootInto(node, releaseOf(FITS))).toBe(true);
    expect(node.kubeletStopped).toBeUndefined();
  });

  it('leaves the Node Ready=Unknown with its old tag and fails the Job at its deadline', async() => {
    const em = await start();
    const type = em.types.require(IMAGE);
    const jobs = () => em.downstream.list('c-m-one', 'batch.job') ?? [];
    const failed = (job: KubeObject) => ((job.status as { conditions?: JsonObject[] }).conditions ?? []).some((c) => c.type === 'Failed');

    await until(() => em.nodes.all().some((n) => n.labels['elemental.cattle.io/tag'] === '2.2.0-3.9') && !jobs().length, 10000);
    const latest = em.api.get(type, 'fleet-default', 'pool');

    em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), managedOSVersionName: 'long' } }, SYSTEM_ACTOR);
    await until(() => jobs().some(failed), 10000);
    const [node] = em.downstream.list('c-m-one', 'node') ?? [];
    const job = jobs().find(failed) as KubeObject;

    expect(node.metadata.labels?.['elemental.cattle.io/tag']).toBe('2.2.0-3.9');
    expect((node.status as { conditions: JsonObject[] }).conditions).toContainEqual(expect.objectContaining({
      type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.'
    }));
    expect((job.status as { conditions: JsonObject[] }).conditions).toContainEqual(expect.objectContaining({ type: 'Failed', reason: 'DeadlineExceeded' }));
    expect(em.nodes.report()[0]).toMatchObject({ tag: '2.2.0-3.12', kubeletStopped: expect.stringMatching(/^invalid node labels/) });
    em.stop();
  });
});
