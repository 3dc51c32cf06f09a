// An axios adapter that answers from a table, in place of the changelog client's XMLHttpRequest adapter.
import axios, { AxiosAdapter, AxiosError, AxiosResponse, InternalAxiosRequestConfig } from 'axios';

export type Reply =
  | { status: number; body?: string; redirectedTo?: string }
  | { hang: true }
  | { progress: number[]; status: number; body?: string }
  | { fail: 'network' | 'timeout' };

export interface FakeHttp {
  adapter: AxiosAdapter;
  requests: InternalAxiosRequestConfig[];
  /** Requests started and not yet settled. */
  pending(): number;
  /** Settles every hung request for `url` with the reply. */
  release(url: string, reply: { status: number; body?: string }): void;
}

export function fakeHttp(routes: Record<string, Reply>): FakeHttp {
  const requests: InternalAxiosRequestConfig[] = [];
  const hung: Array<{ url: string; settle: (reply: { status: number; body?: string }) => void }> = [];
  let pending = 0;

  // `request.responseURL` is where the browser's XHR ended after following redirects.
  const respond = (config: InternalAxiosRequestConfig, status: number, body = '', redirectedTo?: string): AxiosResponse => ({
    data: body, status, statusText: String(status), headers: {}, config, request: { responseURL: redirectedTo ?? config.url }
  });

  const adapter: AxiosAdapter = (config) => {
    requests.push(config);
    pending++;
    const reply = routes[config.url ?? ''] ?? { status: 404 };

    return new Promise<AxiosResponse>((resolve, reject) => {
      const done = () => {
        pending--;
      };

      config.signal?.addEventListener?.('abort', () => {
        done();
        reject(new axios.CanceledError(undefined, undefined, config));
      });
      if ('hang' in reply) {
        hung.push({
          url:    config.url ?? '',
          settle: (r) => {
            done();
            resolve(respond(config, r.status, r.body));
          }
        });
      } else if ('fail' in reply) {
        done();
        reject(new AxiosError('failed', reply.fail === 'timeout' ? 'ECONNABORTED' : 'ERR_NETWORK', config));
      } else {
        if ('progress' in reply) {
          for (const loaded of reply.progress) {
            config.onDownloadProgress?.({
              loaded, bytes: loaded, lengthComputable: false
            });
            if (config.signal && (config.signal as AbortSignal).aborted) {
              return;
            }
          }
        }
        done();
        resolve(respond(config, reply.status, reply.body, 'redirectedTo' in reply ? reply.redirectedTo : undefined));
      }
    });
  };

  return {
    adapter,
    requests,
    pending: () => pending,
    release(url, reply) {
      for (const item of hung.filter((h) => h.url === url)) {
        hung.splice(hung.indexOf(item), 1);
        item.settle(reply);
      }
    },
  };
}
