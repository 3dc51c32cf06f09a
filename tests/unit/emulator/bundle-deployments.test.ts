/** @jest-environment node */
// A pool's Bundle on the emulated Fleet and kube-controller-manager (tests/emulator/fleet/bundle-deployments.ts,
// kube/garbage-collector.ts), as recorded on the real Fleet v0.16.0 and kube-controller-manager
// (tests/conformance/recordings/fleet-bundles.json, kube-controllers.json): a BundleDeployment per
// targeted cluster, the Bundle's finalizer, and everything gone with the pool.

import { Emulator } from '../../emulator/core/emulator';
import { JsonObject } from '../../emulator/core/json';
import { BUNDLE_FINALIZER, clusterNamespace } from '../../emulator/fleet/bundle-deployments';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import { entry, fixtures, until } from './helpers';

const CLUSTERS: JsonObject[] = ['c1', 'c2'].map((name) => ({
  apiVersion: 'fleet.cattle.io/v1alpha1', kind: 'Cluster', metadata: { name, namespace: 'fleet-default' }, status: { display: { readyNodes: '1/1' } },
}));

const POOL: JsonObject = {
  apiVersion: 'elemental.cattle.io/v1beta1',
  kind:       'ManagedOSImage',
  metadata:   { name: 'pool', namespace: 'fleet-default' },
  spec:       { managedOSVersionName: 'os-1', clusterTargets: [{ clusterName: 'c1' }, { clusterName: 'c2' }] },
};


let em: Emulator;

beforeEach(async() => {
  em = new Emulator({
    fixtures: fixtures({ test: [entry('os-1', 'v1')] }, [...CLUSTERS, POOL]), generated: [], origin: 'http://localhost:1', timeScale: 0, sqlCache: true, retryBaseMs: 60000, rolloutStepMs: 10
  });
  await em.start();
});

afterEach(() => em.stop());

const bundleDeployments = () => em.api.list(em.types.require('fleet.cattle.io.bundledeployment')).items;
const bundle = () => em.api.find(em.types.require('fleet.cattle.io.bundle'), 'fleet-default', 'mos-pool');

describe('a pool\'s Bundle on Fleet', () => {
  it('has a BundleDeployment in each targeted cluster\'s namespace, and Fleet\'s finalizer', async() => {
    await until(() => bundleDeployments().length === 2);

    expect(bundleDeployments().map((bd) => `${ bd.metadata.namespace }/${ bd.metadata.name }`).sort()).toEqual([
      `${ clusterNamespace('fleet-default', 'c1') }/mos-pool`, `${ clusterNamespace('fleet-default', 'c2') }/mos-pool`,
    ]);
    // The namespace Fleet gives the cluster edge-berlin-01 on the real stack (fleet-bundles.json).
    expect(clusterNamespace('fleet-default', 'edge-berlin-01')).toBe('cluster-fleet-default-edge-berlin-01-93413f4fb3c8');
    expect(bundle()?.metadata.finalizers).toEqual([BUNDLE_FINALIZER]);
  });

  it('goes with its pool, and its BundleDeployments with it', async() => {
    await until(() => bundleDeployments().length === 2);
    em.api.delete(em.types.require('elemental.cattle.io.managedosimage'), 'fleet-default', 'pool', SYSTEM_ACTOR);

    await until(() => !bundle() && bundleDeployments().length === 0);
  });

  it('loses the BundleDeployment of a cluster no longer targeted', async() => {
    await until(() => bundleDeployments().length === 2);
    const type = em.types.require('elemental.cattle.io.managedosimage');
    const latest = em.api.get(type, 'fleet-default', 'pool');

    em.api.update(type, 'fleet-default', 'pool', { ...latest, spec: { ...(latest.spec as JsonObject), clusterTargets: [{ clusterName: 'c2' }] } }, SYSTEM_ACTOR);
    await until(() => bundleDeployments().length === 1);

    expect(bundleDeployments()[0].metadata.labels?.['fleet.cattle.io/cluster']).toBe('c2');
  });
});
