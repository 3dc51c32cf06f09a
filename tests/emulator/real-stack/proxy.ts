// Passes a browser's Steve and Kubernetes requests to the real stack as Rancher does: its own Steve
// runs in-process and reaches the API server as the logged-in user (rancher/steve
// pkg/client/factory.go, the impersonating client; pkg/proxy/proxy.go ImpersonatingHandler sets
// Impersonate-User and Impersonate-Group for the downstream clusters' /k8s/clusters/<id>, and
// rancher/rancher pkg/api/steve/proxy/proxy.go RewriteLocalCluster strips /k8s/clusters/local). Here
// the real Steve runs with --enable-header-auth and is given the user in those headers; the API
// server is reached with the stack's admin token impersonating the user. Links in Steve's answers
// point back at the emulator through X-API-Host, X-Forwarded-Proto and X-API-URL-Prefix (rancher/apiserver
// pkg/urlbuilder/url.go).

import http from 'http';
import { RequestContext, sendJson } from '../core/http';
import { JsonObject, asObject } from '../core/json';
import { User } from '../rancher/users';
import { RealStackEndpoints } from './endpoints';
import { Answer, requestOnce } from './https-client';
import { isRealSteveType } from './routing';

/** Headers a proxy never passes on (RFC 9110 §7.6.1), and the browser's own credentials. */
const DROPPED_REQUEST = ['host', 'accept-encoding', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'cookie', 'authorization', 'content-length', 'origin', 'referer'];
const DROPPED_ANSWER = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'set-cookie', 'strict-transport-security'];

/** The user as real Steve's header auth and the API server's impersonation take it. */
export function impersonation(user: User): Record<string, string> {
  return { 'impersonate-user': user.id, 'impersonate-group': 'system:authenticated' };
}

function passedHeaders(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};

  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !DROPPED_REQUEST.includes(name) && !name.startsWith(':') && !name.startsWith('impersonate-')) {
      out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }

  return out;
}

/** The headers that make Steve's links point at the emulator (rancher/apiserver pkg/urlbuilder/url.go). */
export function linkHeaders(ctx: RequestContext, prefix = ''): Record<string, string> {
  const base = new URL(ctx.base);
  const out: Record<string, string> = { 'x-api-host': base.host, 'x-forwarded-proto': base.protocol.replace(':', '') };

  if (prefix) {
    out['x-api-url-prefix'] = prefix;
  }

  return out;
}

function sendAnswer(ctx: RequestContext, answer: Answer): void {
  ctx.res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !DROPPED_ANSWER.includes(name)) {
      ctx.res.setHeader(name, value);
    }
  }
  ctx.res.setHeader('content-length', answer.body.length);
  ctx.res.end(answer.body);
}

function parsed(answer: Answer): JsonObject | undefined {
  try {
    return asObject(JSON.parse(answer.body.toString('utf8')));
  } catch {
    return undefined;
  }
}

/** What the emulator answers (its JSON), captured instead of sent, for a merge. */
export async function capture(ctx: RequestContext, handle: (ctx: RequestContext) => Promise<void>): Promise<{ status: number; body: JsonObject }> {
  let status = 200;
  let text = '';
  const res = {
    headersSent: false,
    set statusCode(value: number) {
      status = value;
    },
    get statusCode() {
      return status;
    },
    setHeader: () => res,
    getHeader: () => undefined,
    end:       (chunk?: string | Buffer) => {
      text = chunk ? chunk.toString() : '';
    },
  };

  await handle({ ...ctx, res: res as unknown as http.ServerResponse });

  return { status, body: text ? asObject(JSON.parse(text)) : {} };
}

/**
 * The schema collection both answer: the emulator's schemas of the types it keeps, real Steve's of
 * the types the stack serves (their methods from the user's real RBAC).
 */
export function mergeSchemas(emulated: JsonObject, real: JsonObject): JsonObject {
  const own = (Array.isArray(emulated.data) ? emulated.data : []).filter((s) => !isRealSteveType(String(asObject(s).id)));
  const theirs = (Array.isArray(real.data) ? real.data : []).filter((s) => isRealSteveType(String(asObject(s).id)));
  const data = [...own, ...theirs].sort((a, b) => String(asObject(a).id).localeCompare(String(asObject(b).id)));

  return { ...emulated, data };
}

/** The `count` object: the emulator's counts of its types, real Steve's of the stack's. */
export function mergeCounts(emulated: JsonObject, real: JsonObject): JsonObject {
  const countOf = (body: JsonObject) => asObject(Array.isArray(body.data) ? body.data[0] : body);
  const merge = (mine: JsonObject, theirs: JsonObject): JsonObject => {
    const counts: JsonObject = {};

    for (const [id, value] of Object.entries(asObject(mine.counts))) {
      if (!isRealSteveType(id)) {
        counts[id] = value;
      }
    }
    for (const [id, value] of Object.entries(asObject(theirs.counts))) {
      if (isRealSteveType(id)) {
        counts[id] = value;
      }
    }

    return { ...mine, counts };
  };

  if (Array.isArray(emulated.data)) {
    return { ...emulated, data: [merge(countOf(emulated), countOf(real))] };
  }

  return merge(emulated, countOf(real));
}

export class RealStackProxy {
  constructor(readonly endpoints: RealStackEndpoints) {}

  /** A /v1 request (path without any /k8s/clusters/<id> prefix) to real Steve, as `user`. */
  steveAnswer(ctx: RequestContext, user: User, path: string, prefix = ''): Promise<Answer> {
    return requestOnce(`${ this.endpoints.steve }${ path }${ ctx.url.search }`, ctx.method, {
      ...passedHeaders(ctx.req), ...linkHeaders(ctx, prefix), ...impersonation(user)
    }, ctx.body);
  }

  async steve(ctx: RequestContext, user: User, path = ctx.path, prefix = ''): Promise<void> {
    sendAnswer(ctx, await this.steveAnswer(ctx, user, path, prefix));
  }

  /** /api and /apis to the API server, with the admin token impersonating `user`. */
  async kube(ctx: RequestContext, user: User, path = ctx.path): Promise<void> {
    sendAnswer(ctx, await requestOnce(`${ this.endpoints.kubeApi }${ path }${ ctx.url.search }`, ctx.method, {
      ...passedHeaders(ctx.req), authorization: `Bearer ${ this.endpoints.adminToken }`, ...impersonation(user)
    }, ctx.body));
  }

  /** /v1/schemas or /v1/counts: the emulator's answer merged with real Steve's. */
  async merged(ctx: RequestContext, user: User, emulated: { status: number; body: JsonObject }, path = ctx.path, prefix = ''): Promise<void> {
    const real = await this.steveAnswer(ctx, user, path, prefix);
    const realBody = parsed(real);

    if (emulated.status !== 200 || real.status !== 200 || !realBody) {
      sendJson(ctx, emulated.status, emulated.body);

      return;
    }
    const isSchemas = path.split('/')[2] === 'schemas';

    sendJson(ctx, 200, isSchemas ? mergeSchemas(emulated.body, realBody) : mergeCounts(emulated.body, realBody));
  }
}
