// Small helpers to work with parsed JSON/YAML without `any`. Plumbing: it imitates no real system
// (rancher/steve and the Kubernetes API server read JSON with Go's encoding/json; nothing here mirrors
// a behaviour of theirs).

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asStringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};

  for (const [key, item] of Object.entries(asObject(value))) {
    if (typeof item === 'string') {
      out[key] = item;
    }
  }

  return out;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Deep equality of JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
    const keysB = Object.keys(b).filter((k) => b[k] !== undefined);

    return keysA.length === keysB.length && keysA.every((k) => jsonEqual(a[k], b[k]));
  }

  return false;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) {
    return clone(patch);
  }
  const out: JsonObject = isObject(target) ? { ...target } : {};

  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete out[key];
    } else {
      out[key] = mergePatch(out[key], value);
    }
  }

  return out;
}
