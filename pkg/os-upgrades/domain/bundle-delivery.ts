// Whether Fleet has delivered a pool's Plan for an image, read from the pool's own Bundle: the
// Elemental operator copies the Bundle's conditions into the pool only when it reconciles, and
// can miss a short not-Ready between two reconciles (rule "The operator's state").
import { imageParts, sameImageRepo } from './image-tag';
import { asRecord, asText, isRecord } from './text';

/** The image (`repo:version`) of the SUC Plan among a Bundle's resources, '' when it holds none. */
export function bundlePlanImage(bundle: unknown): string {
  const resources = asRecord(asRecord(bundle).spec).resources;

  for (const resource of Array.isArray(resources) ? resources : []) {
    // elemental-operator controllers/managedosimage_controller.go objToFleetBundleResources: each
    // object's JSON is a resource's content.
    let object: unknown;

    try {
      object = JSON.parse(asText(asRecord(resource).content));
    } catch {
      continue;
    }
    const spec = asRecord(asRecord(object).spec);

    if (asRecord(object).kind === 'Plan' && asText(asRecord(spec.upgrade).image)) {
      return `${ asText(asRecord(spec.upgrade).image) }:${ asText(spec.version) }`;
    }
  }

  return '';
}

/**
 * True when the Bundle's Plan names `image` (any registry in front, as the operator prefixes its
 * default registry), Fleet has processed that spec (status.observedGeneration equals
 * metadata.generation: rancher/fleet internal/cmd/controller/reconciler/bundle_controller.go sets it
 * in the reconcile that computes the summary) and every cluster applied it (Ready=True).
 */
export function bundleDelivered(bundle: unknown, image: string): boolean {
  const planImage = bundlePlanImage(bundle);

  if (!image || !planImage) {
    return false;
  }
  const [want, have] = [imageParts(image), imageParts(planImage)];
  const metadata = asRecord(asRecord(bundle).metadata);
  const status = asRecord(asRecord(bundle).status);
  const generation = metadata.generation;
  const ready = (Array.isArray(status.conditions) ? status.conditions : []).some((c) => asRecord(c).type === 'Ready' && asRecord(c).status === 'True');

  return want.tag === have.tag && sameImageRepo(want.repo, have.repo) && generation !== undefined && status.observedGeneration === generation && ready;
}

/** `namespace/name` of each pool a Bundle belongs to: named `mos-<pool>` (as the operator names it) or owned by the pool. */
export function bundlePools(bundle: unknown): string[] {
  const metadata = asRecord(asRecord(bundle).metadata);
  const namespace = asText(metadata.namespace);
  const name = asText(metadata.name);
  const owners = (Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences.filter(isRecord) : [])
    .filter((owner) => owner.kind === 'ManagedOSImage').map((owner) => `${ namespace }/${ asText(owner.name) }`);

  return name.startsWith('mos-') ? [`${ namespace }/${ name.slice(4) }`, ...owners] : owners;
}

/** The pool's Bundle among `bundles` (`bundlePools`). */
export function poolBundle(pool: unknown, bundles: readonly unknown[]): unknown {
  const metadata = asRecord(asRecord(pool).metadata);
  const key = `${ asText(metadata.namespace) }/${ asText(metadata.name) }`;

  return bundles.find((bundle) => bundlePools(bundle).includes(key));
}

/** How to find a pool's Bundle by name: `value` matched whole (`exact`) or as a part of the name. */
export interface BundleNameFilter {
  value: string;
  exact: boolean;
}

/** Kubernetes names that wrangler's SafeConcatName keeps whole are under 64 characters. */
const WHOLE_NAME_LIMIT = 64;
/** The characters every cut name keeps: 57, or 56 when the 57th is not [a-z0-9] (the rest is a hash). */
const CUT_NAME_KEEPS = 56;

/**
 * The name of a pool's Bundle: `mos-<pool>` (elemental-operator controllers/managedosimage_controller.go
 * formatBundleName, rancher/wrangler pkg/name SafeConcatName). A longer one is cut and ends in a hash
 * of the whole: it is found by the part every cut keeps, and told apart by its owner (`bundlePools`).
 */
export function poolBundleName(poolName: string): BundleNameFilter {
  const name = `mos-${ poolName }`;

  return name.length < WHOLE_NAME_LIMIT ? { value: name, exact: true } : { value: name.slice(0, CUT_NAME_KEEPS), exact: false };
}
