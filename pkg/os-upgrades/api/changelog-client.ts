// Fetches and validates a version's changelog files (docs/architecture.md, "Changelog files").
// Results, not exceptions: every call settles as ok / missing / noService / error, or cancelled
// when the caller no longer needs it. A source that serves no changelogs is asked once per
// session (the probe); its other files answer noService without a request.
import axios, { AxiosAdapter, AxiosHeaders, AxiosProgressEvent, AxiosResponse } from 'axios';
import {
  Advisory, classifySourceAnswer, DomainFormatError, fetchConcurrency, fileCacheKey, HTTP1_CONCURRENCY, MAX_UPDATE_LOG_BYTES, missingRecord, NoServiceReason, OSVersion, Package,
  parsePackageList, parseUpdateLog, readKeptFile, Reason, SourceKind
} from '../domain';
import { serverProtocol } from './connection-protocol';
import {
  ChangelogUrls, changelogUrls, logUrl, redirectRefusal, trustUrl
} from './changelog-url';
import { ConcurrencyLimiter, QueueAbortedError } from './changelog-limiter';
import { FileCache, NoFileCache } from './persistent-cache';
import { readPackageTar } from './package-tar';
import { fileGetAdapter } from './file-get-adapter';
import { unlessAborted, watchAbort } from './abort-watch';

export type FileResult<T> =
  | { state: 'ok'; value: T }
  | { state: 'missing' }
  | { state: 'noService'; reason: NoServiceReason; source: string }
  | { state: 'error'; reason: Reason };

export type FetchOutcome<T> = FileResult<T> | { state: 'cancelled' };

export type ChangelogFile = 'log' | 'packages';

export interface ChangelogClientOptions {
  /** The Rancher server's origin (`window.location.origin` in the dashboard). */
  serverOrigin: string;
  /** Origins an administrator allowed besides the server's own. */
  allowedOrigins?: readonly string[];
  /**
   * How a file is fetched: an axios adapter, called with the whole request (never the shell's
   * axios, which adds credentials and CSRF headers). Default: fileGetAdapter, one XMLHttpRequest.
   */
  adapter?: AxiosAdapter;
  timeoutMs?: number;
  maxBytes?: number;
  /** Default: from the connection's protocol (domain's fetchConcurrency): 6 on HTTP/1.1, more on HTTP/2. */
  concurrency?: number;
  /** Kept across sessions (IndexedDB in the browser); nothing by default. */
  cache?: FileCache;
  /** The logged-in user, so files fetched with credentials are cached per user. */
  userId?: string;
  /** For the package tars, which are streamed (axios cannot stream in a browser). */
  fetchImpl?: typeof fetch;
  /** Sources already known to serve files (the component tests' tables): not probed. */
  liveSources?: readonly string[];
  /** Milliseconds, for how long a file found missing is remembered across sessions. */
  now?: () => number;
}

export { MISSING_KEPT_MS } from '../domain';

type SourceState =
  | { state: 'probing'; done: Promise<void> }
  | { state: 'live' }
  | { state: 'none'; reason: NoServiceReason };

type TarResult = { state: 'ok'; files: Map<string, string> } | Exclude<FileResult<never>, { state: 'ok' }>;

export const DEFAULT_TIMEOUT_MS = 15000;
/** What axios sends by default: a source answers the client as it did when the client went through axios.get. */
const FILE_ACCEPT = 'application/json, text/plain, */*';

export const DEFAULT_MAX_BYTES = MAX_UPDATE_LOG_BYTES;
export const DEFAULT_CONCURRENCY = HTTP1_CONCURRENCY;

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

const TRANSIENT = new Set([`${ KEY }.network`, `${ KEY }.timeout`, `${ KEY }.cancelled`, `${ KEY }.status`]);

function isTransient(reason: Reason): boolean {
  return TRANSIENT.has(reason.key);
}

export class ChangelogClient {
  private readonly adapter: AxiosAdapter;
  private readonly serverOrigin: string;
  private readonly allowedOrigins: readonly string[];
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly limiter: ConcurrencyLimiter;
  /** Settled ok and missing results by URL: a version's files never change once published. */
  private readonly cache = new Map<string, FileResult<unknown>>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly sources = new Map<string, SourceState>();
  private readonly tars = new Map<string, Promise<TarResult>>();
  private readonly persistent: FileCache;
  private readonly userId: string;
  private readonly fetchImpl: typeof fetch | undefined;
  private readonly now: () => number;

  constructor(options: ChangelogClientOptions) {
    this.now = options.now ?? (() => Date.now());
    this.persistent = options.cache ?? new NoFileCache();
    this.userId = options.userId ?? '';
    this.fetchImpl = options.fetchImpl ?? (typeof fetch === 'function' ? fetch.bind(globalThis) : undefined);
    for (const source of options.liveSources ?? []) {
      this.sources.set(source, { state: 'live' });
    }
    this.serverOrigin = options.serverOrigin;
    this.allowedOrigins = options.allowedOrigins ?? [];
    this.adapter = options.adapter ?? fileGetAdapter;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? fetchConcurrency(serverProtocol()));
  }

  urls(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown): ChangelogUrls {
    return changelogUrls(version, channel, this.serverOrigin);
  }

  fetchLog(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, signal?: AbortSignal): Promise<FetchOutcome<Advisory[]>> {
    // Only the log's URL: a compare asks for hundreds of logs at once.
    const url = logUrl(version, channel, this.serverOrigin);

    return this.fetchFile('log', url.log, signal, url.source, url.logSource) as Promise<FetchOutcome<Advisory[]>>;
  }

  fetchPackages(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, signal?: AbortSignal): Promise<FetchOutcome<Package[]>> {
    const urls = this.urls(version, channel);

    if (urls.packagesTar) {
      return this.fetchFromTar(version.name, urls.packagesTar, signal);
    }

    return this.fetchFile('packages', urls.packages, signal, urls.source, urls.logSource) as Promise<FetchOutcome<Package[]>>;
  }

  /** What this session learnt of a source: undefined until its probe answered. */
  sourceState(sourceKey: string): 'live' | NoServiceReason | undefined {
    const state = this.sources.get(sourceKey);

    return state?.state === 'live' ? 'live' : state?.state === 'none' ? state.reason : undefined;
  }

  /** Empties the cache kept across sessions (and this session's, so files are fetched again). */
  async clearCache(): Promise<void> {
    this.cache.clear();
    this.sources.clear();
    this.tars.clear();
    await this.persistent.clear();
  }

  cacheUsage(): Promise<{ entries: number; bytes: number }> {
    return this.persistent.usage();
  }

  /**
   * One file by URL: validated, cached, shared between callers, cancelled when no caller waits.
   * `sourceKey` names the source the file belongs to (a template, the default path), probed once.
   */
  fetchFile(file: ChangelogFile, url: string, signal?: AbortSignal, source: SourceKind = 'channel', sourceKey = url): Promise<FetchOutcome<unknown>> {
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
    const cacheKey = fileCacheKey(url, verdict.sameOrigin, this.userId);

    // Joined at once, before any await: a caller replacing another keeps the download going.
    if (this.inFlight.has(url)) {
      return this.join(file, url, signal, this.sources.get(sourceKey)?.state === 'live' && source === 'default' ? 'channel' : source, verdict.sameOrigin, cacheKey, sourceKey);
    }

    return this.fetchStored(file, url, signal, source, sourceKey, verdict.sameOrigin, cacheKey);
  }

  private async fetchStored(file: ChangelogFile, url: string, signal: AbortSignal | undefined, source: SourceKind, sourceKey: string, sameOrigin: boolean, cacheKey: string): Promise<FetchOutcome<unknown>> {
    const kept = readKeptFile(await this.persistent.get(cacheKey), this.now());

    if (kept.kind !== 'ask') {
      const result: FileResult<unknown> = kept.kind === 'file' ? { state: 'ok', value: kept.value } : { state: 'missing' };

      this.cache.set(url, result);

      return result;
    }

    return this.fetchProbed(file, url, signal, source, sourceKey, sameOrigin, cacheKey);
  }

  private async fetchProbed(file: ChangelogFile, url: string, signal: AbortSignal | undefined, source: SourceKind, sourceKey: string, sameOrigin: boolean, cacheKey: string): Promise<FetchOutcome<unknown>> {
    for (;;) {
      if (signal?.aborted) {
        return cancelled();
      }
      const state = this.sources.get(sourceKey);

      if (state?.state === 'none') {
        return {
          state: 'noService', reason: state.reason, source: sourceKey
        };
      }
      if (state?.state === 'live') {
        // The source answers: a 404 now means only that this image has no file.
        return this.join(file, url, signal, source === 'default' ? 'channel' : source, sameOrigin, cacheKey, sourceKey);
      }
      if (state?.state === 'probing' && this.inFlight.has(url)) {
        return this.join(file, url, signal, source, sameOrigin, cacheKey, sourceKey);
      }
      if (state?.state === 'probing') {
        await unlessAborted(state.done, signal);
        continue;
      }
      let settle = () => undefined as void;
      const done = new Promise<void>((resolve) => {
        settle = resolve;
      });

      this.sources.set(sourceKey, { state: 'probing', done });
      const result = await this.join(file, url, signal, source, sameOrigin, cacheKey, sourceKey);

      if (result.state === 'noService') {
        this.sources.set(sourceKey, { state: 'none', reason: result.reason });
      } else if (result.state === 'ok' || result.state === 'missing' || (result.state === 'error' && !isTransient(result.reason))) {
        this.sources.set(sourceKey, { state: 'live' });
      } else {
        // A network failure, a timeout or a cancel says nothing of the source: the next file probes again.
        this.sources.delete(sourceKey);
      }
      settle();

      return result.state === 'noService' ? { ...result, source: sourceKey } : result;
    }
  }

  private join(file: ChangelogFile, url: string, signal: AbortSignal | undefined, source: SourceKind, sameOrigin: boolean, cacheKey: string, sourceKey: string): Promise<FetchOutcome<unknown>> {
    const flight = this.inFlight.get(url) ?? this.start(file, url, sameOrigin, source, cacheKey, sourceKey);

    flight.waiters++;

    return new Promise((resolve) => {
      const onAbort = () => {
        flight.waiters--;
        if (flight.waiters === 0) {
          this.abandon(url, flight);
        }
        resolve(cancelled());
      };

      const stop = watchAbort(signal, onAbort);

      flight.promise.then((result) => {
        stop();
        resolve(result);
      });
    });
  }

  private start(file: ChangelogFile, url: string, sameOrigin: boolean, source: SourceKind, cacheKey: string, sourceKey: string): InFlight {
    const controller = new AbortController();
    const flight: InFlight = {
      controller, waiters: 0, promise: Promise.resolve({ state: 'missing' })
    };

    flight.promise = this.limiter.run(() => this.download(file, url, sameOrigin, controller, source, cacheKey, sourceKey), controller.signal)
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
        if (result.state === 'ok' || result.state === 'missing') {
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

  private async download(file: ChangelogFile, url: string, sameOrigin: boolean, controller: AbortController, source: SourceKind, cacheKey: string, sourceKey: string): Promise<FileResult<unknown>> {
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
    let contentType = '';
    let finalUrl = '';

    try {
      // Called without axios's request pipeline (config merging, interceptors): for a compare's
      // 499 logs that pipeline was most of the page's script time per file (docs/benchmarks.md, session 26).
      const response: AxiosResponse = await this.adapter({
        url,
        method:          'get',
        headers:         new AxiosHeaders({ Accept: FILE_ACCEPT }),
        signal:          controller.signal,
        timeout:         this.timeoutMs,
        // Never "include": a same-origin request carries the session cookie anyway, and a redirect
        // to another origin or port (a cross-origin request then) carries none.
        withCredentials: false,
        responseType:    'text',
        validateStatus:  () => true,
        onDownloadProgress,
      });

      status = response.status;
      body = response.data;
      contentType = String(response.headers?.['content-type'] ?? '');
      finalUrl = String((response.request as { responseURL?: unknown } | undefined)?.responseURL ?? '');
    } catch (err) {
      return tooLarge ? tooLargeResult : this.requestError(err);
    }
    const redirected = redirectRefusal(url, finalUrl, this.serverOrigin, this.allowedOrigins);

    if (redirected) {
      return { state: 'error', reason: { key: `${ KEY }.${ redirected.reason }`, values: { origin: redirected.origin } } };
    }
    const text = typeof body === 'string' ? body : '';
    const answer = classifySourceAnswer({
      status, contentType, body: text.slice(0, 512)
    }, source, this.sources.get(sourceKey)?.state === 'live');

    if (answer.kind === 'noService') {
      return {
        state: 'noService', reason: answer.reason, source: ''
      };
    }
    if (answer.kind === 'missing') {
      this.persistent.put(cacheKey, missingRecord(this.now()), 64);

      return { state: 'missing' };
    }
    if (answer.kind === 'failed') {
      return { state: 'error', reason: { key: `${ KEY }.${ answer.html ? 'html' : 'status' }`, values: { status } } };
    }
    if (tooLarge || text.length > this.maxBytes) {
      return tooLargeResult;
    }
    try {
      const value = PARSERS[file](text);

      // Not awaited: the page need not wait for IndexedDB.
      this.persistent.put(cacheKey, value, text.length);

      return { state: 'ok', value };
    } catch (err) {
      if (err instanceof DomainFormatError) {
        return { state: 'error', reason: formatReason(file, err) };
      }
      throw err;
    }
  }

  /** A version's package list out of its channel's tar, which is read once for all its versions. */
  async fetchFromTar(versionName: string, tarUrl: string, signal?: AbortSignal): Promise<FetchOutcome<Package[]>> {
    if (signal?.aborted) {
      return cancelled();
    }
    const verdict = trustUrl(tarUrl, this.serverOrigin, this.allowedOrigins);

    if (!verdict.trusted) {
      return { state: 'error', reason: { key: `${ KEY }.${ verdict.reason }`, values: { origin: verdict.origin } } };
    }
    const entryUrl = `${ tarUrl }#${ encodeURIComponent(versionName) }`;
    const cached = this.cache.get(entryUrl);

    if (cached) {
      return cached as FileResult<Package[]>;
    }
    const cacheKey = fileCacheKey(entryUrl, verdict.sameOrigin, this.userId);
    const stored = await this.persistent.get(cacheKey);

    if (stored !== undefined) {
      const result: FileResult<Package[]> = { state: 'ok', value: stored as Package[] };

      this.cache.set(entryUrl, result);

      return result;
    }
    let tar = this.tars.get(tarUrl);

    if (!tar) {
      tar = this.downloadTar(tarUrl, verdict.sameOrigin);
      this.tars.set(tarUrl, tar);
      tar.then((read) => {
        if (read.state === 'error') {
          this.tars.delete(tarUrl);
        }
      });
    }
    // The tar is shared by every version of the channel: a caller leaving does not stop it.
    const read = await unlessAborted(tar, signal);

    if (!read) {
      return cancelled();
    }
    if (read.state !== 'ok') {
      return read.state === 'noService' ? { ...read, source: tarUrl } : read;
    }
    const text = read.files.get(versionName);
    let result: FileResult<Package[]>;

    if (text === undefined) {
      result = { state: 'missing' };
    } else {
      try {
        result = { state: 'ok', value: parsePackageList(text) };
        this.persistent.put(cacheKey, result.value, text.length);
      } catch (err) {
        if (!(err instanceof DomainFormatError)) {
          throw err;
        }

        return { state: 'error', reason: formatReason('packages', err) };
      }
    }
    this.cache.set(entryUrl, result);

    return result;
  }

  private async downloadTar(url: string, sameOrigin: boolean): Promise<TarResult> {
    if (!this.fetchImpl) {
      return { state: 'error', reason: { key: `${ KEY }.network` } };
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs * 4);

    try {
      const response = await this.fetchImpl(url, { credentials: sameOrigin ? 'same-origin' : 'omit', signal: controller.signal });
      const contentType = response.headers.get('content-type') ?? '';
      const redirected = redirectRefusal(url, response.url, this.serverOrigin, this.allowedOrigins);

      if (redirected) {
        return { state: 'error', reason: { key: `${ KEY }.${ redirected.reason }`, values: { origin: redirected.origin } } };
      }

      if (!response.ok || /^\s*text\/html\b/i.test(contentType) || !response.body) {
        const body = response.ok ? '' : (await response.text()).slice(0, 512);
        const answer = classifySourceAnswer({
          status: response.status, contentType, body
        }, 'tar');

        if (answer.kind === 'noService') {
          return {
            state: 'noService', reason: answer.reason, source: url
          };
        }
        if (answer.kind === 'missing') {
          return { state: 'missing' };
        }

        return { state: 'error', reason: { key: `${ KEY }.status`, values: { status: response.status } } };
      }
      const read = await readPackageTar(response.body);

      if (read.state === 'tooLarge') {
        return { state: 'error', reason: { key: `${ KEY }.tooLarge`, values: { limit: read.limit } } };
      }
      if (read.state === 'unreadable') {
        return { state: 'error', reason: { key: `${ KEY }.notATar` } };
      }

      return read;
    } catch {
      return controller.signal.aborted ? { state: 'error', reason: { key: `${ KEY }.timeout`, values: { seconds: Math.round((this.timeoutMs * 4) / 1000) } } } : { state: 'error', reason: { key: `${ KEY }.network` } };
    } finally {
      clearTimeout(timer);
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

    return { state: 'error', reason: { key: `${ KEY }.network` } };
  }
}
