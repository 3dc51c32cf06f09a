// A simulated Elemental operator, version side: ManagedOSVersionReconciler
// (rancher/elemental-operator controllers/managedosversion_controller.go). It is queued for the
// version a ManagedOSImage pins (ManagedOSImageToManagedOSVersion, on every image event), for
// the version's own events and, when it starts, for every version (the informer's first list).
// Every version that is not being deleted gets the finalizer (Reconcile: AddFinalizer whenever
// the deletion timestamp is zero); one being deleted loses it only when no ManagedOSImage
// carries the label `elemental.cattle.io/managed-os-version-name=<version>`, so a pinned
// version stays Terminating, and any other is Terminating for the moment of one reconcile.

import { parseLabelSelector } from '../kube/labels';
import { ControllerApi } from '../kube/controller-api';
import { ResourceType } from '../kube/resource-types';
import { StoreEvent, finalizersOf } from '../kube/store';
import { VERSION_NAME_LABEL } from './image-operator';
import { asObject, asString } from '../core/json';

export const VERSION_FINALIZER = 'managedosversion.elemental.cattle.io';
const IMAGE = 'elemental.cattle.io.managedosimage';
const VERSION = 'elemental.cattle.io.managedosversion';

export class VersionFinalizer {
  private readonly queued = new Set<string>();
  private unsubscribe?: () => void;

  constructor(private readonly api: ControllerApi) {}

  private type(id: string): ResourceType {
    return this.api.types.require(id);
  }

  start(): void {
    this.unsubscribe = this.api.subscribe((event) => this.onEvent(event));
    this.api.list(this.type(VERSION)).then((versions) => {
      for (const version of versions) {
        this.enqueue(version.metadata.namespace ?? '', version.metadata.name);
      }
    }).catch(() => undefined);
  }

  stop(): void {
    this.unsubscribe?.();
    this.queued.clear();
  }

  private onEvent(event: StoreEvent): void {
    const namespace = event.object.metadata.namespace ?? '';

    if (event.type === IMAGE) {
      const pin = asString(asObject(event.object.spec).managedOSVersionName);

      if (pin) {
        this.enqueue(namespace, pin);
      }
    } else if (event.type === VERSION && event.action !== 'remove') {
      this.enqueue(namespace, event.object.metadata.name);
    }
  }

  private enqueue(namespace: string, name: string): void {
    const key = `${ namespace }/${ name }`;

    if (this.queued.has(key)) {
      return;
    }
    this.queued.add(key);
    setImmediate(() => {
      this.queued.delete(key);
      this.reconcile(namespace, name).catch(() => undefined);
    });
  }

  private async referencedBy(namespace: string, name: string): Promise<number> {
    return (await this.api.list(this.type(IMAGE), { namespace, labelSelector: parseLabelSelector(`${ VERSION_NAME_LABEL }=${ name }`) })).length;
  }

  async reconcile(namespace: string, name: string): Promise<void> {
    const version = await this.api.find(this.type(VERSION), namespace, name);

    if (!version) {
      return;
    }
    const finalizers = finalizersOf(version);
    const has = finalizers.includes(VERSION_FINALIZER);

    if (!version.metadata.deletionTimestamp) {
      if (!has) {
        await this.api.update(this.type(VERSION), namespace, name, { ...version, metadata: { ...version.metadata, finalizers: [...finalizers, VERSION_FINALIZER] } });
      }

      return;
    }
    if (has && await this.referencedBy(namespace, name) === 0) {
      await this.api.update(this.type(VERSION), namespace, name, { ...version, metadata: { ...version.metadata, finalizers: finalizers.filter((f) => f !== VERSION_FINALIZER) } });
    }
  }
}
