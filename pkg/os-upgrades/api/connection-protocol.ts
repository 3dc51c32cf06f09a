/**
 * The protocol of the page's own connection to its server, as the browser's navigation timing
 * reports it (`h2`, `http/1.1`…): the changelog endpoint is on the same origin. '' when unknown.
 */
export function serverProtocol(): string {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') {
    return '';
  }
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];

  return navigation?.nextHopProtocol ?? '';
}
