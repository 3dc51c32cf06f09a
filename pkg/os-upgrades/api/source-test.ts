// "Test" on the sources page: fetch one file from a URL an administrator typed and say what came back.
import axios, { AxiosInstance } from 'axios';
import {
  classifySourceAnswer, parsePackageList, parseUpdateLog, SourceKind, SourceTestOutcome, sourceTestOutcome
} from '../domain';
import { redirectRefusal, trustUrl } from './changelog-url';
import { readPackageTar } from './package-tar';

export type TestedFile = 'log' | 'packages' | 'tar';

export interface SourceTest {
  outcome: SourceTestOutcome;
  url: string;
  /** HTTP status when an answer came; the origin when the policy blocked it. */
  status?: number;
  origin?: string;
  /** For a tar: how many package lists it holds. */
  count?: number;
}

const TIMEOUT_MS = 15000;

function parses(file: TestedFile, text: string): boolean {
  try {
    if (file === 'log') {
      parseUpdateLog(text);
    } else {
      parsePackageList(text);
    }

    return true;
  } catch {
    return false;
  }
}

/**
 * Tests one URL (absolute, or relative to the server) under the same origin policy as the pages:
 * blocked when its origin is neither the server's nor allowed; `cors` when the browser refused to
 * let the page read a foreign answer.
 */
export async function testSource(file: TestedFile, rawUrl: string, serverOrigin: string, allowedOrigins: readonly string[], http: AxiosInstance = axios.create(), fetchImpl?: typeof fetch): Promise<SourceTest> {
  let url: string;

  try {
    url = new URL(rawUrl, `${ serverOrigin }/`).href;
  } catch {
    return {
      outcome: 'blocked', url: rawUrl, origin: ''
    };
  }
  const verdict = trustUrl(url, serverOrigin, allowedOrigins);

  if (!verdict.trusted) {
    return {
      outcome: 'blocked', url, origin: verdict.origin
    };
  }
  const source: SourceKind = file === 'tar' ? 'tar' : 'channel';

  if (file === 'tar') {
    const doFetch = fetchImpl ?? fetch.bind(globalThis);

    try {
      const response = await doFetch(url, { credentials: verdict.sameOrigin ? 'same-origin' : 'omit' });
      const contentType = response.headers.get('content-type') ?? '';
      const redirected = redirectRefusal(url, response.url, serverOrigin, allowedOrigins);

      if (redirected) {
        return {
          outcome: 'blocked', url: response.url, origin: redirected.origin
        };
      }

      if (!response.ok || /^\s*text\/html\b/i.test(contentType) || !response.body) {
        const answer = classifySourceAnswer({
          status: response.status, contentType, body: (await response.text()).slice(0, 512)
        }, source);

        return {
          outcome: sourceTestOutcome(answer, false), url, status: response.status
        };
      }
      const read = await readPackageTar(response.body);
      const count = read.state === 'ok' ? read.files.size : 0;

      return {
        outcome: count > 0 ? 'found' : 'notAChangelog', url, status: response.status, count
      };
    } catch {
      return { outcome: verdict.sameOrigin ? 'failed' : 'cors', url };
    }
  }
  try {
    // Never "include": same-origin requests carry the session cookie anyway, a redirect elsewhere none.
    const response = await http.get(url, {
      timeout: TIMEOUT_MS, withCredentials: false, responseType: 'text', transformResponse: [(data: unknown) => data], validateStatus: () => true
    });
    const finalUrl = String((response.request as { responseURL?: unknown } | undefined)?.responseURL ?? '');
    const redirected = redirectRefusal(url, finalUrl, serverOrigin, allowedOrigins);

    if (redirected) {
      return {
        outcome: 'blocked', url: finalUrl, origin: redirected.origin
      };
    }
    const text = typeof response.data === 'string' ? response.data : '';
    const answer = classifySourceAnswer({
      status: response.status, contentType: String(response.headers?.['content-type'] ?? ''), body: text.slice(0, 512)
    }, source);

    return {
      outcome: sourceTestOutcome(answer, answer.kind === 'file' && parses(file, text)), url, status: response.status
    };
  } catch {
    // A cross-origin answer without CORS headers reaches the page as a bare network error.
    return { outcome: verdict.sameOrigin ? 'failed' : 'cors', url };
  }
}
