// The emulated controllers as clients of a real Kubernetes API server (`--backend real-stack`): a
// cache of each watched type filled by a list and kept by a watch from the list's resourceVersion,
// as client-go's reflector feeds an informer (kubernetes/client-go tools/cache/reflector.go ListAndWatch;
// a watch that ends or answers 410 Gone is followed by a new list), reads from that cache, and
// writes over REST as the operator's service account would (here the stack's admin token).
// Each write's answer is put into the cache at once, so the controller's next read sees its own
// write, as controller-runtime's reads after a write are expected to be retried until the cache has it.
// The real operator's reconcilers read and write the same way, through controller-runtime's cached
// client (rancher/elemental-operator controllers/managedosimage_controller.go).

import http from 'http';
import { ApiError } from '../kube/errors';
import { ControllerApi } from '../kube/controller-api';
import { ListOptions, listOptionsPredicate } from '../kube/objects';
import { ResourceType, TypeRegistry, apiVersionOf } from '../kube/resource-types';
import { KubeObject, StoreEvent, objectKey } from '../kube/store';
import { JsonObject, asObject, asString } from '../core/json';
import { openRequest, requestOnce } from './https-client';

export interface KubeEndpoint {
  /** e.g. https://127.0.0.1:9933 */
  url: string;
  /** A bearer token the API server accepts (scripts/real-stack/up's tokens.csv). */
  token: string;
}

const RELIST_DELAY_MS = 1000;

/** The REST path of a type's collection, or of one object (name given). */
export function resourcePath(type: ResourceType, namespace: string | undefined, name?: string, subresource?: string): string {
  const root = type.group ? `/apis/${ type.group }/${ type.version }` : `/api/${ type.version }`;
  const ns = type.namespaced && namespace ? `/namespaces/${ encodeURIComponent(namespace) }` : '';
  const one = name ? `/${ encodeURIComponent(name) }` : '';

  return `${ root }${ ns }/${ type.plural }${ one }${ subresource && name ? `/${ subresource }` : '' }`;
}

function revisionOf(object: KubeObject): number {
  return Number(object.metadata.resourceVersion) || 0;
}

/** A metav1.Status answer as the ApiError the emulator's controllers already handle. */
function errorOf(status: number, body: unknown): ApiError {
  const s = asObject(body);

  return new ApiError(status, (asString(s.reason) ?? 'InternalError') as ApiError['reason'], asString(s.message) ?? `HTTP ${ status }`);
}

interface TypeCache {
  type: ResourceType;
  objects: Map<string, KubeObject>;
  revision: string;
  request?: http.ClientRequest;
  relist?: NodeJS.Timeout;
}

export class RemoteControllerApi implements ControllerApi {
  private readonly caches = new Map<string, TypeCache>();
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private stopped = false;

  constructor(private readonly endpoint: KubeEndpoint, readonly types: TypeRegistry, watched: ResourceType[]) {
    for (const type of watched) {
      this.caches.set(type.id, {
        type, objects: new Map(), revision: ''
      });
    }
  }

  /** Lists every watched type and starts its watch; resolves once every cache has its first list (WaitForCacheSync). */
  async start(): Promise<void> {
    this.stopped = false;
    await Promise.all([...this.caches.values()].map((cache) => this.listAndWatch(cache)));
  }

  stop(): void {
    this.stopped = true;
    for (const cache of this.caches.values()) {
      cache.request?.destroy();
      clearTimeout(cache.relist);
    }
  }

  async find(type: ResourceType, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    const found = this.cacheOf(type).objects.get(objectKey(type.namespaced ? namespace : undefined, name));

    return found ? structuredClone(found) : undefined;
  }

  async list(type: ResourceType, options: ListOptions = {}): Promise<KubeObject[]> {
    const keyOf = (o: KubeObject) => objectKey(o.metadata.namespace, o.metadata.name);

    return [...this.cacheOf(type).objects.values()].filter(listOptionsPredicate(options))
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))
      .map((o) => structuredClone(o));
  }

  async create(type: ResourceType, namespace: string | undefined, object: KubeObject | Record<string, unknown>): Promise<KubeObject> {
    const body = {
      ...object, apiVersion: apiVersionOf(type), kind: type.kind
    };

    return this.write('POST', resourcePath(type, namespace), type, body);
  }

  async update(type: ResourceType, namespace: string | undefined, name: string, object: KubeObject, subresource?: 'status'): Promise<KubeObject> {
    return this.write('PUT', resourcePath(type, namespace, name, subresource), type, {
      ...object, apiVersion: apiVersionOf(type), kind: type.kind
    });
  }

  async delete(type: ResourceType, namespace: string | undefined, name: string): Promise<void> {
    const answer = await this.send('DELETE', resourcePath(type, namespace, name));

    if (answer.status >= 300 && answer.status !== 404) {
      throw errorOf(answer.status, answer.json);
    }
  }

  /** A JSON merge patch (RFC 7386) of the object or its status: what a controller that only sets a few fields sends, without a 409 on a busy object. */
  async patch(type: ResourceType, namespace: string | undefined, name: string, body: JsonObject, subresource?: 'status'): Promise<KubeObject> {
    return this.write('PATCH', resourcePath(type, namespace, name, subresource), type, body, 'application/merge-patch+json');
  }

  /** A POST to a subresource such as a pod's binding (whose answer is no object of a watched type). */
  async post(path: string, body: JsonObject): Promise<void> {
    const answer = await this.send('POST', path, body);

    if (answer.status >= 300) {
      throw errorOf(answer.status, answer.json);
    }
  }

  /** Creates the object unless it exists (what an installed chart left there), answering whether it did. */
  async ensure(type: ResourceType, object: JsonObject): Promise<boolean> {
    const namespace = asString(asObject(object.metadata).namespace);

    try {
      await this.create(type, namespace, object);

      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        return false;
      }
      throw e;
    }
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);

    return () => this.listeners.delete(listener);
  }

  private cacheOf(type: ResourceType): TypeCache {
    const cache = this.caches.get(type.id);

    if (!cache) {
      throw new Error(`${ type.id } is not watched by this client`);
    }

    return cache;
  }

  private async write(method: string, path: string, type: ResourceType, body: JsonObject, contentType?: string): Promise<KubeObject> {
    const answer = await this.send(method, path, body, contentType);

    if (answer.status >= 300) {
      throw errorOf(answer.status, answer.json);
    }
    const written = answer.json as KubeObject;
    const cache = this.caches.get(type.id);

    if (cache) {
      this.remember(cache, written);
    }

    return structuredClone(written);
  }

  private async send(method: string, path: string, body?: JsonObject, contentType = 'application/json'): Promise<{ status: number; json: unknown }> {
    const answer = await requestOnce(`${ this.endpoint.url }${ path }`, method, {
      authorization: `Bearer ${ this.endpoint.token }`, accept: 'application/json', 'content-type': contentType
    }, body === undefined ? undefined : JSON.stringify(body));
    const text = answer.body.toString('utf8');

    try {
      return { status: answer.status, json: text ? JSON.parse(text) : undefined };
    } catch {
      return { status: answer.status, json: { message: text } };
    }
  }

  /** Keeps the newer of the cached object and this one (a watch event may come after the write's answer). */
  private remember(cache: TypeCache, object: KubeObject): void {
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    const cached = cache.objects.get(key);

    if (!cached || revisionOf(object) >= revisionOf(cached)) {
      cache.objects.set(key, object);
    }
  }

  private emit(type: ResourceType, action: StoreEvent['action'], object: KubeObject): void {
    for (const listener of this.listeners) {
      listener({
        type: type.id, action, object: structuredClone(object), revision: revisionOf(object)
      });
    }
  }

  private async listAndWatch(cache: TypeCache): Promise<void> {
    const answer = await this.send('GET', resourcePath(cache.type, undefined));

    if (answer.status !== 200) {
      throw errorOf(answer.status, answer.json);
    }
    const list = asObject(answer.json);
    const items = (Array.isArray(list.items) ? list.items : []) as KubeObject[];
    const seen = new Set<string>();

    for (const item of items) {
      const key = objectKey(item.metadata.namespace, item.metadata.name);
      const before = cache.objects.get(key);

      seen.add(key);
      cache.objects.set(key, item);
      // A list after the first (a relist) tells the listeners what changed meanwhile, as the
      // informer's DeltaFIFO Replace does.
      if (cache.revision && (!before || before.metadata.resourceVersion !== item.metadata.resourceVersion)) {
        this.emit(cache.type, before ? 'change' : 'create', item);
      }
    }
    for (const [key, object] of cache.objects) {
      if (!seen.has(key)) {
        cache.objects.delete(key);
        this.emit(cache.type, 'remove', object);
      }
    }
    cache.revision = asString(asObject(list.metadata).resourceVersion) ?? '';
    this.watch(cache);
  }

  private watch(cache: TypeCache): void {
    if (this.stopped) {
      return;
    }
    const url = `${ this.endpoint.url }${ resourcePath(cache.type, undefined) }?watch=1&allowWatchBookmarks=true&resourceVersion=${ encodeURIComponent(cache.revision) }`;
    let buffered = '';

    cache.request = openRequest(url, 'GET', { authorization: `Bearer ${ this.endpoint.token }`, accept: 'application/json' }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.relistLater(cache);

        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let newline = buffered.indexOf('\n');

        while (newline >= 0) {
          const line = buffered.slice(0, newline).trim();

          buffered = buffered.slice(newline + 1);
          if (line && !this.onWatchEvent(cache, JSON.parse(line))) {
            res.destroy();
            this.relistLater(cache);

            return;
          }
          newline = buffered.indexOf('\n');
        }
      });
      res.on('end', () => this.relistLater(cache));
      res.on('error', () => this.relistLater(cache));
    });
    cache.request.on('error', () => this.relistLater(cache));
    cache.request.end();
  }

  /** One watch event; false when the watch must start again from a new list (an ERROR such as 410 Gone). */
  private onWatchEvent(cache: TypeCache, event: { type: string; object: KubeObject }): boolean {
    const object = event.object;

    if (event.type === 'ERROR') {
      return false;
    }
    cache.revision = object.metadata?.resourceVersion ?? cache.revision;
    if (event.type === 'BOOKMARK') {
      return true;
    }
    const key = objectKey(object.metadata.namespace, object.metadata.name);

    if (event.type === 'DELETED') {
      cache.objects.delete(key);
      this.emit(cache.type, 'remove', object);
    } else {
      this.remember(cache, object);
      this.emit(cache.type, event.type === 'ADDED' ? 'create' : 'change', object);
    }

    return true;
  }

  private relistLater(cache: TypeCache): void {
    if (this.stopped || cache.relist) {
      return;
    }
    cache.request = undefined;
    cache.relist = setTimeout(() => {
      cache.relist = undefined;
      this.listAndWatch(cache).catch(() => this.relistLater(cache));
    }, RELIST_DELAY_MS);
    cache.relist.unref();
  }
}
