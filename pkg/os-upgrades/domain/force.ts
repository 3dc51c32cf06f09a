// Forced downgrades (see README.md "Roll back and FORCE"). The upgrade job runs
// /usr/sbin/suc-upgrade (rancher/elemental framework/files/usr/sbin/suc-upgrade): without
// FORCE=true it skips an image whose tag is not higher than the host's, and exits 0. The only
// way to set FORCE is the pool's spec.upgradeContainer, which REPLACES the version's
// (elemental-operator controllers/managedosimage_controller.go newFleetBundleResources), so a
// forced write starts from the target version's container, or from the pool's own.
import type { KubeObject, OSVersion } from './types';
import { parts } from './pool';
import { imageParts, isHigherImage } from './image-tag';
import { cloneJson, isRecord } from './text';
import { FORCED_ANNOTATION, FORCED_CONTAINER_ANNOTATION } from './keys';

export const FORCE_ENV = 'FORCE';

function envOf(container: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(container.envs) ? container.envs.filter(isRecord) : [];
}

/** The value of FORCE in a container spec ('' when not set). */
export function forceValue(container: unknown): string {
  const entry = isRecord(container) ? envOf(container).find((env) => env.name === FORCE_ENV) : undefined;

  return entry && typeof entry.value === 'string' ? entry.value : '';
}

/** True when the extension's annotation says it added FORCE to this pool. */
export function isForcedByExtension(object: unknown): boolean {
  const metadata = isRecord(object) && isRecord(object.metadata) ? object.metadata : {};
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};

  return annotations[FORCED_ANNOTATION] === 'true';
}

/**
 * Whether a move from `current` to `target` is one suc-upgrade skips without FORCE: the same
 * image repository and a tag that is not higher (`sort -V`). Unknown images: `unknown`.
 */
export function isDowngrade(current: OSVersion | undefined, target: OSVersion | undefined, unknown: boolean): boolean {
  if (!current?.image || !target?.image) {
    return unknown;
  }

  return !isHigherImage(imageParts(current.image), imageParts(target.image));
}

/** True when both images are known and share a tag: SUC hashes the tag, so no node job runs. */
export function isSameTag(current: OSVersion | undefined, target: OSVersion | undefined): boolean {
  return !!current?.image && !!target?.image && imageParts(current.image).tag === imageParts(target.image).tag;
}

/** Takes back what the extension added (on a copy being planned); a person's own FORCE stays. */
export function removeExtensionForce(object: KubeObject): void {
  const { spec } = parts(object);
  const annotations = parts(object).annotations();

  if (annotations[FORCED_ANNOTATION] === 'true') {
    if (annotations[FORCED_CONTAINER_ANNOTATION] === 'true') {
      delete spec.upgradeContainer;
    } else if (isRecord(spec.upgradeContainer)) {
      const container = spec.upgradeContainer;
      const env = envOf(container).filter((entry) => entry.name !== FORCE_ENV);

      if (env.length) {
        container.envs = env;
      } else {
        delete container.envs;
      }
    }
  }
  delete annotations[FORCED_ANNOTATION];
  delete annotations[FORCED_CONTAINER_ANNOTATION];
}

/**
 * Makes the pool's upgrade job run with FORCE=true (on a copy being planned). A container the
 * extension created before is rebuilt from the new target's; a person's own container keeps
 * everything and gains FORCE. A FORCE=true a person wrote is left as it is and not marked.
 */
export function addForce(object: KubeObject, target: OSVersion | undefined): void {
  const { spec } = parts(object);
  const annotations = parts(object).annotations();
  const created = annotations[FORCED_ANNOTATION] === 'true' && annotations[FORCED_CONTAINER_ANNOTATION] === 'true';
  const own = isRecord(spec.upgradeContainer) && !created;

  if (own && forceValue(spec.upgradeContainer) === 'true' && annotations[FORCED_ANNOTATION] !== 'true') {
    return;
  }
  const container: Record<string, unknown> = own ? spec.upgradeContainer as Record<string, unknown> : cloneJson(target?.upgradeContainer ?? {});
  const env = envOf(container).filter((entry) => entry.name !== FORCE_ENV);

  container.envs = [...env, { name: FORCE_ENV, value: 'true' }];
  spec.upgradeContainer = container;
  annotations[FORCED_ANNOTATION] = 'true';
  if (own) {
    delete annotations[FORCED_CONTAINER_ANNOTATION];
  } else {
    annotations[FORCED_CONTAINER_ANNOTATION] = 'true';
  }
}
