// Which rows of a list of equal-height rows a scrolling box shows.

/**
 * The rows [start, end) in view of a box `viewport` px high scrolled `scrollTop` px down, with
 * `overscan` more each side, of `count` rows of `rowPx` px each.
 */
export function visibleRange(count: number, rowPx: number, scrollTop: number, viewport: number, overscan: number): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowPx);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewport)) / rowPx);
  const start = Math.min(count, Math.max(0, first - overscan));

  return { start, end: Math.max(start, Math.min(count, last + overscan)) };
}
