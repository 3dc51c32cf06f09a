// API calls made with the logged-in browser session (its cookies and CSRF token), as the dashboard
// makes them: Steve at /v1, the Kubernetes API at /apis.

import { Page } from '@playwright/test';

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export type Body = Record<string, unknown> | unknown[];

/**
 * The worker's browser context keeps its connections between tests (support/test.ts): one the
 * server closed while idle resets before the request is read, so the request is sent once more.
 */
function onceMoreAfterReset<T>(send: () => Promise<T>): Promise<T> {
  return send().catch((error: Error) => {
    if (!/ECONNRESET/.test(error.message)) {
      throw error;
    }

    return send();
  });
}

export class SessionApi {
  constructor(private readonly page: Page) {}

  private async csrf(): Promise<string | undefined> {
    const find = async() => (await this.page.context().cookies()).find((c) => c.name === 'CSRF')?.value;

    if (!await find()) {
      await onceMoreAfterReset(() => this.page.request.get('/v1/schemas/schema'));
    }

    return find();
  }

  async call(method: string, path: string, body?: Body, contentType = 'application/json'): Promise<ApiResponse> {
    const csrf = await this.csrf();
    const send = () => this.page.request.fetch(path, {
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
  return new SessionApi(page);
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
