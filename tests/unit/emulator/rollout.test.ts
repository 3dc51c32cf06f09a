/** @jest-environment node */
// The emulated operator, Fleet, system-upgrade-controller and suc-upgrade, against the real code
// they cite (tests/emulator/operator/image-operator.ts, fleet/fleet.ts, suc/suc.ts, operator/version-finalizer.ts).

import { Emulator } from '../../emulator/core/emulator';
import { JsonObject } from '../../emulator/core/json';
import { NodeReport } from '../../emulator/suc/nodes';
import { compareVersionSort, sucUpgradeDecision } from '../../emulator/suc/suc';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import { VERSION_FINALIZER } from '../../emulator/operator/version-finalizer';
import { entry, fixtures, ready, until } from './helpers';

const IMAGE = 'elemental.cattle.io.managedosimage';
const VERSION = 'elemental.cattle.io.managedosversion';

const CLUSTERS: JsonObject[] = ['c1', 'c2'].map((name) => ({
  apiVersion: 'fleet.cattle.io/v1alpha1',
  kind:       'Cluster',
  metadata:   {
    name, namespace: 'fleet-default', labels: { site: 'x' }
  },
  status: { display: { readyNodes: '3/3' } },
}));

const VERSIONS = [
  entry('os-1', 'v1'),
  entry('os-2', 'v2'),
  // Another flavour of build v2: another repository, the same tag.
  {
    ...entry('kvm-2', 'v2'),
    spec: {
      version: 'v2', type: 'container', metadata: { upgradeImage: 'registry.example.test/kvm:v2' }
    }
  },
  {
    metadata: { name: 'iso-2' },
    spec:     {
      version: 'v2', type: 'iso', metadata: { uri: 'registry.example.test/iso:v2' }
    }
  },
];

function pool(pin: string, spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   { name: 'pool', namespace: 'fleet-default' },
    spec:       {
      managedOSVersionName: pin, clusterTargets: [{ clusterName: 'c1' }], ...spec
    },
  };
}

async function start(seed: JsonObject[] = [pool('os-1')], retryBaseMs = 60000): Promise<Emulator> {
  const em = new Emulator({
    fixtures: fixtures({ test: VERSIONS }, [...CLUSTERS, ...seed]), generated: [], origin: 'http://localhost:1', timeScale: 0, sqlCache: true, retryBaseMs, rolloutStepMs: 10
  });

  await em.start();

  return em;
}

function nodesOf(em: Emulator, cluster: string): NodeReport[] {
  return em.nodes.report().filter((n) => n.cluster === cluster);
}


/** Writes the pool's spec as a person would (PUT on the latest object). */
function write(em: Emulator, spec: JsonObject): void {
  const type = em.types.require(IMAGE);
  const latest = em.api.get(type, 'fleet-default', 'pool');

  em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), ...spec } }, SYSTEM_ACTOR);
}

function readyOf(em: Emulator): JsonObject | undefined {
  return ready(em.api.get(em.types.require(IMAGE), 'fleet-default', 'pool'));
}

/** Fleet says Ready as soon as the Plan is applied: the rollout is over when SUC has no more work. */
const rolledOut = (em: Emulator) => () => readyOf(em)?.status === 'True' && !em.suc.busy() && nodesOf(em, 'c1').every((n) => n.state === 'idle');

describe('nodes', () => {
  it('gives every Fleet cluster the seed\'s node count, and a seeded pool\'s nodes its image', async() => {
    const em = await start();

    expect(nodesOf(em, 'c1')).toEqual(['c1-node-1', 'c1-node-2', 'c1-node-3'].map((node) => ({
      cluster: 'c1', node, image: 'registry.example.test/os', tag: 'v1', active: true, state: 'idle', unschedulable: false, message: ''
    })));
    expect(nodesOf(em, 'c2')).toHaveLength(3);
    expect(nodesOf(em, 'c2')[0].tag).toBe('2.2.0-3.8');
    em.stop();
  });

  it('reset brings the nodes back to the seed', async() => {
    const em = await start();

    write(em, { managedOSVersionName: 'os-2' });
    await until(() => nodesOf(em, 'c1').every((n) => n.tag === 'v2'));
    await em.reset();
    expect(nodesOf(em, 'c1').map((n) => n.tag)).toEqual(['v1', 'v1', 'v1']);
    em.stop();
  });
});

describe('suc-upgrade\'s decision', () => {
  const host = (tag: string, active = true) => ({
    namespace: 'n', cluster: 'c', name: 'h', release: { repo: 'r/os', tag }, active, state: 'idle' as const, unschedulable: false, message: '', labels: {}
  });

  it('says what the script says', () => {
    expect(sucUpgradeDecision(host('v2'), { repo: 'r/os', tag: 'v2' }, true).message).toMatch(/^Upgrade already done with release/);
    expect(sucUpgradeDecision(host('v2'), { repo: 'r/os', tag: 'v1' }, false)).toMatchObject({ upgrade: false, message: expect.stringMatching(/^Current OS is in a higher version, use FORCE to downgrade/) });
    expect(sucUpgradeDecision(host('v2'), { repo: 'r/os', tag: 'v1' }, true).upgrade).toBe(true);
    // rancher/elemental 93c22785 removed the "Active configuration" check: a passive boot upgrades.
    expect(sucUpgradeDecision(host('v1', false), { repo: 'r/os', tag: 'v2' }, false)).toMatchObject({ upgrade: true, message: expect.stringMatching(/^elemental --debug upgrade --bootloader --system dir:\/ /) });
    expect(sucUpgradeDecision(host('v2'), { repo: 'r/kvm', tag: 'v1' }, false).upgrade).toBe(true);
  });

  it('compares IMAGE_REPO without the registry, as the images\' own os-release has it', () => {
    const onMirror = { ...host('v2'), release: { repo: 'mirror.example:5000/suse/os', tag: 'v2' } };

    expect(sucUpgradeDecision(onMirror, { repo: 'registry.suse.com/suse/os', tag: 'v1' }, false)).toMatchObject({ upgrade: false, message: expect.stringMatching(/^Current OS is in a higher version/) });
    expect(sucUpgradeDecision(onMirror, { repo: 'registry.suse.com/suse/os', tag: 'v2' }, false).message).toMatch(/^Upgrade already done/);
    expect(sucUpgradeDecision(onMirror, { repo: 'registry.suse.com/suse/os', tag: 'v1' }, true).upgrade).toBe(true);
  });

  it('compares tags as sort -V', () => {
    expect(['2.2.0-3.12', '2.2.0-3.9', '2.10', '2.2.0', '1.0~rc1', '1.0'].sort(compareVersionSort)).toEqual(['1.0~rc1', '1.0', '2.2.0', '2.2.0-3.9', '2.2.0-3.12', '2.10']);
  });
});

describe('a rollout as SUC runs the bundle\'s Plan', () => {
  it('upgrades concurrency nodes at a time, cordoned and drained (the CRD defaults drain), through a reboot; Fleet says Ready once the Plan is applied', async() => {
    const em = await start();
    const states = new Set<string>();
    let most = 0;
    const timer = setInterval(() => {
      const busy = nodesOf(em, 'c1').filter((n) => n.state !== 'idle');

      busy.forEach((n) => states.add(n.state));
      most = Math.max(most, busy.length);
    }, 2);

    write(em, { managedOSVersionName: 'os-2' });
    await until(() => readyOf(em)?.status === 'False');
    await until(() => readyOf(em)?.status === 'True');
    const upgradingWhenReady = nodesOf(em, 'c1').some((n) => n.tag === 'v1');

    await until(rolledOut(em));
    clearInterval(timer);
    expect(upgradingWhenReady).toBe(true);
    expect(nodesOf(em, 'c1').map((n) => n.tag)).toEqual(['v2', 'v2', 'v2']);
    expect(nodesOf(em, 'c1')[0].message).toMatch(/^Upgrade already done/);
    expect(most).toBe(1);
    expect([...states].sort()).toEqual(['cordoned', 'draining', 'rebooting', 'upgrading']);
    // The other cluster is not targeted.
    expect(nodesOf(em, 'c2').every((n) => n.tag === '2.2.0-3.8')).toBe(true);
    em.stop();
  });

  it('runs two nodes at once with concurrency 2, and neither cordons nor drains when told not to', async() => {
    const em = await start();
    const states = new Set<string>();
    let most = 0;
    const timer = setInterval(() => {
      const busy = nodesOf(em, 'c1').filter((n) => n.state !== 'idle');

      busy.forEach((n) => states.add(n.state));
      most = Math.max(most, busy.length);
    }, 1);

    write(em, {
      managedOSVersionName: 'os-2', concurrency: 2, cordon: false, drain: null
    });
    await until(() => readyOf(em)?.status === 'False');
    await until(rolledOut(em));
    clearInterval(timer);
    expect(most).toBe(2);
    expect([...states].sort()).toEqual(['rebooting', 'upgrading']);
    em.stop();
  });

  it('a rollback without FORCE is skipped on every node and still reports Ready; with FORCE the nodes go back', async() => {
    const em = await start([pool('os-2')]);

    write(em, { managedOSVersionName: 'os-1' });
    await until(() => readyOf(em)?.status === 'False');
    await until(rolledOut(em));
    expect(nodesOf(em, 'c1').map((n) => n.tag)).toEqual(['v2', 'v2', 'v2']);
    expect(nodesOf(em, 'c1')[0].message).toMatch(/use FORCE to downgrade/);

    // A FORCE alone changes no tag, so SUC's hash is the same: move away and back with FORCE.
    write(em, { managedOSVersionName: 'os-2' });
    await until(() => readyOf(em)?.status === 'False');
    await until(rolledOut(em));
    write(em, { managedOSVersionName: 'os-1', upgradeContainer: { envs: [{ name: 'FORCE', value: 'true' }] } });
    await until(() => readyOf(em)?.status === 'False');
    await until(rolledOut(em));
    expect(nodesOf(em, 'c1').map((n) => n.tag)).toEqual(['v1', 'v1', 'v1']);
    em.stop();
  });

  it('starts no job when the tag did not change (another flavour of the same build)', async() => {
    const em = await start([pool('os-2')]);
    const states = new Set<string>();
    const timer = setInterval(() => nodesOf(em, 'c1').forEach((n) => states.add(n.state)), 1);

    write(em, { managedOSVersionName: 'kvm-2' });
    await until(() => readyOf(em)?.status === 'False');
    await until(rolledOut(em));
    await new Promise((resolve) => setTimeout(resolve, 60));
    clearInterval(timer);
    expect([...states]).toEqual(['idle']);
    expect(nodesOf(em, 'c1').map((n) => `${ n.image }:${ n.tag }`)).toEqual(Array(3).fill('registry.example.test/os:v2'));
    em.stop();
  });

  it('a failing node stops there, failed with the message, while Fleet says Ready as it judges only the applied Plan', async() => {
    const em = await start();

    em.nodes.find('c1', 'c1-node-1')!.failNext = 'elemental upgrade: no space left on device';
    em.nodes.find('c1', 'c1-node-2')!.failNext = 'elemental upgrade: no space left on device';
    em.nodes.find('c1', 'c1-node-3')!.failNext = 'elemental upgrade: no space left on device';
    write(em, { managedOSVersionName: 'os-2' });
    await until(() => nodesOf(em, 'c1').some((n) => n.state === 'failed'));
    const failed = nodesOf(em, 'c1').filter((n) => n.state === 'failed');

    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ message: 'elemental upgrade: no space left on device', tag: 'v1' });
    expect(readyOf(em)).toMatchObject({ status: 'True', message: '' });
    em.stop();
  });
});

describe('the operator', () => {
  it('builds the Plan as newFleetBundleResources does: tag as version, the pool\'s container instead of the version\'s, METADATA_ envs', async() => {
    const em = await start([pool('os-2', { upgradeContainer: { envs: [{ name: 'FORCE', value: 'true' }, { name: 'METADATA_DISPLAYNAME', value: 'mine' }] }, concurrency: 2 })]);
    const bundle = em.api.get(em.types.require('fleet.cattle.io.bundle'), 'fleet-default', 'mos-pool');
    const resources = (bundle.spec as { resources: { name: string; content: string }[] }).resources;
    const plan = JSON.parse(resources.find((r) => r.name.startsWith('Plan-'))!.content);

    expect(resources.map((r) => r.name.split('-')[0])).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ServiceAccount', 'Secret', 'Plan']);
    expect(plan.spec).toMatchObject({
      version: 'v2', concurrency: 2, cordon: true, serviceAccountName: 'os-upgrader-pool'
    });
    expect(plan.spec.upgrade.image).toBe('registry.example.test/os');
    expect(plan.spec.upgrade.command).toEqual(['/usr/sbin/suc-upgrade']);
    const env = Object.fromEntries(plan.spec.upgrade.envs.map((e: { name: string; value: string }) => [e.name, e.value]));

    expect(env).toMatchObject({
      FORCE: 'true', METADATA_DISPLAYNAME: 'Test OS', METADATA_UPGRADEIMAGE: 'registry.example.test/os:v2'
    });
    expect(plan.spec.upgrade.envs.map((e: { name: string }) => e.name)).toEqual([...plan.spec.upgrade.envs.map((e: { name: string }) => e.name)].sort());
    em.stop();
  });

  it('labels the pool with the pinned version and never sets observedGeneration', async() => {
    const em = await start();
    const image = em.api.get(em.types.require(IMAGE), 'fleet-default', 'pool');

    expect(image.metadata.labels).toMatchObject({ 'elemental.cattle.io/managed-os-version-name': 'os-1' });
    expect(JSON.stringify(image.status)).not.toContain('observedGeneration');
    em.stop();
  });

  it('copies the bundle\'s status as it was before Fleet reacted: the old Ready right after a write', async() => {
    const em = await start();
    const type = em.types.require(IMAGE);
    const seen: (JsonObject | undefined)[] = [];
    const stop = em.store.subscribe((event) => {
      if (event.type === type.id && event.object.metadata.labels?.['elemental.cattle.io/managed-os-version-name'] === 'os-2') {
        seen.push(ready(event.object));
      }
    });

    write(em, { managedOSVersionName: 'os-2' });
    await until(() => readyOf(em)?.status === 'False');
    stop();
    expect(seen[0]).toMatchObject({ status: 'True' });
    em.stop();
  });

  it('a missing or iso version: an error, no status change, retried with back-off until the version appears', async() => {
    const em = await start([pool('os-1')], 20);
    const type = em.types.require(IMAGE);
    const before = em.api.get(type, 'fleet-default', 'pool').status;

    write(em, { managedOSVersionName: 'iso-2' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(em.api.get(type, 'fleet-default', 'pool').status).toEqual(before);
    // The label is patched before the type check fails.
    expect(em.api.get(type, 'fleet-default', 'pool').metadata.labels?.['elemental.cattle.io/managed-os-version-name']).toBe('iso-2');

    const version = em.api.get(em.types.require(VERSION), 'fleet-default', 'os-2');

    em.api.delete(em.types.require(VERSION), 'fleet-default', 'os-2', SYSTEM_ACTOR);
    write(em, { managedOSVersionName: 'os-2' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(em.api.get(type, 'fleet-default', 'pool').status).toEqual(before);
    expect(em.api.get(type, 'fleet-default', 'pool').metadata.labels?.['elemental.cattle.io/managed-os-version-name']).toBe('iso-2');
    expect(nodesOf(em, 'c1').map((n) => n.tag)).toEqual(['v1', 'v1', 'v1']);

    const {
      resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, ...metadata
    } = version.metadata;

    em.api.create(em.types.require(VERSION), 'fleet-default', { ...version, metadata }, SYSTEM_ACTOR);
    await until(() => nodesOf(em, 'c1').every((n) => n.tag === 'v2'));
    em.stop();
  });

  it('retries a ManagedOSImage from 5 ms on (controller-runtime\'s default), not the channel controller\'s 4 s', async() => {
    const em = await start();
    const versions = em.types.require(VERSION);
    const version = em.api.get(versions, 'fleet-default', 'os-2');
    const {
      resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, finalizers: _f, ...metadata
    } = version.metadata;

    em.api.delete(versions, 'fleet-default', 'os-2', SYSTEM_ACTOR);
    await until(() => em.api.find(versions, 'fleet-default', 'os-2') === undefined);
    write(em, { managedOSVersionName: 'os-2' });
    await new Promise((resolve) => setTimeout(resolve, 40));
    em.api.create(versions, 'fleet-default', { ...version, metadata }, SYSTEM_ACTOR);
    const planVersion = () => {
      const bundle = em.api.get(em.types.require('fleet.cattle.io.bundle'), 'fleet-default', 'mos-pool');
      const plan = (bundle.spec as { resources: { name: string; content: string }[] }).resources.find((r) => r.name.startsWith('Plan-'));

      return plan ? JSON.parse(plan.content).spec.version : undefined;
    };

    await until(() => planVersion() === 'v2', 1000);
    em.stop();
  });

  it('puts its finalizer on every version; a pinned one stays Terminating while the pool pins it', async() => {
    const em = await start();
    const versions = em.types.require(VERSION);
    const finalized = (name: string) => (em.api.get(versions, 'fleet-default', name).metadata.finalizers as string[] | undefined)?.includes(VERSION_FINALIZER) === true;

    await until(() => finalized('os-1') && finalized('os-2'));
    em.api.delete(versions, 'fleet-default', 'os-1', SYSTEM_ACTOR);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(em.api.get(versions, 'fleet-default', 'os-1').metadata.deletionTimestamp).toEqual(expect.any(String));
    // Not pinned: Terminating until the next reconcile removes the finalizer.
    em.api.delete(versions, 'fleet-default', 'os-2', SYSTEM_ACTOR);
    expect(em.api.get(versions, 'fleet-default', 'os-2').metadata.deletionTimestamp).toEqual(expect.any(String));
    await until(() => em.api.find(versions, 'fleet-default', 'os-2') === undefined);
    // The pool goes away: the next reconcile of the version lets the deletion finish.
    em.api.delete(em.types.require(IMAGE), 'fleet-default', 'pool', SYSTEM_ACTOR);
    const latest = em.api.get(versions, 'fleet-default', 'os-1');

    em.api.update(versions, 'fleet-default', 'os-1', { ...latest, metadata: { ...latest.metadata, annotations: { touched: 'yes' } } }, SYSTEM_ACTOR);
    await until(() => em.api.find(versions, 'fleet-default', 'os-1') === undefined);
    em.stop();
  });
});
