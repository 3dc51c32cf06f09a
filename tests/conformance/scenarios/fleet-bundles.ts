// Fleet on the Bundles the Elemental operator writes for a pool (rancher/elemental-operator
// controllers/managedosimage_controller.go, as tests/emulator/operator/image-operator.ts writes
// them): the BundleDeployment the Fleet controller makes per targeted cluster, the Bundle's
// summary, display and Ready condition once the cluster's agent applied the resources, and what a
// deleted Bundle leaves, and the Bundles read by name as the pools list reads them. On the real stack the fleet-default cluster edge-berlin-01 and fleet-local's
// local cluster are Fleet Clusters with an agent each (scripts/real-stack/fleet-setup.sh); the
// emulator's seed has both.
import { bundleObjects, toBundleResources } from '../../emulator/operator/image-operator';
import { KubeObject } from '../../emulator/kube/store';
import { SCENARIO_LABEL, Scenario, Step } from '../scenario';
import { Answer, conditionTrue, isList, itemNames } from './answers';

const NAME = 'fleet-bundles';
const API = '/apis/fleet.cattle.io/v1alpha1';
/** Fleet's controller and agents, on a loaded machine: a bundle was ready within a minute. */
const WITHIN_MS = 120000;

/** The Bundle the operator writes for a ManagedOSImage `pool` in `namespace`. */
function bundle(pool: string, namespace: string, targets: Record<string, unknown>[]): Record<string, unknown> {
  const image: KubeObject = {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name: pool, namespace, uid: '', resourceVersion: '', creationTimestamp: ''
    },
    spec: { osImage: 'registry.example.test/elemental/os:v1.1.0', nodeSelector: { matchLabels: { [SCENARIO_LABEL]: NAME } } },
  };

  return {
    apiVersion: 'fleet.cattle.io/v1alpha1',
    kind:       'Bundle',
    metadata:   {
      name: `mos-${ pool }`, namespace, labels: { [SCENARIO_LABEL]: NAME }
    },
    spec: {
      resources: toBundleResources(bundleObjects(image, undefined)), rolloutStrategy: {}, targets
    },
  };
}

const ready = (answer: Answer) => answer.status >= 400 || conditionTrue(answer, 'Ready');
const none = (answer: Answer) => answer.status >= 400 || (isList(answer) && itemNames(answer).length === 0);
const deployments = (bundleName: string, until?: (answer: Answer) => boolean): Step => ({
  compare: 'fleet-bundledeployments',
  request: {
    user: 'admin', method: 'GET', path: `${ API }/bundledeployments?labelSelector=${ encodeURIComponent(`fleet.cattle.io/bundle-name=${ bundleName }`) }`
  },
  ...(until ? { poll: { withinMs: WITHIN_MS, until } } : {}),
});

const byName = (namespace: string, filter: string): Step => ({
  compare: 'list',
  request: {
    user: 'admin', method: 'GET', path: `/v1/fleet.cattle.io.bundles?filter=metadata.namespace=${ namespace }&filter=${ filter }`
  },
});

function steps(pool: string, namespace: string, targets: Record<string, unknown>[]): Step[] {
  const bundles = `${ API }/namespaces/${ namespace }/bundles`;
  const name = `mos-${ pool }`;

  return [
    {
      compare: 'fleet-bundle',
      request: {
        user: 'admin', method: 'POST', path: bundles, body: bundle(pool, namespace, targets)
      }
    },
    {
      compare: 'fleet-bundle',
      request: {
        user: 'admin', method: 'GET', path: `${ bundles }/${ name }`
      },
      poll: { withinMs: WITHIN_MS, until: ready },
    },
    deployments(name),
    // The pools list reads the Bundles of the pools in view (api/bundle-queries.ts): whole names
    // OR-ed, and the start of a name wrangler cut, matched with `~`.
    byName(namespace, `metadata.name=${ name },metadata.name=mos-conf-no-such-pool`),
    byName(namespace, `metadata.name~${ name.slice(0, 12) }`),
    // The operator's bundle goes with its ManagedOSImage (owner reference): Steve's DELETE, background.
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'DELETE', path: `/v1/fleet.cattle.io.bundles/${ namespace }/${ name }`
      }
    },
    deployments(name, none),
  ];
}

export const fleetBundles: Scenario = {
  name:  NAME,
  needs: ['fleet'],
  about: 'Fleet on the operator\'s bundles: the BundleDeployments per targeted cluster, the Bundle\'s summary, display and Ready condition once the agent applied it, and the cleanup when it is deleted; in fleet-default (clusterTargets) and fleet-local (the local cluster)',
  steps: [
    ...steps('conf-fleet-pool', 'fleet-default', [{ clusterName: 'edge-berlin-01' }]),
    ...steps('conf-fleet-local', 'fleet-local', [{ clusterName: 'local' }]),
  ],
};
