// The changelog client's GET of a published file: one XMLHttpRequest, as an axios adapter (so the
// client keeps axios's errors and its tests their fake adapter). The client calls it directly, not
// through axios's request pipeline, and it does nothing a public file does not need: axios's own
// browser adapter reads `document.cookie` and parses the URL for an XSRF token on every same-origin
// request and wraps progress events in throttles. Across a compare's 499 logs the pipeline and that
// work were 0.16 s of the renderer's 1 s of CPU (docs/benchmarks.md, session 26).
import axios, {
  AxiosAdapter, AxiosError, AxiosHeaders, AxiosResponse, InternalAxiosRequestConfig
} from 'axios';

function refuse(message: string, config: InternalAxiosRequestConfig): Promise<never> {
  return Promise.reject(new AxiosError(message, AxiosError.ERR_NOT_SUPPORT, config));
}

export const fileGetAdapter: AxiosAdapter = (config) => {
  if ((config.method ?? 'get').toLowerCase() !== 'get' || config.data !== undefined || config.baseURL || config.params) {
    return refuse('fileGetAdapter: a GET of an absolute URL only', config);
  }
  const url = config.url ?? '';

  return new Promise<AxiosResponse>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const signal = config.signal as AbortSignal | undefined;
    const onAbort = () => request.abort();
    const finish = (settle: () => void) => {
      signal?.removeEventListener?.('abort', onAbort);
      settle();
    };

    if (signal?.aborted) {
      reject(new axios.CanceledError(undefined, undefined, config));

      return;
    }
    request.open('GET', url, true);
    request.timeout = config.timeout ?? 0;
    request.withCredentials = !!config.withCredentials;
    if (config.responseType === 'arraybuffer' || config.responseType === 'blob') {
      request.responseType = config.responseType;
    }
    for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON())) {
      if (value !== undefined && value !== null) {
        request.setRequestHeader(name, String(value));
      }
    }
    const onDownloadProgress = config.onDownloadProgress;

    if (onDownloadProgress) {
      request.addEventListener('progress', (event) => onDownloadProgress({
        loaded: event.loaded, total: event.lengthComputable ? event.total : undefined, bytes: event.loaded, lengthComputable: event.lengthComputable, event
      }));
    }
    request.onload = () => finish(() => {
      const response: AxiosResponse = {
        data:       !request.responseType || request.responseType === 'text' ? request.responseText : request.response,
        status:     request.status,
        statusText: request.statusText,
        headers:    AxiosHeaders.from(request.getAllResponseHeaders()),
        config,
        request,
      };

      if (!config.validateStatus || config.validateStatus(request.status)) {
        resolve(response);
      } else {
        reject(new AxiosError(`Request failed with status code ${ request.status }`, AxiosError.ERR_BAD_RESPONSE, config, request, response));
      }
    });
    request.onabort = () => finish(() => reject(new axios.CanceledError(undefined, undefined, config)));
    request.onerror = () => finish(() => reject(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, request)));
    request.ontimeout = () => finish(() => reject(new AxiosError(`timeout of ${ config.timeout }ms exceeded`, AxiosError.ECONNABORTED, config, request)));
    signal?.addEventListener?.('abort', onAbort);
    request.send();
  });
};
