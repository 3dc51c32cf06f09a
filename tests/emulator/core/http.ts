// HTTP helpers; error bodies follow rancher/apiserver pkg/apierror and Kubernetes metav1.Status.
import { IncomingMessage, ServerResponse } from 'http';
import { ApiError } from '../kube/errors';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  path: string;
  cookies: Record<string, string>;
  /** The origin the browser sees (`x-api-host`/`x-forwarded-proto` behind the dev proxy), for links. */
  base: string;
  secure: boolean;
  body?: Buffer;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};

  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');

    if (index > 0) {
      out[part.slice(0, index).trim()] = decodeURIComponent(part.slice(index + 1).trim());
    }
  }

  return out;
}

export function contextOf(req: IncomingMessage, res: ServerResponse): RequestContext {
  const forwardedProto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim();
  // HTTP/2 requests (https.ts) name the host in :authority.
  const host = String(req.headers['x-api-host'] ?? req.headers.host ?? req.headers[':authority'] ?? 'localhost');
  const secure = forwardedProto ? forwardedProto === 'https' : (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const base = `${ secure ? 'https' : 'http' }://${ host }`;
  const url = new URL(req.url ?? '/', base);

  return {
    req, res, method: (req.method ?? 'GET').toUpperCase(), url, path: url.pathname, cookies: parseCookies(req.headers.cookie), base, secure
  };
}

export function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;

    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new ApiError(413, 'BadRequest', 'request entity too large'));
        req.destroy();

        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The request body as JSON; a body that does not parse is a 400 as the API server answers it. */
export function jsonBody(ctx: RequestContext): unknown {
  const text = ctx.body?.toString('utf8') ?? '';

  if (!text.trim()) {
    return {};
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, 'BadRequest', `json: ${ e instanceof Error ? e.message : String(e) }`);
  }
}

export function appendHeader(ctx: RequestContext, name: string, value: string): void {
  const existing = ctx.res.getHeader(name);

  if (existing === undefined) {
    ctx.res.setHeader(name, value);
  } else {
    ctx.res.setHeader(name, [...(Array.isArray(existing) ? existing : [String(existing)]), value]);
  }
}

export function sendJson(ctx: RequestContext, status: number, body: unknown): void {
  const text = JSON.stringify(body);

  ctx.res.statusCode = status;
  ctx.res.setHeader('Content-Type', 'application/json');
  ctx.res.setHeader('Content-Length', Buffer.byteLength(text));
  ctx.res.end(text);
}

export function sendText(ctx: RequestContext, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  ctx.res.statusCode = status;
  ctx.res.setHeader('Content-Type', contentType);
  ctx.res.setHeader('Content-Length', Buffer.byteLength(text));
  ctx.res.end(text);
}

/** Go's http.NotFound, what Rancher answers on unknown paths. */
export function sendNotFound(ctx: RequestContext): void {
  sendText(ctx, 404, '404 page not found\n');
}

export function cookieHeader(name: string, value: string, options: { secure: boolean; httpOnly?: boolean; maxAge?: number; sameSite?: string }): string {
  const parts = [`${ name }=${ value }`, 'Path=/'];

  if (options.httpOnly) {
    parts.push('HttpOnly');
  }
  if (options.secure) {
    parts.push('Secure');
  }
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${ options.maxAge }`);
  }
  parts.push(`SameSite=${ options.sameSite ?? 'Lax' }`);

  return parts.join('; ');
}
