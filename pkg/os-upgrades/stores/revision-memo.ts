// What a page works out from the shell's objects, kept between visits while they are the same:
// a page is built again on each visit, and the rules it runs read every field of a shell model
// through Vue's reactive proxy (the pools list spent most of a warm visit that way).
import { toRaw } from 'vue';
import { poolsRevisionKey } from '../domain';

/** An object's metadata.resourceVersion ('' when it has none). */
export function resourceVersionOf(obj: unknown): string {
  const metadata = (obj as { metadata?: { resourceVersion?: unknown } } | null | undefined)?.metadata;

  return typeof metadata?.resourceVersion === 'string' ? metadata.resourceVersion : '';
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

/**
 * Per object, the last value worked out from it, kept while its resourceVersion and the other
 * inputs (compared by identity) are the same. The value is worked out from the raw object: the
 * caller's reactive effect depends on the resourceVersion read here, which Kubernetes changes on
 * every write (the shell's store updates its models in place). An object without one is worked
 * out each time, through its proxy.
 */
export class ObjectMemo<V> {
  private readonly cache = new WeakMap<object, { inputs: unknown[]; value: V }>();

  get(obj: unknown, inputs: readonly unknown[], compute: (obj: unknown) => V): V {
    const revision = resourceVersionOf(obj);

    if (!revision || typeof obj !== 'object' || obj === null) {
      return compute(obj);
    }
    const raw = toRaw(obj);
    const key = [revision, ...inputs];
    const known = this.cache.get(raw);

    if (known && sameInputs(known.inputs, key)) {
      return known.value;
    }
    const value = compute(raw);

    this.cache.set(raw, { inputs: key, value });

    return value;
  }
}

/**
 * One text naming each object's namespace, name and resourceVersion, which changes when any of
 * them is added, removed or written; undefined when one has no resourceVersion (nothing then
 * tells a change apart).
 */
export function revisionKey(objects: readonly unknown[]): string | undefined {
  return objects.every((obj) => resourceVersionOf(obj)) ? poolsRevisionKey(objects) : undefined;
}

/**
 * The values last worked out, by key (a revision key of everything each reads), the `size` most
 * recent kept; without a key nothing is kept.
 */
export class RecentValues<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly size = 1) {}

  get(key: string | undefined, compute: () => V): V {
    if (key === undefined) {
      return compute();
    }
    const known = this.values.get(key);

    if (known !== undefined || this.values.has(key)) {
      // Most recent last.
      this.values.delete(key);
      this.values.set(key, known as V);

      return known as V;
    }
    const value = compute();

    this.values.set(key, value);
    while (this.values.size > this.size) {
      this.values.delete(this.values.keys().next().value as string);
    }

    return value;
  }
}

/**
 * By key (an object's id, when the same object may come back as a new copy), the last value worked
 * out, kept while the inputs (compared by identity) are the same; without a key nothing is kept.
 */
export class KeyedMemo<V> {
  private readonly cache = new Map<string, { inputs: readonly unknown[]; value: V }>();

  get(key: string | undefined, inputs: readonly unknown[], compute: () => V): V {
    if (!key) {
      return compute();
    }
    const known = this.cache.get(key);

    if (known && sameInputs(known.inputs, inputs)) {
      return known.value;
    }
    const value = compute();

    this.cache.set(key, { inputs, value });

    return value;
  }

  /** Forgets every key but these (the objects that are gone). */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.cache.keys()) {
      if (!keys.has(key)) {
        this.cache.delete(key);
      }
    }
  }

  /** How many values are kept. */
  get size(): number {
    return this.cache.size;
  }
}
