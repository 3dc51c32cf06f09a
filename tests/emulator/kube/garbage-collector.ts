// What kube-controller-manager does after a deletion, for the emulator's stored types:
// - the garbage collector (kubernetes/kubernetes pkg/controller/garbagecollector/garbagecollector.go
//   attemptToDeleteItem): a dependent whose owners are all gone is deleted, background; one with
//   finalizers stays Terminating until they are removed. An owner deleted in the foreground
//   (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go deletionFinalizersForGarbageCollection
//   gives it the finalizer foregroundDeletion) has its dependents deleted, and loses the finalizer,
//   so goes, once no dependent with blockOwnerDeletion is left (processDeletingDependentsItem).
// - the namespace controller (kubernetes/kubernetes pkg/controller/namespace/deletion/namespaced_resources_deleter.go):
//   a namespace being deleted is Terminating while everything in it is deleted; once nothing is
//   left, its spec.finalizers (`kubernetes`) are removed and it goes.
// What it collects in a Rancher: the Bundle the Elemental operator writes with its ManagedOSImage as
// controller owner (rancher/elemental-operator controllers/managedosimage_controller.go), and the
// Jobs the system-upgrade-controller makes for a Plan (rancher/system-upgrade-controller pkg/upgrade/job/job.go).
// Recorded on the real kube-controller-manager: tests/conformance/recordings/kube-controllers.json.
import { ResourceType, TypeRegistry } from './resource-types';
import { KubeObject, ObjectStore, finalizersOf } from './store';

export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** What the collector needs of the object API: the deletion and a system write. */
export interface CollectedApi {
  readonly store: ObjectStore;
  readonly types: TypeRegistry;
  /** Deletes as the API server does for a DELETE (finalizers kept: Terminating), background. */
  deleteObject(type: ResourceType, object: KubeObject): void;
  /** Writes the object as the controller would (its finalizers, a namespace's spec.finalizers). */
  write(type: ResourceType, object: KubeObject): void;
}

export function namespaceFinalizers(object: KubeObject): string[] {
  const finalizers = (object.spec as { finalizers?: unknown } | undefined)?.finalizers;

  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

export class GarbageCollector {
  private scheduled = false;

  constructor(private readonly api: CollectedApi) {}

  /** After any deletion or removal: one pass soon, as the controllers react to the watch event. */
  schedule(): void {
    if (this.scheduled) {
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pass();
    });
  }

  /** Every stored object (the stored ones themselves: never modified here, only read). */
  private everything(): { type: ResourceType; object: KubeObject }[] {
    return this.api.types.all().flatMap((type) => this.api.store.shared(type.id).map((object) => ({ type, object })));
  }

  /** Collects until nothing changes: each deletion can free further dependents. */
  private pass(): void {
    for (let round = 0; round < 100 && this.step(); round++) {
      // another round
    }
  }

  private step(): boolean {
    const all = this.everything();
    const byUid = new Map(all.map(({ object }) => [object.metadata.uid, object]));
    const inForeground = (uid: string) => {
      const owner = byUid.get(uid);

      return !!owner?.metadata.deletionTimestamp && finalizersOf(owner).includes(FOREGROUND_FINALIZER);
    };
    let changed = false;

    for (const { type, object } of all) {
      const owners = object.metadata.ownerReferences ?? [];

      if (!owners.length || object.metadata.deletionTimestamp) {
        continue;
      }
      // kubernetes/kubernetes pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem:
      // no owner left (background), or an owner waiting in the foreground for its dependents.
      if (owners.every((o) => !byUid.has(o.uid)) || owners.some((o) => inForeground(o.uid))) {
        this.api.deleteObject(type, object);
        changed = true;
      }
    }
    for (const { type, object } of all.filter((entry) => entry.object.metadata.deletionTimestamp)) {
      const latest = this.api.store.get(type.id, object.metadata.namespace, object.metadata.name);

      if (latest && this.finish(type, latest)) {
        changed = true;
      }
    }

    return changed;
  }

  /** Ends a foreground deletion or a namespace's once what it waits for is gone. */
  private finish(type: ResourceType, object: KubeObject): boolean {
    const uid = object.metadata.uid;

    // kubernetes/kubernetes pkg/controller/garbagecollector/garbagecollector.go processDeletingDependentsItem.
    if (finalizersOf(object).includes(FOREGROUND_FINALIZER)) {
      const blocking = this.everything().some(({ object: o }) => (o.metadata.ownerReferences ?? []).some((ref) => ref.uid === uid && ref.blockOwnerDeletion));

      if (!blocking) {
        this.api.write(type, { ...object, metadata: { ...object.metadata, finalizers: finalizersOf(object).filter((f) => f !== FOREGROUND_FINALIZER) } });

        return true;
      }
    }
    // kubernetes/kubernetes pkg/controller/namespace/deletion/namespaced_resources_deleter.go Delete.
    if (type.id === 'namespace' && namespaceFinalizers(object).length) {
      const content = this.everything().filter(({ type: t, object: o }) => t.namespaced && o.metadata.namespace === object.metadata.name);

      for (const { type: t, object: o } of content.filter(({ object: o }) => !o.metadata.deletionTimestamp)) {
        this.api.deleteObject(t, o);
      }
      if (!content.length) {
        this.api.write(type, { ...object, spec: { ...(object.spec as object), finalizers: [] } });

        return true;
      }

      return content.some(({ object: o }) => !o.metadata.deletionTimestamp);
    }

    return false;
  }
}
