// The objects the Fleet controller writes for a Bundle besides its status (recorded on the real
// Fleet v0.16.0: tests/conformance/recordings/fleet-bundles.json):
// - one BundleDeployment per targeted cluster, named as the Bundle, in the cluster's namespace
//   (rancher/fleet internal/cmd/controller/reconciler/bundle_controller.go, labels from
//   fleet.cattle.io/v1alpha1 bundledeployment_types.go; the namespace from
//   internal/cmd/controller/agentmanagement/controllers/cluster/controller.go clusterNamespace);
// - the finalizer fleet.cattle.io/bundle-finalizer on the Bundle (internal/cmd/controller/finalize/finalize.go),
//   so a deleted Bundle is Terminating until its BundleDeployments are gone.
import { createHash } from 'crypto';
import { JsonObject, asObject, asString } from '../core/json';
import { ObjectApi, nowTimestamp } from '../kube/objects';
import { KubeObject, finalizersOf } from '../kube/store';
import { safeConcatName } from '../kube/wrangler-name';
import { SYSTEM_ACTOR } from '../rancher/users';

export const BUNDLE_FINALIZER = 'fleet.cattle.io/bundle-finalizer';
const BUNDLE_DEPLOYMENT = 'fleet.cattle.io.bundledeployment';

/** rancher/fleet internal/names/keyhash.go KeyHash: 12 hex digits of the sha256 of at most 100 characters. */
function keyHash(text: string): string {
  return createHash('sha256').update(text.slice(0, 100)).digest('hex').slice(0, 12);
}

/** The namespace Fleet gives a cluster's BundleDeployments: cluster-<namespace>-<name>-<hash>. */
export function clusterNamespace(namespace: string, name: string): string {
  return safeConcatName('cluster', namespace, name, keyHash(`${ namespace }::${ name }`));
}

/**
 * The content id of a bundle's resources: `s-` and the sha256 of its manifest, cut to a label's 63
 * characters. Fleet hashes its own serialisation of the manifest, so the digits differ from the
 * real ones (the replay compares only the shape: tests/conformance/normalise.ts).
 */
function contentName(bundle: KubeObject): string {
  const digest = createHash('sha256').update(JSON.stringify(asObject(bundle.spec).resources ?? [])).digest('hex');

  return `s-${ digest }`.slice(0, 63);
}

function bundleDeployment(bundle: KubeObject, cluster: KubeObject): KubeObject {
  const content = contentName(bundle);
  const deploymentId = `${ content }:${ createHash('sha256').update('{}').digest('hex') }`;
  const clusterName = cluster.metadata.name;
  const clusterNs = cluster.metadata.namespace ?? '';

  return {
    apiVersion: 'fleet.cattle.io/v1alpha1',
    kind:       'BundleDeployment',
    metadata:   {
      name:              bundle.metadata.name,
      namespace:         clusterNamespace(clusterNs, clusterName),
      uid:               createHash('sha1').update(`${ clusterNs }/${ clusterName }/${ bundle.metadata.uid }`).digest('hex'),
      resourceVersion:   '',
      creationTimestamp: nowTimestamp(),
      labels:            {
        'fleet.cattle.io/bundle-name':       bundle.metadata.name,
        'fleet.cattle.io/bundle-namespace':  bundle.metadata.namespace ?? '',
        'fleet.cattle.io/cluster':           clusterName,
        'fleet.cattle.io/cluster-namespace': clusterNs,
        'fleet.cattle.io/content-name':      content,
        'fleet.cattle.io/managed':           'true',
      },
    },
    spec: {
      deploymentID: deploymentId, stagedDeploymentID: deploymentId, options: {}, stagedOptions: {}
    },
  };
}

export class BundleDeployments {
  constructor(private readonly api: ObjectApi) {}

  private of(bundle: KubeObject): KubeObject[] {
    return this.api.store.list(BUNDLE_DEPLOYMENT).filter((bd) => bd.metadata.labels?.['fleet.cattle.io/bundle-name'] === bundle.metadata.name &&
      bd.metadata.labels?.['fleet.cattle.io/bundle-namespace'] === bundle.metadata.namespace);
  }

  /** One BundleDeployment per targeted cluster (those of clusters no longer targeted go), and the finalizer on the Bundle. */
  sync(bundle: KubeObject, clusters: KubeObject[]): void {
    const wanted = clusters.map((cluster) => bundleDeployment(bundle, cluster));
    const names = new Set(wanted.map((bd) => `${ bd.metadata.namespace }/${ bd.metadata.name }`));

    for (const bd of wanted) {
      const existing = this.api.store.get(BUNDLE_DEPLOYMENT, bd.metadata.namespace, bd.metadata.name);

      if (JSON.stringify(existing?.spec) !== JSON.stringify(bd.spec)) {
        const kept = existing ? { uid: existing.metadata.uid, creationTimestamp: existing.metadata.creationTimestamp } : {};

        this.api.store.put(BUNDLE_DEPLOYMENT, {
          ...bd,
          metadata: {
            ...bd.metadata, ...kept, resourceVersion: String(this.api.store.nextRevision())
          }
        }, existing ? 'change' : 'create');
      }
    }
    for (const bd of this.of(bundle).filter((b) => !names.has(`${ b.metadata.namespace }/${ b.metadata.name }`))) {
      this.api.store.delete(BUNDLE_DEPLOYMENT, bd.metadata.namespace, bd.metadata.name);
    }
    const finalizers = finalizersOf(bundle);

    if (!bundle.metadata.deletionTimestamp && !finalizers.includes(BUNDLE_FINALIZER)) {
      this.writeFinalizers(bundle, [...finalizers, BUNDLE_FINALIZER]);
    }
  }

  /** A deleted Bundle: its BundleDeployments go, then the finalizer, and with it the Bundle. */
  remove(bundle: KubeObject): void {
    for (const bd of this.of(bundle)) {
      this.api.store.delete(BUNDLE_DEPLOYMENT, bd.metadata.namespace, bd.metadata.name);
    }
    const finalizers = finalizersOf(bundle);

    if (finalizers.includes(BUNDLE_FINALIZER) && this.api.find(this.api.types.require('fleet.cattle.io.bundle'), bundle.metadata.namespace, bundle.metadata.name)) {
      this.writeFinalizers(bundle, finalizers.filter((f) => f !== BUNDLE_FINALIZER));
    }
  }

  private writeFinalizers(bundle: KubeObject, finalizers: string[]): void {
    const type = this.api.types.require('fleet.cattle.io.bundle');
    const latest = this.api.find(type, bundle.metadata.namespace, bundle.metadata.name);

    if (latest) {
      const metadata: JsonObject = { ...latest.metadata, finalizers };

      this.api.update(type, latest.metadata.namespace, latest.metadata.name, { ...latest, metadata }, SYSTEM_ACTOR);
    }
  }
}

/** Whether a store event's Bundle is being deleted (Terminating, its finalizer still on). */
export function deleting(bundle: KubeObject): boolean {
  return !!asString(bundle.metadata.deletionTimestamp);
}
