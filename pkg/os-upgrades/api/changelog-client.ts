// Fetches and validates a version's changelog files (docs/architecture.md, "Changelog files"). Results, not exceptions:
// every call settles as ok / missing / error, or cancelled when the caller no longer needs it.
import axios, { AxiosInstance, AxiosProgressEvent } from 'axios';
import {
  Advisory, DomainFormatError, MAX_UPDATE_LOG_BYTES, OSVersion, Package, parsePackageList, parseUpdateLog, Reason
} from '../domain';
import { ChangelogUrls, changelogUrls, trustUrl } from './changelog-url';
import { ConcurrencyLimiter, QueueAbortedError } from './changelog-limiter';

export type FileResult<T> =
  | { state: 'ok'; value: T }
  | { state: 'missing' }
  | { state: 'error'; reason: Reason };

export type FetchOutcome<T> = FileResult<T> | { state: 'cancelled' };

export type ChangelogFile = 'log' | 'packages';

export interface ChangelogClientOptions {
  /** The Rancher server's origin (`window.location.origin` in the dashboard). */
  serverOrigin: string;
  /** Origins an administrator allowed besides the server's own. */
  allowedOrigins?: readonly string[];
  /** A bare axios instance (never the shell's, which adds credentials and CSRF headers). */
  http?: AxiosInstance;
  timeoutMs?: number;
  maxBytes?: number;
  concurrency?: number;
}

export const DEFAULT_TIMEOUT_MS = 15000;
export const DEFAULT_MAX_BYTES = MAX_UPDATE_LOG_BYTES;
// Browsers open at most 6 connections per origin over HTTP/1.1.
export const DEFAULT_CONCURRENCY = 6;

const KEY = 'osUpgrades.changelog.fetchError';

interface InFlight {
  promise: Promise<FileResult<unknown>>;
  controller: AbortController;
  waiters: number;
}

type Parser = (text: string) => unknown;

const PARSERS: Record<ChangelogFile, Parser> = {
  log:      parseUpdateLog,
  packages: parsePackageList,
};

function formatReason(file: ChangelogFile, err: DomainFormatError): Reason {
  // The package list parser's keys live under osUpgrades.packages; the UI's under osUpgrades.changelog.
  const key = file === 'log' ? err.key : `osUpgrades.changelog.packageListError.${ err.reason }`;

  return { key, values: err.values };
}

function cancelled<T>(): FetchOutcome<T> {
  return { state: 'cancelled' };
}

export class ChangelogClient {
  private readonly http: AxiosInstance;
  private readonly serverOrigin: string;
  private readonly allowedOrigins: readonly string[];
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly limiter: ConcurrencyLimiter;
  /** Settled ok and missing results by URL: a version's files never change once published. */
  private readonly cache = new Map<string, FileResult<unknown>>();
  private readonly inFlight = new Map<string, InFlight>();

  constructor(options: ChangelogClientOptions) {
    this.serverOrigin = options.serverOrigin;
    this.allowedOrigins = options.allowedOrigins ?? [];
    this.http = options.http ?? axios.create();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? DEFAULT_CONCURRENCY);
  }

  urls(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown): ChangelogUrls {
    return changelogUrls(version, channel, this.serverOrigin);
  }

  fetchLog(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, signal?: AbortSignal): Promise<FetchOutcome<Advisory[]>> {
    return this.fetchFile('log', this.urls(version, channel).log, signal) as Promise<FetchOutcome<Advisory[]>>;
  }

  fetchPackages(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, signal?: AbortSignal): Promise<FetchOutcome<Package[]>> {
    return this.fetchFile('packages', this.urls(version, channel).packages, signal) as Promise<FetchOutcome<Package[]>>;
  }

  /** One file by URL: validated, cached, shared between callers, cancelled when no caller waits. */
  fetchFile(file: ChangelogFile, url: string, signal?: AbortSignal): Promise<FetchOutcome<unknown>> {
    if (signal?.aborted) {
      return Promise.resolve(cancelled());
    }
    const verdict = trustUrl(url, this.serverOrigin, this.allowedOrigins);

    if (!verdict.trusted) {
      return Promise.resolve({ state: 'error', reason: { key: `${ KEY }.${ verdict.reason }`, values: { origin: verdict.origin } } });
    }
    const cached = this.cache.get(url);

    if (cached) {
      return Promise.resolve(cached);
    }
    const flight = this.inFlight.get(url) ?? this.start(file, url, verdict.sameOrigin);

    flight.waiters++;

    return new Promise((resolve) => {
      const onAbort = () => {
        flight.waiters--;
        if (flight.waiters === 0) {
          this.abandon(url, flight);
        }
        resolve(cancelled());
      };

      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then((result) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      });
    });
  }

  private start(file: ChangelogFile, url: string, sameOrigin: boolean): InFlight {
    const controller = new AbortController();
    const flight: InFlight = {
      controller, waiters: 0, promise: Promise.resolve({ state: 'missing' })
    };

    flight.promise = this.limiter.run(() => this.download(file, url, sameOrigin, controller), controller.signal)
      .catch((err: unknown): FileResult<unknown> => {
        if (err instanceof QueueAbortedError) {
          return { state: 'error', reason: { key: `${ KEY }.cancelled` } };
        }
        throw err;
      })
      .then((result) => {
        if (this.inFlight.get(url) === flight) {
          this.inFlight.delete(url);
        }
        if (result.state !== 'error') {
          this.cache.set(url, result);
        }

        return result;
      });
    this.inFlight.set(url, flight);

    return flight;
  }

  /** The last caller of a download went away: stop it, and let the next caller start afresh. */
  private abandon(url: string, flight: InFlight): void {
    if (this.inFlight.get(url) === flight) {
      this.inFlight.delete(url);
    }
    flight.controller.abort();
  }

  private async download(file: ChangelogFile, url: string, sameOrigin: boolean, controller: AbortController): Promise<FileResult<unknown>> {
    let tooLarge = false;
    const tooLargeResult: FileResult<unknown> = { state: 'error', reason: { key: `${ KEY }.tooLarge`, values: { limit: this.maxBytes } } };
    const onDownloadProgress = (event: AxiosProgressEvent) => {
      if (event.loaded > this.maxBytes || (event.total !== undefined && event.total > this.maxBytes)) {
        tooLarge = true;
        controller.abort();
      }
    };
    let status: number;
    let body: unknown;

    try {
      const response = await this.http.get(url, {
        signal:            controller.signal,
        timeout:           this.timeoutMs,
        withCredentials:   sameOrigin,
        responseType:      'text',
        transformResponse: [(data: unknown) => data],
        validateStatus:    () => true,
        maxContentLength:  this.maxBytes,
        onDownloadProgress,
      });

      status = response.status;
      body = response.data;
    } catch (err) {
      return tooLarge ? tooLargeResult : this.requestError(err);
    }
    if (status === 404) {
      return { state: 'missing' };
    }
    if (status < 200 || status > 299) {
      return { state: 'error', reason: { key: `${ KEY }.status`, values: { status } } };
    }
    const text = typeof body === 'string' ? body : '';

    if (tooLarge || text.length > this.maxBytes) {
      return tooLargeResult;
    }
    try {
      return { state: 'ok', value: PARSERS[file](text) };
    } catch (err) {
      if (err instanceof DomainFormatError) {
        return { state: 'error', reason: formatReason(file, err) };
      }
      throw err;
    }
  }

  private requestError(err: unknown): FileResult<unknown> {
    const code = axios.isAxiosError(err) ? err.code : undefined;

    if (axios.isCancel(err) || code === 'ERR_CANCELED') {
      return { state: 'error', reason: { key: `${ KEY }.cancelled` } };
    }
    if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
      return { state: 'error', reason: { key: `${ KEY }.timeout`, values: { seconds: Math.round(this.timeoutMs / 1000) } } };
    }
    if (code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED' || (axios.isAxiosError(err) && /maxContentLength/.test(err.message))) {
      return { state: 'error', reason: { key: `${ KEY }.tooLarge`, values: { limit: this.maxBytes } } };
    }

    return { state: 'error', reason: { key: `${ KEY }.network` } };
  }
}
