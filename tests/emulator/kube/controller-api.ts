// What a controller reads and writes, as controller-runtime gives it (sigs.k8s.io/controller-runtime
// pkg/client: reads from the informers' cache, writes to the API server, events from the informers'
// watches). Two implementations: the emulator's own store (below) and a remote API server
// (real-stack/remote-api.ts, `--backend real-stack`).

import { ListOptions, ObjectApi } from './objects';
import { ResourceType, TypeRegistry } from './resource-types';
import { KubeObject, StoreEvent } from './store';
import { SYSTEM_ACTOR } from '../rancher/users';

export interface ControllerApi {
  readonly types: TypeRegistry;
  find(type: ResourceType, namespace: string | undefined, name: string): Promise<KubeObject | undefined>;
  list(type: ResourceType, options?: ListOptions): Promise<KubeObject[]>;
  create(type: ResourceType, namespace: string | undefined, object: KubeObject | Record<string, unknown>): Promise<KubeObject>;
  /** A PUT of the whole object (its resourceVersion decides a 409), or of its status subresource. */
  update(type: ResourceType, namespace: string | undefined, name: string, object: KubeObject, subresource?: 'status'): Promise<KubeObject>;
  delete(type: ResourceType, namespace: string | undefined, name: string): Promise<void>;
  /** Every change of the watched types, as the informers deliver them. */
  subscribe(listener: (event: StoreEvent) => void): () => void;
}

/** The emulator's own store, written as the operator's service account (SYSTEM_ACTOR). */
export class LocalControllerApi implements ControllerApi {
  constructor(private readonly api: ObjectApi) {}

  get types(): TypeRegistry {
    return this.api.types;
  }

  async find(type: ResourceType, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    return this.api.find(type, namespace, name);
  }

  async list(type: ResourceType, options: ListOptions = {}): Promise<KubeObject[]> {
    return this.api.list(type, options).items;
  }

  async create(type: ResourceType, namespace: string | undefined, object: KubeObject | Record<string, unknown>): Promise<KubeObject> {
    return this.api.create(type, namespace, object, SYSTEM_ACTOR);
  }

  async update(type: ResourceType, namespace: string | undefined, name: string, object: KubeObject, subresource?: 'status'): Promise<KubeObject> {
    return this.api.update(type, namespace, name, object, SYSTEM_ACTOR, subresource);
  }

  async delete(type: ResourceType, namespace: string | undefined, name: string): Promise<void> {
    this.api.delete(type, namespace, name, SYSTEM_ACTOR);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    return this.api.store.subscribe(listener);
  }
}
