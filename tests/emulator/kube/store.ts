// The object store with one global resourceVersion counter, as etcd gives the Kubernetes API server (read by rancher/steve watches).
import { JsonObject, clone } from '../core/json';
import { LabelIndex } from '../steve/label-index';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  generateName?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export type ChangeAction = 'create' | 'change' | 'remove';

export interface StoreEvent {
  type: string;
  action: ChangeAction;
  /** The object after the change; for `remove`, the last state. */
  object: KubeObject;
  /** For `change`, the object before it. */
  previous?: KubeObject;
  revision: number;
}

/** The object's metadata.finalizers (the strings in it; [] when there are none). */
export function finalizersOf(object: KubeObject): string[] {
  const finalizers = object.metadata.finalizers;

  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${ namespace }/${ name }` : name;
}

const HISTORY_LIMIT = 20000;

/**
 * Objects by type, one global resourceVersion counter (like etcd's revision) and the history of
 * changes that watches replay from a revision. No API semantics here: see objects.ts.
 */
export class ObjectStore {
  private readonly types = new Map<string, Map<string, KubeObject>>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private readonly labels = new LabelIndex();
  /** Owner uid → the objects whose ownerReferences name it, as "type\0key". */
  private readonly owned = new Map<string, Set<string>>();
  private revisionCounter = 1000;
  /** Each type's newest event revision (rancher/steve pkg/sqlcache/informer/listoption_indexer.go `latestRV`). */
  private readonly latestByType = new Map<string, number>();

  get revision(): number {
    return this.revisionCounter;
  }

  /** Revisions older than this are gone from the history: a watch from before it is "too old". */
  get oldestRevision(): number {
    return this.history.length ? this.history[0].revision - 1 : this.revisionCounter;
  }

  /**
   * The revision of the type's newest change, undefined when it never changed: what Steve's SQL cache
   * answers as the revision of a list of the type (listoption_indexer.go `latestRV`).
   */
  typeRevision(type: string): number | undefined {
    return this.latestByType.get(type);
  }

  /**
   * A list's revision as Steve answers it: with its SQL cache the type's newest change ('' when it
   * never changed), the only one a watch of the type resumes from; without it the store's.
   */
  listRevision(type: string | undefined, sqlCache: boolean): string {
    return sqlCache && type ? String(this.typeRevision(type) ?? '') : String(this.revisionCounter);
  }

  /**
   * Whether a watch of `type` can resume from `revision` as Steve's SQL cache does: only from the
   * revision of an event of that type it still holds (listoption_indexer.go `Watch`, Rewind, else
   * ErrTooOld); the type's newest is always held (each type keeps its own log of 1,000, here one
   * history of HISTORY_LIMIT for all).
   */
  holdsRevision(type: string, revision: number): boolean {
    return this.latestByType.get(type) === revision || this.history.some((e) => e.type === type && e.revision === revision);
  }

  nextRevision(): number {
    this.revisionCounter += 1;

    return this.revisionCounter;
  }

  list(type: string): KubeObject[] {
    return this.shared(type).map((o) => clone(o));
  }

  /** The stored objects themselves, not copies (for filtering large lists): never modify them. */
  shared(type: string): readonly KubeObject[] {
    return [...(this.types.get(type)?.values() ?? [])];
  }

  /** The stored objects labelled `label=value` (in `namespace` if given), from the label index: never modify them. */
  sharedByLabel(type: string, label: string, value: string, namespace?: string): readonly KubeObject[] {
    const byKey = this.types.get(type);

    return this.labels.keys(type, label, value, namespace).map((key) => byKey?.get(key))
      .filter((o): o is KubeObject => !!o);
  }

  /** The stored object itself, not a copy: never modify it. */
  sharedOne(type: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.types.get(type)?.get(objectKey(namespace, name));
  }

  /**
   * The stored objects whose ownerReferences name this uid, with their types: never modify them.
   * Steve's summary cache indexes every object's relationships by the object they point to
   * (rancher/steve pkg/summarycache/summarycache.go, relationshipIndex).
   */
  sharedOwnedBy(uid: string): { type: string; object: KubeObject }[] {
    const out: { type: string; object: KubeObject }[] = [];

    for (const ref of this.owned.get(uid) ?? []) {
      const [type, key] = ref.split('\0');
      const object = this.types.get(type)?.get(key);

      if (object) {
        out.push({ type, object });
      }
    }

    return out;
  }

  get(type: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.types.get(type)?.get(objectKey(namespace, name));

    return found ? clone(found) : undefined;
  }

  /** Stores the object (whose metadata.resourceVersion the caller has set from nextRevision()). */
  put(type: string, object: KubeObject, action: 'create' | 'change'): void {
    let byKey = this.types.get(type);

    if (!byKey) {
      byKey = new Map();
      this.types.set(type, byKey);
    }
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    const previous = byKey.get(key);

    if (previous) {
      this.labels.remove(type, previous);
      this.indexOwners(type, key, previous, false);
    }
    const stored = clone(object);

    byKey.set(key, stored);
    this.labels.add(type, stored);
    this.indexOwners(type, key, stored, true);
    this.emit({
      type, action, object: clone(object), previous: action === 'change' ? previous : undefined, revision: Number(object.metadata.resourceVersion)
    });
  }

  delete(type: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = objectKey(namespace, name);
    const existing = this.types.get(type)?.get(key);

    if (!existing) {
      return undefined;
    }
    this.types.get(type)?.delete(key);
    this.labels.remove(type, existing);
    this.indexOwners(type, key, existing, false);
    const revision = this.nextRevision();
    const last = clone(existing);

    last.metadata.resourceVersion = String(revision);
    this.emit({
      type, action: 'remove', object: last, revision
    });

    return last;
  }

  /** Events of a type after `revision`, oldest first. */
  eventsSince(type: string, revision: number): StoreEvent[] {
    return this.history.filter((e) => e.type === type && e.revision > revision);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);

    return () => this.listeners.delete(listener);
  }

  /** Every type that holds objects, for resets and state dumps. */
  typeIds(): string[] {
    return [...this.types.keys()];
  }

  dump(): JsonObject {
    const out: JsonObject = {};

    for (const [type, byKey] of this.types) {
      out[type] = [...byKey.values()].map((o) => clone(o));
    }

    return out;
  }

  private indexOwners(type: string, key: string, object: KubeObject, add: boolean): void {
    for (const { uid } of object.metadata.ownerReferences ?? []) {
      let refs = this.owned.get(uid);

      if (add) {
        if (!refs) {
          refs = new Set();
          this.owned.set(uid, refs);
        }
        refs.add(`${ type }\0${ key }`);
      } else if (refs) {
        refs.delete(`${ type }\0${ key }`);
        if (!refs.size) {
          this.owned.delete(uid);
        }
      }
    }
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    this.latestByType.set(event.type, event.revision);
    if (this.history.length > HISTORY_LIMIT) {
      this.history.splice(0, this.history.length - HISTORY_LIMIT);
    }
    for (const listener of this.listeners) {
      listener(event);
    }
  }
}
