// API calls made with a logged-in session (its cookies and CSRF token), as the dashboard makes
// them: Steve at /v1, the Kubernetes API at /apis. The session is a page's (sessionApi) or a
// request context's of its own (requestApi, used by support/seed.ts).

import { APIRequestContext, Page } from '@playwright/test';

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export type Body = Record<string, unknown> | unknown[];

/**
 * The worker's browser context keeps its connections between tests (support/test.ts): one the
 * server closed while idle resets before the request is read, so the request is sent once more.
 */
export function onceMoreAfterReset<T>(send: () => Promise<T>): Promise<T> {
  return send().catch((error: Error) => {
    if (!/ECONNRESET/.test(error.message)) {
      throw error;
    }

    return send();
  });
}

type Cookies = () => Promise<{ name: string; value: string }[]>;

export class SessionApi {
  constructor(private readonly request: APIRequestContext, private readonly cookies: Cookies) {}

  private async csrf(): Promise<string | undefined> {
    const find = async() => (await this.cookies()).find((c) => c.name === 'CSRF')?.value;

    if (!await find()) {
      await onceMoreAfterReset(() => this.request.get('/v1/schemas/schema'));
    }

    return find();
  }

  async call(method: string, path: string, body?: Body, contentType = 'application/json'): Promise<ApiResponse> {
    const csrf = await this.csrf();
    const send = () => this.request.fetch(path, {
      method,
      data:    body === undefined ? undefined : JSON.stringify(body),
      headers: {
        accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }), ...(csrf ? { 'x-api-csrf': csrf } : {})
      },
      failOnStatusCode: false,
    });
    const response = await onceMoreAfterReset(send);
    const text = await response.text();
    let parsed: unknown = {};

    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { text };
    }

    return { status: response.status(), body: (typeof parsed === 'object' && parsed !== null ? parsed : { value: parsed }) as Record<string, unknown> };
  }

  get(path: string): Promise<ApiResponse> {
    return this.call('GET', path);
  }

  post(path: string, body: Body): Promise<ApiResponse> {
    return this.call('POST', path, body);
  }

  put(path: string, body: Body): Promise<ApiResponse> {
    return this.call('PUT', path, body);
  }

  patch(path: string, body: Body, contentType = 'application/merge-patch+json'): Promise<ApiResponse> {
    return this.call('PATCH', path, body, contentType);
  }

  delete(path: string): Promise<ApiResponse> {
    return this.call('DELETE', path);
  }
}

/** `sessionApi(page).put('/v1/…', object)` with the page's logged-in session. */
export function sessionApi(page: Page): SessionApi {
  return new SessionApi(page.request, () => page.context().cookies());
}

/** The same calls with a request context's own session (log it in with loginRequest). */
export function requestApi(request: APIRequestContext): SessionApi {
  return new SessionApi(request, async() => (await request.storageState()).cookies);
}

/** Steve's collection URL of a type, e.g. steveUrl('elemental.cattle.io.managedosimage', 'fleet-default', 'x'). */
export function steveUrl(type: string, namespace?: string, name?: string): string {
  return `/v1/${ type }s${ namespace ? `/${ namespace }` : '' }${ name ? `/${ name }` : '' }`;
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}

export function field(object: unknown, path: string): unknown {
  let current = object;

  for (const part of path.split('.')) {
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[part] : undefined;
  }

  return current;
}
