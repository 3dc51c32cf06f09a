/**
 * The request waterfall of one measured step, from the DevTools protocol's Network events:
 * each request's start, first byte and end (ms from the step's start), its bytes on the wire,
 * protocol and status, and what they add up to (how many ran at once, how long the network was
 * busy). Written as <label>.waterfall.json beside the step's CPU profile and trace.
 */
import type { CDPSession } from '@playwright/test';

export interface WaterfallEntry {
  url: string;
  method: string;
  type: string;
  protocol: string;
  status: number;
  /** Milliseconds from the start of the step. */
  startMs: number;
  firstByteMs?: number;
  endMs?: number;
  /** Compressed, headers included (encodedDataLength). */
  bytes: number;
  failed?: string;
  fromCache: boolean;
}

export interface WaterfallSummary {
  requests: number;
  bytes: number;
  /** From the first request's start to the last one's end. */
  spanMs: number;
  /** The most requests in flight at one time. */
  maxInFlight: number;
  /** Milliseconds with at least one request in flight. */
  busyMs: number;
  /** Requests by path prefix (`/v1/…type`, `/changelog-files`, …): count and bytes. */
  byKind: Record<string, { requests: number; bytes: number }>;
}

export interface Waterfall {
  summary: WaterfallSummary;
  entries: WaterfallEntry[];
}

/** What a request is, for the summary: the API type or the folder it reads. */
function kindOf(url: string): string {
  const path = new URL(url).pathname;
  const api = /^\/(v1|v3|k8s\/clusters\/[^/]+\/v1)\/([^/?]+)/.exec(path);

  if (api) {
    return `/${ api[1] }/${ api[2] }`;
  }

  return `/${ path.split('/')[1] ?? '' }`;
}

export function summarize(entries: readonly WaterfallEntry[]): WaterfallSummary {
  const ended = entries.filter((entry) => entry.endMs !== undefined);
  const edges = ended.flatMap((entry) => [[entry.startMs, 1], [entry.endMs as number, -1]] as [number, number][])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let maxInFlight = 0;
  let busyMs = 0;
  let since = 0;

  for (const [at, step] of edges) {
    if (inFlight > 0) {
      busyMs += at - since;
    }
    inFlight += step;
    since = at;
    maxInFlight = Math.max(maxInFlight, inFlight);
  }
  const byKind: WaterfallSummary['byKind'] = {};

  for (const entry of entries) {
    const kind = kindOf(entry.url);

    byKind[kind] = byKind[kind] ?? { requests: 0, bytes: 0 };
    byKind[kind].requests++;
    byKind[kind].bytes += entry.bytes;
  }

  return {
    requests: entries.length,
    bytes:    entries.reduce((sum, entry) => sum + entry.bytes, 0),
    spanMs:   ended.length ? Math.max(...ended.map((entry) => entry.endMs as number)) - Math.min(...ended.map((entry) => entry.startMs)) : 0,
    maxInFlight,
    busyMs,
    byKind,
  };
}

interface Pending extends WaterfallEntry {
  /** The protocol's monotonic seconds at the request's start. */
  at: number;
}

/**
 * Starts recording the page's requests on `cdp`; `stop()` ends it and returns the waterfall, its
 * times from the first request of the step (the protocol's clock is not the page's).
 */
export async function recordWaterfall(cdp: CDPSession): Promise<{ stop: () => Promise<Waterfall> }> {
  const requests = new Map<string, Pending>();
  let origin: number | undefined;
  const ms = (seconds: number) => (seconds - (origin as number)) * 1000;
  const onRequest = (event: { requestId: string; request: { url: string; method: string }; type?: string; timestamp: number }) => {
    origin = origin ?? event.timestamp;
    if (requests.has(event.requestId) || event.request.url.startsWith('data:')) {
      return;
    }
    requests.set(event.requestId, {
      url: event.request.url, method: event.request.method, type: event.type ?? '', protocol: '', status: 0, startMs: ms(event.timestamp), bytes: 0, fromCache: false, at: event.timestamp
    });
  };
  const onResponse = (event: { requestId: string; timestamp: number; response: { status: number; protocol?: string; fromDiskCache?: boolean; fromServiceWorker?: boolean } }) => {
    const request = requests.get(event.requestId);

    if (request) {
      request.status = event.response.status;
      request.protocol = event.response.protocol ?? '';
      request.firstByteMs = ms(event.timestamp);
      request.fromCache = !!(event.response.fromDiskCache || event.response.fromServiceWorker);
    }
  };
  const onFinished = (event: { requestId: string; timestamp: number; encodedDataLength: number }) => {
    const request = requests.get(event.requestId);

    if (request) {
      request.endMs = ms(event.timestamp);
      request.bytes = event.encodedDataLength;
    }
  };
  const onFailed = (event: { requestId: string; timestamp: number; errorText: string; canceled?: boolean }) => {
    const request = requests.get(event.requestId);

    if (request) {
      request.endMs = ms(event.timestamp);
      request.failed = event.canceled ? 'cancelled' : event.errorText;
    }
  };

  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', onRequest);
  cdp.on('Network.responseReceived', onResponse);
  cdp.on('Network.loadingFinished', onFinished);
  cdp.on('Network.loadingFailed', onFailed);

  return {
    async stop() {
      cdp.off('Network.requestWillBeSent', onRequest);
      cdp.off('Network.responseReceived', onResponse);
      cdp.off('Network.loadingFinished', onFinished);
      cdp.off('Network.loadingFailed', onFailed);
      const entries = [...requests.values()].sort((a, b) => a.at - b.at).map(({ at: _at, ...entry }) => entry);

      return { summary: summarize(entries), entries };
    },
  };
}
