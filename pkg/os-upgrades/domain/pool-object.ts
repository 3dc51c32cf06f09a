import type { KubeObject } from './types';
import { samePersonContent } from './operator-state';
import { isRecord } from './text';

// Steve adds these to metadata for its own UI; they are not part of the Kubernetes object.
const STEVE_METADATA = ['fields', 'relationships', 'state'];

/**
 * A plain JSON copy of a ManagedOSImage as Kubernetes stores it, without the shell model's
 * extras (id, type, links, Steve's metadata fields): what the domain plans on and what is sent.
 */
export function plainPool(obj: unknown): KubeObject {
  const source = isRecord(obj) ? obj : {};
  const copy: KubeObject = {};

  for (const key of ['apiVersion', 'kind', 'metadata', 'spec', 'status']) {
    if (source[key] !== undefined) {
      copy[key] = JSON.parse(JSON.stringify(source[key]));
    }
  }
  if (isRecord(copy.metadata)) {
    for (const key of STEVE_METADATA) {
      delete copy.metadata[key];
    }
  }

  return copy;
}

export function poolId(obj: unknown): string {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return `${ metadata.namespace ?? '' }/${ metadata.name ?? '' }`;
}

export function specOf(obj: unknown): Record<string, unknown> {
  return isRecord(obj) && isRecord(obj.spec) ? obj.spec : {};
}

/**
 * True when two reads of a pool differ at most in status, bookkeeping (resourceVersion,
 * managedFields…) and the label the operator writes itself at each pin change: a 409 between
 * them is retried (see samePersonContent in the domain).
 */
export function sameContent(a: unknown, b: unknown): boolean {
  return samePersonContent(a, b);
}
