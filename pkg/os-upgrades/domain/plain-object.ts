import type { KubeObject } from './types';
import { isRecord } from './text';

// Steve adds these to metadata for its own UI; they are not part of the Kubernetes object.
const STEVE_METADATA = ['fields', 'relationships', 'state'];

/**
 * A plain JSON copy of a Kubernetes object as it is stored (a pool, a channel: apiVersion, kind,
 * metadata, spec, status), without the shell model's extras (id, type, links, Steve's metadata
 * fields): what the domain plans on and what is sent.
 */
export function plainObject(obj: unknown): KubeObject {
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

/** A JSON copy of anything the shell returned (a model, a setting with its top-level `value`); `{}` for nothing. */
export function jsonCopy(object: unknown): KubeObject {
  return JSON.parse(JSON.stringify(object ?? {})) as KubeObject;
}
