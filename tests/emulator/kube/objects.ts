// Object semantics of the Kubernetes API server (k8s.io/apiserver registry/generic), as Steve (rancher/steve pkg/stores/proxy) passes them through.
// The Kubernetes API server's object semantics over the store: names and generateName, uid,
// creationTimestamp, resourceVersion (409 on a stale one), generation, the status subresource,
// CRD pruning/defaulting/validation (422), RBAC (403), 404s, finalizers and deletion propagation
// (the garbage collection after a deletion is garbage-collector.ts).

import { randomBytes, randomUUID } from 'crypto';
import {
  ApiError, alreadyExists, badRequest, conflict, forbidden, invalid, notFound
} from './errors';
import {
  JsonObject, asObject, asString, clone, isObject, jsonEqual, mergePatch
} from '../core/json';
import { LabelSelector, matchesLabels } from './labels';
import { ResourceType, TypeRegistry, apiVersionOf } from './resource-types';
import { KubeObject, ObjectMeta, ObjectStore, finalizersOf } from './store';
import { Actor, Verb, can } from '../rancher/users';
import { normalize, validate, validateName, validateStringMaps } from './validate';
import { CollectedApi, FOREGROUND_FINALIZER, GarbageCollector, namespaceFinalizers } from './garbage-collector';

export interface ListOptions {
  namespace?: string;
  labelSelector?: LabelSelector;
  /** `metadata.name=x`, `metadata.namespace=y` (the field selectors every type supports). */
  fieldSelector?: Record<string, string>;
  /** Only objects of these names can match (in `namespace`, or `lookupNamespace` for a lookup): read by key. */
  names?: { names: string[]; namespace?: string };
}

/** Whether a stored object answers a list with these options (namespace, labels, fields). */
export function listOptionsPredicate(options: ListOptions): (o: KubeObject) => boolean {
  return (o) => {
    if (options.namespace && o.metadata.namespace !== options.namespace) {
      return false;
    }
    if (options.labelSelector && !matchesLabels(options.labelSelector, o.metadata.labels)) {
      return false;
    }
    for (const [field, value] of Object.entries(options.fieldSelector ?? {})) {
      const actual = field === 'metadata.name' ? o.metadata.name : field === 'metadata.namespace' ? o.metadata.namespace : undefined;

      if (actual !== value) {
        return false;
      }
    }

    return true;
  };
}

export type PatchType = 'merge' | 'json' | 'strategic';

/** Fields of metadata that a write can never change. */
const SYSTEM_META = ['uid', 'creationTimestamp', 'generation', 'resourceVersion', 'generateName', 'deletionTimestamp'];
const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

export function nowTimestamp(date = new Date()): string {
  return `${ date.toISOString().slice(0, 19) }Z`;
}

function randomSuffix(): string {
  const bytes = randomBytes(5);

  return [...bytes].map((b) => NAME_CHARS[b % NAME_CHARS.length]).join('');
}

function contentOf(object: JsonObject): JsonObject {
  const { metadata: _metadata, status: _status, ...rest } = object;

  return rest;
}

export class ObjectApi implements CollectedApi {
  /** kube-controller-manager's garbage collector and namespace controller. */
  private readonly collector = new GarbageCollector(this);

  constructor(readonly store: ObjectStore, readonly types: TypeRegistry) {}

  authorize(actor: Actor, verb: Verb, type: ResourceType, name = '', namespace?: string): void {
    if (!can(actor, verb, type.id, type.namespaced ? namespace : undefined)) {
      throw forbidden(type, verb, actor.name, name, namespace);
    }
  }

  list(type: ResourceType, options: ListOptions = {}): { items: KubeObject[]; revision: number } {
    const { items, revision } = this.listShared(type, options);

    return { items: items.map((o) => clone(o)), revision };
  }

  /**
   * As list, but the stored objects themselves (filtered before anything is copied): never modify them.
   * A selector with an equality requirement (`a=b`, `a==b`, `a in (b, c)`) starts from the label index
   * (label-index.ts); any other selector reads every object of the type.
   */
  listShared(type: ResourceType, options: ListOptions = {}): { items: readonly KubeObject[]; revision: number } {
    // etcd returns keys in order: namespace, then name (bytes; names are ASCII). Each key is made
    // once: a list of 100,000 versions compares about 1.7 million pairs.
    const keyed = this.candidates(type, options).filter(listOptionsPredicate(options))
      .map((o) => ({ key: `${ o.metadata.namespace ?? '' }/${ o.metadata.name }`, o }));

    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

    return { items: keyed.map(({ o }) => o), revision: this.store.revision };
  }

  private candidates(type: ResourceType, options: ListOptions): readonly KubeObject[] {
    const byName = options.names;
    const namespace = options.namespace || byName?.namespace;

    if (byName && (!type.namespaced || namespace)) {
      return byName.names.map((name) => this.store.sharedOne(type.id, type.namespaced ? namespace : undefined, name))
        .filter((o): o is KubeObject => !!o);
    }
    const lookups = (options.labelSelector ?? []).filter((req) => req.operator === 'In' && req.values.length > 0);

    if (!lookups.length) {
      return this.store.shared(type.id);
    }
    // An object has one value per label: the lists of `k in (a, b)` never overlap.
    const lists = lookups.map((req) => req.values.flatMap((value) => this.store.sharedByLabel(type.id, req.key, value, options.namespace || undefined)));

    return lists.reduce((smallest, list) => (list.length < smallest.length ? list : smallest));
  }

  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const found = this.store.get(type.id, type.namespaced ? namespace : undefined, name);

    if (!found) {
      throw notFound(type, name);
    }

    return found;
  }

  find(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.store.get(type.id, type.namespaced ? namespace : undefined, name);
  }

  create(type: ResourceType, namespace: string | undefined, body: unknown, actor: Actor): KubeObject {
    if (!isObject(body)) {
      throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
    }
    const object = clone(body);
    const meta = asObject(object.metadata);

    this.checkTypeMeta(type, object);
    const ns = this.resolveNamespace(type, namespace, meta);

    this.authorize(actor, 'create', type, asString(meta.name) ?? '', ns);

    if (asString(meta.resourceVersion)) {
      throw new ApiError(500, 'InternalError', 'resourceVersion should not be set on objects to be created');
    }
    let name = asString(meta.name) ?? '';

    if (!name && asString(meta.generateName)) {
      name = `${ meta.generateName }${ randomSuffix() }`;
    }
    const causes = [...validateName(name, type.id === 'namespace'), ...validateStringMaps(meta)];

    if (causes.length) {
      throw invalid(type, name, causes);
    }
    if (ns !== undefined && type.id !== 'namespace' && !this.store.get('namespace', undefined, ns)) {
      throw notFound(this.types.require('namespace'), ns);
    }
    if (this.store.get(type.id, ns, name)) {
      throw alreadyExists(type, name);
    }

    for (const key of SYSTEM_META) {
      delete meta[key];
    }
    const metadata: ObjectMeta = {
      ...meta,
      name,
      uid:               randomUUID(),
      resourceVersion:   '',
      creationTimestamp: nowTimestamp(),
    };

    if (ns !== undefined) {
      metadata.namespace = ns;
    } else {
      delete metadata.namespace;
    }
    if (type.openApiSchema || type.statusSubresource) {
      metadata.generation = 1;
    }
    const created: KubeObject = {
      ...object, apiVersion: apiVersionOf(type), kind: type.kind, metadata
    };

    if (type.statusSubresource) {
      delete created.status;
    }
    if (type.id === 'namespace') {
      created.spec = { finalizers: ['kubernetes'] };
      created.status = { phase: 'Active' };
      // kubernetes pkg/registry/core/namespace/strategy.go Canonicalize: every namespace is
      // labelled with its name (recorded: tests/conformance/recordings/kube-controllers.json).
      created.metadata.labels = { ...created.metadata.labels, 'kubernetes.io/metadata.name': name };
    }
    this.admit(type, created);
    created.metadata.resourceVersion = String(this.store.nextRevision());
    this.store.put(type.id, created, 'create');

    return clone(created);
  }

  /** PUT. With `subresource: 'status'` only the status is taken from the body. */
  update(type: ResourceType, namespace: string | undefined, name: string, body: unknown, actor: Actor, subresource?: 'status'): KubeObject {
    if (!isObject(body)) {
      throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
    }
    const ns = type.namespaced ? namespace : undefined;

    this.authorize(actor, 'update', type, name, ns);
    const existing = this.get(type, ns, name);
    const object = clone(body);
    const meta = asObject(object.metadata);

    this.checkTypeMeta(type, object);
    if (asString(meta.name) !== undefined && meta.name !== name) {
      throw badRequest(`the name of the object (${ meta.name }) does not match the name on the URL (${ name })`);
    }
    if (type.namespaced && asString(meta.namespace) && meta.namespace !== ns) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const resourceVersion = asString(meta.resourceVersion);

    if (!resourceVersion && type.openApiSchema) {
      throw invalid(type, name, [{
        reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion'
      }]);
    }
    if (resourceVersion && resourceVersion !== existing.metadata.resourceVersion) {
      throw conflict(type, name);
    }

    let next: KubeObject;

    if (subresource === 'status') {
      next = { ...clone(existing), status: object.status };
    } else {
      const causes = validateStringMaps(meta);

      if (causes.length) {
        throw invalid(type, name, causes);
      }
      const { deletionTimestamp: _deletion, deletionGracePeriodSeconds: _grace, ...written } = meta;
      const metadata: ObjectMeta = { ...written, ...this.systemMeta(existing.metadata) };

      next = {
        ...object, apiVersion: apiVersionOf(type), kind: type.kind, metadata
      };
      if (type.statusSubresource) {
        if (existing.status === undefined) {
          delete next.status;
        } else {
          next.status = clone(existing.status);
        }
      }
    }

    return this.commit(type, existing, next);
  }

  patch(type: ResourceType, namespace: string | undefined, name: string, patch: unknown, patchType: PatchType, actor: Actor, subresource?: 'status'): KubeObject {
    const ns = type.namespaced ? namespace : undefined;

    this.authorize(actor, 'patch', type, name, ns);
    const existing = this.get(type, ns, name);

    if (patchType === 'strategic' && type.openApiSchema) {
      throw new ApiError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    }
    const patched = patchType === 'json' ? applyJsonPatch(existing, patch) : mergePatch(existing, patch);

    if (!isObject(patched)) {
      throw badRequest('the patch does not produce an object');
    }
    const patchedMeta = asObject(patched.metadata);

    // A patch may carry a resourceVersion (optimistic lock); without one it applies to the latest.
    if (!asString(patchedMeta.resourceVersion) || !isObject(patch) || !asString(asObject(patch.metadata).resourceVersion)) {
      patchedMeta.resourceVersion = existing.metadata.resourceVersion;
    }
    patched.metadata = patchedMeta;

    return this.update(type, ns, name, patched, actor, subresource);
  }

  /**
   * DELETE. `propagation` is the request's DeleteOptions.propagationPolicy: Foreground keeps the
   * object, Terminating with the finalizer foregroundDeletion, until the garbage collector has
   * deleted its dependents (garbage-collector.ts); Background (what Steve sends, the default for
   * custom resources) deletes it at once and the collector its dependents after. Orphan is not emulated.
   */
  delete(type: ResourceType, namespace: string | undefined, name: string, actor: Actor, propagation: 'Foreground' | 'Background' = 'Background'): KubeObject {
    const ns = type.namespaced ? namespace : undefined;

    this.authorize(actor, 'delete', type, name, ns);

    return this.deleteWith(type, this.get(type, ns, name), propagation);
  }

  /** The garbage collector's and the namespace controller's deletion (background). */
  deleteObject(type: ResourceType, object: KubeObject): void {
    this.deleteWith(type, object, 'Background');
  }

  /** A controller's write of an object's finalizers (the collector's, the namespace controller's). */
  write(type: ResourceType, object: KubeObject): void {
    const existing = this.find(type, object.metadata.namespace, object.metadata.name);

    if (existing) {
      this.commit(type, existing, clone(object));
    }
  }

  private deleteWith(type: ResourceType, existing: KubeObject, propagation: 'Foreground' | 'Background'): KubeObject {
    const finalizers = finalizersOf(existing);
    const foreground = propagation === 'Foreground';
    // A namespace's spec.finalizers (`kubernetes`): the namespace controller empties it first (garbage-collector.ts).
    const namespaceContent = type.id === 'namespace' && namespaceFinalizers(existing).length > 0;

    // Finalizers (Kubernetes API semantics, k8s.io/apiserver registry/generic/registry/store.go
    // Delete): the object only gets a deletionTimestamp and stays until its last finalizer is removed.
    if (finalizers.length || foreground || namespaceContent) {
      if (existing.metadata.deletionTimestamp) {
        return existing;
      }
      const terminating = clone(existing);

      terminating.metadata.deletionTimestamp = nowTimestamp();
      terminating.metadata.deletionGracePeriodSeconds = 0;
      if (foreground && !finalizers.includes(FOREGROUND_FINALIZER)) {
        terminating.metadata.finalizers = [...finalizers, FOREGROUND_FINALIZER];
      }
      if (namespaceContent) {
        // kubernetes pkg/registry/core/namespace/storage/storage.go Delete: phase Terminating.
        terminating.status = { ...asObject(terminating.status), phase: 'Terminating' };
      }
      terminating.metadata.resourceVersion = String(this.store.nextRevision());
      this.store.put(type.id, terminating, 'change');
      this.collector.schedule();

      return clone(terminating);
    }
    const removed = this.store.delete(type.id, existing.metadata.namespace, existing.metadata.name);

    if (!removed) {
      throw notFound(type, existing.metadata.name);
    }
    this.collector.schedule();

    return removed;
  }

  private systemMeta(existing: ObjectMeta): Pick<ObjectMeta, 'name' | 'uid' | 'creationTimestamp' | 'resourceVersion'> & Partial<ObjectMeta> {
    const out: Pick<ObjectMeta, 'name' | 'uid' | 'creationTimestamp' | 'resourceVersion'> & Partial<ObjectMeta> = {
      name:              existing.name,
      uid:               existing.uid,
      creationTimestamp: existing.creationTimestamp,
      resourceVersion:   existing.resourceVersion,
    };

    if (existing.namespace !== undefined) {
      out.namespace = existing.namespace;
    }
    if (existing.generation !== undefined) {
      out.generation = existing.generation;
    }
    if (existing.generateName !== undefined) {
      out.generateName = existing.generateName;
    }
    if (existing.deletionTimestamp !== undefined) {
      out.deletionTimestamp = existing.deletionTimestamp;
      out.deletionGracePeriodSeconds = existing.deletionGracePeriodSeconds;
    }

    return out;
  }

  /** Prunes, defaults, validates and stores an update; a no-op update keeps the resourceVersion. */
  private commit(type: ResourceType, existing: KubeObject, next: KubeObject): KubeObject {
    this.admit(type, next);

    if (jsonEqual(next, existing)) {
      return clone(existing);
    }
    if (existing.metadata.generation !== undefined && !jsonEqual(contentOf(next), contentOf(existing))) {
      next.metadata.generation = existing.metadata.generation + 1;
    }
    next.metadata.resourceVersion = String(this.store.nextRevision());
    this.store.put(type.id, next, 'change');
    if (next.metadata.deletionTimestamp && !finalizersOf(next).length && !(type.id === 'namespace' && namespaceFinalizers(next).length)) {
      // The last finalizer of an object being deleted is gone: the deletion completes.
      if (this.store.delete(type.id, next.metadata.namespace, next.metadata.name)) {
        this.collector.schedule();
      }
    }

    return clone(next);
  }

  /** CRD structural processing: prune unknown fields and nulls, default, validate (422). */
  private admit(type: ResourceType, object: KubeObject): void {
    if (!type.openApiSchema) {
      return;
    }
    normalize(type.openApiSchema, object);
    const causes = validate(type.openApiSchema, contentOf(object));

    if (causes.length) {
      throw invalid(type, object.metadata.name, causes);
    }
  }

  private checkTypeMeta(type: ResourceType, object: JsonObject): void {
    const apiVersion = asString(object.apiVersion);
    const kind = asString(object.kind);

    if (apiVersion && apiVersion !== apiVersionOf(type)) {
      throw badRequest(`the API version in the data (${ apiVersion }) does not match the expected API version (${ apiVersionOf(type) })`);
    }
    if (kind && kind !== type.kind) {
      throw badRequest(`the kind in the data (${ kind }) does not match the expected kind (${ type.kind })`);
    }
  }

  private resolveNamespace(type: ResourceType, fromUrl: string | undefined, meta: JsonObject): string | undefined {
    if (!type.namespaced) {
      return undefined;
    }
    const fromBody = asString(meta.namespace);

    if (fromUrl && fromBody && fromUrl !== fromBody) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const ns = fromUrl || fromBody;

    if (!ns) {
      throw badRequest('an empty namespace may not be set during creation');
    }

    return ns;
  }
}

/** RFC 6902 JSON patch (add, remove, replace, test, copy, move). */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) {
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  let doc = clone(document);

  for (const operation of patch) {
    const op = asObject(operation);
    const path = asString(op.path) ?? '';
    const parts = path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

    switch (op.op) {
    case 'add':
    case 'replace':
      doc = setPointer(doc, parts, clone(op.value), op.op === 'add');
      break;
    case 'remove':
      doc = setPointer(doc, parts, undefined, false);
      break;
    case 'test':
      if (!jsonEqual(getPointer(doc, parts), op.value)) {
        throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: testing value ${ path } failed`);
      }
      break;
    case 'copy':
    case 'move': {
      const fromParts = (asString(op.from) ?? '').split('/').slice(1);
      const value = clone(getPointer(doc, fromParts));

      if (op.op === 'move') {
        doc = setPointer(doc, fromParts, undefined, false);
      }
      doc = setPointer(doc, parts, value, true);
      break;
    }
    default:
      throw badRequest(`Unexpected kind: ${ String(op.op) }`);
    }
  }

  return doc;
}

function getPointer(doc: unknown, parts: string[]): unknown {
  let current = doc;

  for (const part of parts) {
    if (Array.isArray(current)) {
      current = current[Number(part)];
    } else if (isObject(current)) {
      current = current[part];
    } else {
      return undefined;
    }
  }

  return current;
}

function setPointer(doc: unknown, parts: string[], value: unknown, insert: boolean): unknown {
  if (!parts.length) {
    return value;
  }
  const [head, ...rest] = parts;

  if (Array.isArray(doc)) {
    const out = doc.slice();
    const index = head === '-' ? out.length : Number(head);

    if (!rest.length) {
      if (value === undefined) {
        out.splice(index, 1);
      } else if (insert) {
        out.splice(index, 0, value);
      } else {
        out[index] = value;
      }
    } else {
      out[index] = setPointer(out[index], rest, value, insert);
    }

    return out;
  }
  if (!isObject(doc)) {
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: doc is missing path: /${ parts.join('/') }`);
  }
  const out: JsonObject = { ...doc };

  if (!rest.length) {
    if (value === undefined) {
      delete out[head];
    } else {
      out[head] = value;
    }
  } else {
    out[head] = setPointer(out[head], rest, value, insert);
  }

  return out;
}
