// Steve, Rancher's /v1 API: schemas, counts, user preferences, the self user, and list/get/create/
// update/patch/delete of every stored type, with Steve's collection and error shapes.

import { Emulator } from '../core/emulator';
import { ApiError, badRequest, methodNotSupported, unauthorized } from '../kube/errors';
import { RequestContext, jsonBody, sendJson } from '../core/http';
import { JsonObject, asObject } from '../core/json';
import { parseLabelSelector } from '../kube/labels';
import { ListOptions, PatchType } from '../kube/objects';
import { ResourceType } from '../kube/resource-types';
import { schemaDefinition } from './schema-definitions';
import { VIRTUAL_TYPES, steveSchemas } from './schemas';
import { PUBLIC_SETTINGS, RANCHER_VERSION } from '../rancher/seed';
import { parseRancherVersion } from '../rancher/rancher-version';
import { listSummary } from './list-summary';
import { itemCount } from './counts';
import { checkCsrf } from '../rancher/sessions';
import {
  PresentOptions, excludeFields, fromSteve, steveView, toSteve
} from './steve-format';
import { KubeObject } from '../kube/store';
import {
  filterPredicate, labelEqualityFilters, nameLookup, namespacePredicate, sortObjects
} from './steve-query';
import {
  ANONYMOUS_ACTOR, Actor, User, canAnywhere, userActor
} from '../rancher/users';

export function patchTypeOf(contentType: string | undefined): PatchType {
  const value = (contentType ?? '').toLowerCase();

  if (value.includes('json-patch')) {
    return 'json';
  }
  if (value.includes('strategic-merge-patch')) {
    return 'strategic';
  }

  return 'merge';
}

export class SteveApi {
  constructor(private readonly emulator: Emulator) {}

  async handle(ctx: RequestContext, user: User | undefined): Promise<void> {
    try {
      checkCsrf(ctx);
      await this.route(ctx, user);
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(500, 'InternalError', e instanceof Error ? e.message : String(e), undefined, { code: 'ServerError', message: e instanceof Error ? e.message : String(e) });

      sendJson(ctx, error.status, error.toSteve());
    }
  }

  private async route(ctx: RequestContext, user: User | undefined): Promise<void> {
    const parts = ctx.path.split('/').filter(Boolean).slice(1).map(decodeURIComponent);
    const [resource, ...rest] = parts;
    const actor = user ? userActor(user) : undefined;

    if (resource === 'schemas') {
      return this.schemas(ctx, actor, rest[0]);
    }
    if (resource === 'management.cattle.io.settings' || resource === 'management.cattle.io.setting') {
      if (!actor && ctx.method === 'GET') {
        return this.publicSettings(ctx, rest[0]);
      }
    }
    if (!actor || !user) {
      throw unauthorized();
    }
    switch (resource) {
    case 'schemaDefinitions':
    case 'schemadefinitions':
      return this.schemaDefinitions(ctx, rest[0]);
    case 'counts':
    case 'count':
      return sendJson(ctx, 200, rest.length ? this.counts(ctx.base) : this.collection(ctx, 'count', [this.counts(ctx.base)], false));
    case 'userpreferences':
    case 'userpreference':
      return this.userPreferences(ctx, user, rest[0]);
    case 'ext.cattle.io.selfusers':
    case 'ext.cattle.io.selfuser':
      if (ctx.method !== 'POST') {
        throw new ApiError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { code: 'MethodNotAllow', message: 'Method not allowed' });
      }

      return sendJson(ctx, 201, {
        id:         '',
        type:       'ext.cattle.io.selfuser',
        links:      {},
        apiVersion: 'ext.cattle.io/v1',
        kind:       'SelfUser',
        metadata:   { creationTimestamp: null },
        status:     { userID: user.id },
      });
    }
    const type = resource ? this.emulator.types.fromSteveName(resource) : undefined;

    if (!type) {
      // Steve answers an unknown type with a bare 404.
      ctx.res.statusCode = 404;
      ctx.res.end();

      return;
    }

    return this.resource(ctx, type, actor, rest);
  }

  private schemas(ctx: RequestContext, actor: Actor | undefined, id: string | undefined): void {
    const all = steveSchemas(this.emulator.types.served(), ctx.base, actor);

    if (id) {
      const schema = all.find((s) => s.id === id);

      if (!schema) {
        ctx.res.statusCode = 404;
        ctx.res.end();

        return;
      }

      return sendJson(ctx, 200, schema);
    }

    return sendJson(ctx, 200, this.collection(ctx, 'schema', all, false));
  }

  private schemaDefinitions(ctx: RequestContext, id: string | undefined): void {
    const type = id ? this.emulator.types.fromSteveName(id) : undefined;

    if (!type) {
      throw new ApiError(404, 'NotFound', `schemaDefinition ${ id } not found`, undefined, { code: 'NotFound', message: `schemaDefinition ${ id } not found` });
    }

    return sendJson(ctx, 200, schemaDefinition(type, ctx.base));
  }

  private publicSettings(ctx: RequestContext, id: string | undefined): void {
    const type = this.emulator.types.require('management.cattle.io.setting');
    const anonymous = ANONYMOUS_ACTOR;
    const items = this.emulator.api.list(type).items.filter((s) => PUBLIC_SETTINGS.has(s.metadata.name));

    if (id) {
      const found = items.find((s) => s.metadata.name === id);

      if (!found) {
        throw unauthorized();
      }

      return sendJson(ctx, 200, toSteve(type, found, ctx.base, anonymous));
    }

    return sendJson(ctx, 200, this.collection(ctx, type.id, items.map((s) => toSteve(type, s, ctx.base, anonymous)), false));
  }

  /** The `count` object (steve/counts.ts), of every type or of those given. */
  counts(base: string, types?: string[]): JsonObject {
    const counts: JsonObject = {};

    for (const type of this.emulator.types.served()) {
      if (!types || types.includes(type.id)) {
        counts[type.id] = itemCount(this.emulator.store.list(type.id));
      }
    }

    return {
      id: 'count', type: 'count', links: { self: `${ base }/v1/counts/count` }, counts
    };
  }

  private userPreferences(ctx: RequestContext, user: User, id: string | undefined): void {
    const present = () => ({
      id:       user.id,
      type:     'userpreference',
      links:    { self: `${ ctx.base }/v1/userpreferences/${ user.id }`, update: `${ ctx.base }/v1/userpreferences/${ user.id }` },
      metadata: { name: user.id },
      data:     { ...(this.emulator.preferences.get(user.id) ?? {}) },
    });

    if (ctx.method === 'GET') {
      return sendJson(ctx, 200, id ? present() : this.collection(ctx, 'userpreference', [present()], false));
    }
    if (ctx.method !== 'PUT' || (id && id !== user.id)) {
      throw new ApiError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { code: 'MethodNotAllow', message: 'Method not allowed' });
    }
    const data = asObject(asObject(jsonBody(ctx)).data);

    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'string') {
        throw badRequest(`json: cannot unmarshal ${ Array.isArray(value) ? 'array' : typeof value } into Go struct field UserPreference.data of type string (key ${ key })`);
      }
    }
    this.emulator.preferences.set(user.id, data);

    return sendJson(ctx, 200, present());
  }

  private collection(ctx: RequestContext, resourceType: string, data: unknown[], canCreate: boolean, extra: JsonObject = {}): JsonObject {
    const out: JsonObject = {
      type:        'collection',
      links:       { self: `${ ctx.base }${ ctx.path }` },
      createTypes: canCreate ? { [resourceType]: `${ ctx.base }/v1/${ resourceType }s` } : {},
      actions:     {},
      resourceType,
      revision:    this.emulator.store.listRevision(this.emulator.types.fromSteveName(resourceType)?.id, !!this.emulator.config.sqlCache),
      count:       data.length,
      ...extra,
      data,
    };

    if (!canCreate) {
      delete out.createTypes;
    }

    return out;
  }

  private resource(ctx: RequestContext, type: ResourceType, actor: Actor, rest: string[]): void {
    const api = this.emulator.api;
    const namespace = type.namespaced ? rest[0] : undefined;
    const name = type.namespaced ? rest[1] : rest[0];
    const isCollection = !name;

    switch (ctx.method) {
    case 'GET':
      if (isCollection) {
        return this.list(ctx, type, actor, namespace);
      }
      api.authorize(actor, 'get', type, name, namespace);

      return sendJson(ctx, 200, this.present(ctx, type, api.get(type, namespace, name), actor));
    case 'POST': {
      if (!isCollection) {
        throw new ApiError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { code: 'MethodNotAllow', message: 'Method not allowed' });
      }
      this.steveAccess(actor, 'create', type, 'POST');
      const created = api.create(type, namespace, fromSteve(jsonBody(ctx)), actor);

      return sendJson(ctx, 201, this.present(ctx, type, created, actor));
    }
    case 'PUT':
      this.steveAccess(actor, 'update', type, 'PUT');

      return sendJson(ctx, 200, this.present(ctx, type, api.update(type, namespace, name, fromSteve(jsonBody(ctx)), actor), actor));
    case 'PATCH':
      this.steveAccess(actor, 'patch', type, 'PATCH');

      return sendJson(ctx, 200, this.present(ctx, type, api.patch(type, namespace, name, jsonBody(ctx), patchTypeOf(ctx.req.headers['content-type']), actor), actor));
    case 'DELETE': {
      this.steveAccess(actor, 'delete', type, 'DELETE');
      const deleted = api.delete(type, namespace, name, actor);

      // Steve looks the object up after deleting it (rancher/steve pkg/stores/sqlproxy/proxy_store.go
      // Delete): one a finalizer keeps (Terminating) is answered 200 with it; one gone, 204 and no body.
      if (deleted.metadata.deletionTimestamp) {
        return sendJson(ctx, 200, this.present(ctx, type, deleted, actor));
      }
      ctx.res.statusCode = 204;
      ctx.res.end();

      return;
    }
    default:
      throw new ApiError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { code: 'MethodNotAllow', message: 'Method not allowed' });
    }
  }

  /**
   * Steve refuses a method the user's schema lacks (factory.go: PUT and PATCH come from `update`
   * in any namespace) with "Method PUT not supported" (rancher/apiserver pkg/parse/validate.go);
   * a method the schema has goes on to Kubernetes, whose RBAC decides per namespace (objects.ts).
   */
  private steveAccess(actor: Actor, verb: 'create' | 'update' | 'patch' | 'delete', type: ResourceType, method: string): void {
    if (!canAnywhere(actor, verb === 'patch' ? 'update' : verb, type.id, type.namespaced)) {
      throw methodNotSupported(method);
    }
  }

  private presentOptions(ctx: RequestContext): PresentOptions {
    const asked = ctx.url.searchParams.get('checkPermissions');
    const ownedBy = (uid: string) => this.emulator.store.sharedOwnedBy(uid);

    if (!asked) {
      return { ownedBy };
    }

    return {
      ownedBy,
      checkPermissions: asked.split(',').map((name) => this.emulator.types.fromSteveName(name.trim()))
        .filter((t): t is ResourceType => !!t)
    };
  }

  private present(ctx: RequestContext, type: ResourceType, object: KubeObject, actor: Actor): JsonObject {
    const excluded = ctx.url.searchParams.getAll('exclude');

    return excludeFields(toSteve(type, object, ctx.base, actor, this.presentOptions(ctx)), excluded);
  }

  private list(ctx: RequestContext, type: ResourceType, actor: Actor, namespace: string | undefined): void {
    const params = ctx.url.searchParams;

    this.emulator.api.authorize(actor, 'list', type, '', namespace);
    // A label equality in `filter=` narrows what the index reads; the filter itself still decides.
    const options: ListOptions = {
      namespace, labelSelector: [...parseLabelSelector(params.get('labelSelector')), ...labelEqualityFilters(params)], names: nameLookup(params)
    };
    const fieldSelector = params.get('fieldSelector');

    if (fieldSelector) {
      options.fieldSelector = Object.fromEntries(fieldSelector.split(',').map((p) => p.split('=') as [string, string]));
    }
    const matches = filterPredicate(params);
    const inNamespaces = namespacePredicate(params.get('projectsornamespaces'), this.emulator.store.list('namespace'));
    // Filtered and sorted on views of the stored objects (made only when a filter or sort reads
    // them); only the answered page is copied and formatted.
    const viewed = params.has('filter') || params.has('sort');
    const views = this.emulator.api.listShared(type, options).items
      .filter((o) => !inNamespaces || inNamespaces(o))
      .map((o) => ({ object: o, view: viewed ? steveView(type, o) : undefined }))
      .filter(({ view }) => !viewed || matches(view));
    let items = sortObjects(views, params.get('sort'), ({ view }) => view);
    const total = items.length;
    const extra: JsonObject = {};
    let summarised = items;
    const pageSize = Number(params.get('pagesize') ?? 0);
    const limit = Number(params.get('limit') ?? 0);

    if (pageSize > 0) {
      const page = Math.max(1, Number(params.get('page') ?? 1));

      items = items.slice((page - 1) * pageSize, page * pageSize);
      summarised = items;
      // Only Steve's store without the SQL cache counts pages (rancher/steve pkg/stores/partition/store.go
      // sets result.Pages); the SQL cache's never does, and the shell divides count by the page size.
      if (!this.emulator.config.sqlCache) {
        extra.pages = Math.max(1, Math.ceil(total / pageSize));
      }
    } else if (limit > 0) {
      const start = Number(params.get('continue') ?? 0) || 0;

      if (start + limit < total) {
        const next = new URL(ctx.url.toString());

        next.searchParams.set('continue', String(start + limit));
        extra.continue = String(start + limit);
        extra.pagination = { partial: true, next: `${ ctx.base }${ next.pathname }${ next.search }` };
      }
      items = items.slice(start, start + limit);
    }
    const summary = this.emulator.config.sqlCache ? listSummary(params, summarised.map(({ object }) => object), parseRancherVersion(this.emulator.config.serverVersion ?? RANCHER_VERSION).steveSummary) : undefined;

    if (summary) {
      extra.summary = summary.summary;
      items = summary.summaryOnly ? [] : items;
    }
    const excluded = params.getAll('exclude');
    const presentOptions = this.presentOptions(ctx);
    const page = items.map(({ object }) => excludeFields(toSteve(type, object, ctx.base, actor, presentOptions), excluded));
    const body = this.collection(ctx, type.id, page, canAnywhere(actor, 'create', type.id, type.namespaced), extra);

    // rancher/apiserver pkg/types/types.go: `count,omitempty` (an empty list has none).
    if (total > 0) {
      body.count = total;
    } else {
      delete body.count;
    }
    sendJson(ctx, 200, body);
  }
}

export function isVirtualType(name: string): boolean {
  return VIRTUAL_TYPES.includes(name) || VIRTUAL_TYPES.includes(name.replace(/s$/, ''));
}
