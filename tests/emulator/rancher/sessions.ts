// Login sessions as Rancher keeps them: a token `token-xxxxx:<secret>` in the R_SESS cookie (or an
// `Authorization: Bearer` header), a CSRF cookie checked on browser writes, logout, expiry.
// Sources: rancher pkg/auth/providers/publicapi login.go (the R_SESS cookie: `<token name>:<key>`,
// HttpOnly, Secure, Path /), pkg/auth/tokens (token names `token-` and 5 characters, the key),
// rancher/apiserver pkg/parse browser.go IsBrowser (a user agent with "mozilla" is a browser) and
// its CSRF check (the `CSRF` cookie echoed in `X-Api-Csrf`, as @rancher/shell plugins/axios.js sends it).

import { randomBytes } from 'crypto';
import { ApiError, unauthorized } from '../kube/errors';
import { RequestContext, appendHeader, cookieHeader } from '../core/http';
import { User, userById } from './users';

export const SESSION_COOKIE = 'R_SESS';
export const CSRF_COOKIE = 'CSRF';

export interface Session {
  token: string;
  secret: string;
  userId: string;
  createdAt: string;
  expired: boolean;
}

function randomToken(length: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

export type Resolved = { session: Session; user: User } | { session?: undefined; user?: undefined; expired: boolean };

export class Sessions {
  private readonly byToken = new Map<string, Session>();

  create(user: User): Session {
    const session: Session = {
      token:     `token-${ randomToken(5) }`,
      secret:    randomToken(54),
      userId:    user.id,
      createdAt: new Date().toISOString(),
      expired:   false,
    };

    this.byToken.set(session.token, session);

    return session;
  }

  cookieValue(session: Session): string {
    return `${ session.token }:${ session.secret }`;
  }

  /** The caller's session from the cookie or a bearer token. */
  resolve(ctx: Pick<RequestContext, 'cookies' | 'req'>): Resolved {
    const header = String(ctx.req.headers.authorization ?? '');
    const bearer = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
    const raw = bearer || ctx.cookies[SESSION_COOKIE] || '';
    const [token, secret] = raw.split(':');
    const session = token ? this.byToken.get(token) : undefined;

    if (!session || session.secret !== secret) {
      return { expired: false };
    }
    if (session.expired) {
      return { expired: true };
    }
    const user = userById(session.userId);

    return user ? { session, user } : { expired: false };
  }

  /** Expires every session (or those of one user): their next request answers 401. */
  expire(username?: string): number {
    let count = 0;

    for (const session of this.byToken.values()) {
      const user = userById(session.userId);

      if (!session.expired && (!username || user?.username === username)) {
        session.expired = true;
        count++;
      }
    }

    return count;
  }

  remove(token: string): void {
    this.byToken.delete(token);
  }

  count(): number {
    return [...this.byToken.values()].filter((s) => !s.expired).length;
  }

  setSessionCookie(ctx: RequestContext, session: Session): void {
    appendHeader(ctx, 'Set-Cookie', cookieHeader(SESSION_COOKIE, this.cookieValue(session), { secure: ctx.secure, httpOnly: true }));
  }

  clearSessionCookie(ctx: RequestContext): void {
    appendHeader(ctx, 'Set-Cookie', cookieHeader(SESSION_COOKIE, '', {
      secure: ctx.secure, httpOnly: true, maxAge: 0
    }));
  }
}

function isBrowser(ctx: RequestContext): boolean {
  return /mozilla/i.test(String(ctx.req.headers['user-agent'] ?? ''));
}

/**
 * Steve's CheckCSRF: a browser gets a CSRF cookie on its first API request; from then on its
 * writes must echo it in the X-Api-Csrf header.
 */
export function checkCsrf(ctx: RequestContext): void {
  if (!isBrowser(ctx)) {
    return;
  }
  const cookie = ctx.cookies[CSRF_COOKIE];

  if (!cookie) {
    appendHeader(ctx, 'Set-Cookie', cookieHeader(CSRF_COOKIE, randomBytes(16).toString('hex'), { secure: ctx.secure, sameSite: 'Strict' }));

    return;
  }
  if (ctx.method !== 'GET' && ctx.req.headers['x-api-csrf'] !== cookie && ctx.url.searchParams.get(CSRF_COOKIE) !== cookie) {
    throw new ApiError(401, 'Unauthorized', 'Invalid CSRF token', undefined, { code: 'InvalidCSRFToken', message: 'Invalid CSRF token' });
  }
}

/** The logged-in user, or a 401 (Rancher's `must authenticate`). */
export function requireUser(resolved: Resolved): { session: Session; user: User } {
  if (!resolved.session) {
    throw unauthorized();
  }

  return { session: resolved.session, user: resolved.user };
}
