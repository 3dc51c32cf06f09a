// The management cluster's Kubernetes API as Rancher exposes it at /api and /apis: Kubernetes
// objects, lists and `Status` errors (409 Conflict, 403 Forbidden, 422 Invalid with causes…).
// Sources: kubernetes/apiserver pkg/endpoints/handlers/get.go, create.go, update.go, delete.go
// (list metadata.resourceVersion), kubernetes/apimachinery pkg/api/errors/errors.go (the Status
// bodies), and rancher/rancher pkg/multiclustermanager/routes.go (the management cluster's API
// served as is at /api and /apis).

import { Emulator } from '../core/emulator';
import { ApiError, badRequest, unauthorized } from './errors';
import { RequestContext, jsonBody, sendJson } from '../core/http';
import { parseLabelSelector } from './labels';
import { ListOptions } from './objects';
import { apiVersionOf } from './resource-types';
import { asObject, asString } from '../core/json';
import { checkCsrf } from '../rancher/sessions';
import { patchTypeOf } from '../steve/steve';
import { User, userActor } from '../rancher/users';

interface KubeRoute {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

function parseRoute(path: string): KubeRoute | undefined {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];

  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  if (group === '' && rest[0] === 'namespaces' && rest.length <= 3) {
    return {
      group, version, plural: 'namespaces', name: rest[1], subresource: rest[2]
    };
  }
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    return {
      group, version, namespace: rest[1], plural: rest[2], name: rest[3], subresource: rest[4]
    };
  }

  return {
    group, version, plural: rest[0], name: rest[1], subresource: rest[2]
  };
}

/**
 * A DELETE's propagationPolicy, from its DeleteOptions body or its query (k8s.io/apiserver
 * pkg/endpoints/handlers/delete.go reads both); Foreground or, by default, Background.
 */
function propagationOf(ctx: RequestContext): 'Foreground' | 'Background' {
  let policy = ctx.url.searchParams.get('propagationPolicy');

  try {
    policy = asString(asObject(jsonBody(ctx)).propagationPolicy) ?? policy;
  } catch {
    // No body, or not JSON: the query's, or the default.
  }

  return policy === 'Foreground' ? 'Foreground' : 'Background';
}

export class KubeApi {
  constructor(private readonly emulator: Emulator) {}

  async handle(ctx: RequestContext, user: User | undefined): Promise<void> {
    try {
      checkCsrf(ctx);
      if (!user) {
        throw unauthorized();
      }
      this.route(ctx, user);
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(500, 'InternalError', e instanceof Error ? e.message : String(e));

      sendJson(ctx, error.status, error.toStatus());
    }
  }

  private route(ctx: RequestContext, user: User): void {
    const route = parseRoute(ctx.path);
    const type = route && this.emulator.types.fromKubePath(route.group, route.version, route.plural);

    if (!route || !type || (route.subresource && route.subresource !== 'status')) {
      throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    }
    const api = this.emulator.api;
    const actor = userActor(user);
    const subresource = route.subresource === 'status' ? 'status' : undefined;
    const { namespace, name } = route;

    switch (ctx.method) {
    case 'GET': {
      if (name) {
        api.authorize(actor, 'get', type, name, namespace);

        return sendJson(ctx, 200, api.get(type, namespace, name));
      }
      if (ctx.url.searchParams.get('watch')) {
        throw badRequest('watch over HTTP is not emulated: use the /v1/subscribe websocket');
      }
      api.authorize(actor, 'list', type, '', namespace);
      const options: ListOptions = { namespace, labelSelector: parseLabelSelector(ctx.url.searchParams.get('labelSelector')) };
      const fieldSelector = ctx.url.searchParams.get('fieldSelector');

      if (fieldSelector) {
        options.fieldSelector = Object.fromEntries(fieldSelector.split(',').map((p) => p.split('=') as [string, string]));
      }
      const { items, revision } = api.list(type, options);

      return sendJson(ctx, 200, {
        apiVersion: apiVersionOf(type), kind: `${ type.kind }List`, metadata: { resourceVersion: String(revision) }, items
      });
    }
    case 'POST':
      if (name) {
        throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
      }

      return sendJson(ctx, 201, api.create(type, namespace, jsonBody(ctx), actor));
    case 'PUT':
      return sendJson(ctx, 200, api.update(type, namespace, name ?? '', jsonBody(ctx), actor, subresource));
    case 'PATCH':
      return sendJson(ctx, 200, api.patch(type, namespace, name ?? '', jsonBody(ctx), patchTypeOf(ctx.req.headers['content-type']), actor, subresource));
    case 'DELETE':
      return sendJson(ctx, 200, api.delete(type, namespace, name ?? '', actor, propagationOf(ctx)));
    default:
      throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    }
  }
}
