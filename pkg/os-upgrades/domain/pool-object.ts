import type { KubeObject } from './types';
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

/** JSON with object keys sorted, so two reads of one object compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${ value.map(canonical).join(',') }]`;
  }
  if (isRecord(value)) {
    return `{${ Object.keys(value).sort().map((key) => `${ JSON.stringify(key) }:${ canonical(value[key]) }`).join(',') }}`;
  }

  return JSON.stringify(value) ?? 'null';
}

/** What a person sees and approves of a pool: its spec, labels and annotations (not status, not resourceVersion). */
function content(obj: unknown): unknown {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return {
    spec: specOf(obj), labels: metadata.labels ?? {}, annotations: metadata.annotations ?? {}
  };
}

/** True when two reads of a pool differ at most in status and bookkeeping (resourceVersion, managedFields…). */
export function sameContent(a: unknown, b: unknown): boolean {
  return canonical(content(a)) === canonical(content(b));
}
