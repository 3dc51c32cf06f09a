// The image an approval approved, held (rule "The approved image is held" of domain/README.md). A version's name is only a
// name: a channel sync may change the image it stands for. The operator builds the node job
// (rancher/elemental-operator controllers/managedosimage_controller.go newFleetBundleResources)
// from the pool's spec.upgradeContainer, else the version's; its image, when empty, is the
// pool's spec.osImage, else the version's spec.metadata.upgradeImage (getImageVersion). A
// registry prefix the operator may be configured with (prefixPrivateRegistry) is not known here.
import type { OSVersion } from './types';
import { readPool, versionsForPool } from './pool';
import { asText, isRecord } from './text';
import { APPROVED_IMAGE_ANNOTATION } from './keys';

function recordOf(value: unknown, key: string): Record<string, unknown> {
  return isRecord(value) && isRecord(value[key]) ? value[key] as Record<string, unknown> : {};
}

/** The image reference the nodes of `pool` run when it is pinned to `version` ('' when not known). */
export function runImage(pool: unknown, version: OSVersion | undefined): string {
  const spec = recordOf(pool, 'spec');
  const container = isRecord(spec.upgradeContainer) ? spec.upgradeContainer : version?.upgradeContainer;

  return asText(container?.image) || asText(spec.osImage) || (version?.image ?? '');
}

/** What of a version decides the node job: its image and its upgrade container, as one text to compare. */
export function versionImageKey(version: OSVersion | undefined): string {
  return JSON.stringify([version?.image ?? '', version?.upgradeContainer ?? null]);
}

/** The image reference the last approval recorded, when there is one. */
export function approvedImage(pool: unknown): string | undefined {
  const annotations = recordOf(recordOf(pool, 'metadata'), 'annotations');
  const text = asText(annotations[APPROVED_IMAGE_ANNOTATION]);

  return text || undefined;
}

export interface ImageDrift {
  /** The pinned version's name. */
  versionName: string;
  /** The image reference the approval recorded. */
  approved: string;
  /** The image reference the nodes are given now. */
  image: string;
}

/** The pool's pin names another image now than the one approved; undefined when it does not or it is not known. */
export function imageDrift(pool: unknown, pinned: OSVersion | undefined): ImageDrift | undefined {
  const approved = approvedImage(pool);
  const image = pinned ? runImage(pool, pinned) : '';

  return approved && image && image !== approved ? {
    versionName: pinned?.name ?? '', approved, image
  } : undefined;
}

/** `imageDrift` of a pool among the live versions (its pin looked up in its namespace). */
export function poolImageDrift(pool: unknown, versions: readonly OSVersion[]): ImageDrift | undefined {
  const view = readPool(pool);

  return view.pin ? imageDrift(pool, versionsForPool(versions, view.namespace).find((v) => v.name === view.pin)) : undefined;
}
