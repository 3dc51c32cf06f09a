// How many changelog files to fetch at once, from the protocol of the connection to the server.

/** Browsers open at most 6 connections per origin over HTTP/1.1: more requests only queue. */
export const HTTP1_CONCURRENCY = 6;
/**
 * HTTP/2 and HTTP/3 multiplex requests on one connection; servers allow at least 100 streams
 * (RFC 9113 recommends no fewer; ingress-nginx allows 128). A third of that leaves room for the
 * dashboard's own requests and does not flood the server.
 */
export const MULTIPLEXED_CONCURRENCY = 32;

/**
 * The limit for a connection whose `nextHopProtocol` (ALPN id, as the browser's resource timing
 * reports it) is `protocol`: `h2` and `h3` (and drafts such as `h3-29`) multiplex; anything else,
 * unknown or empty included, is treated as HTTP/1.1.
 */
export function fetchConcurrency(protocol: string | null | undefined): number {
  const id = typeof protocol === 'string' ? protocol.trim().toLowerCase() : '';

  return id === 'h2' || id === 'h3' || id.startsWith('h3-') ? MULTIPLEXED_CONCURRENCY : HTTP1_CONCURRENCY;
}
