// The diff layout shown: side by side halves the width, and below this width each half would cut
// off the version strings at the end of its lines, so the diff then shows line by line.
import type { DiffLayout } from '../../stores/compare';

/** The narrowest package diff (px) that shows side by side: two halves of about 55 monospace characters. */
export const SIDE_BY_SIDE_MIN_WIDTH = 900;

/** The layout shown for the one chosen at this width (px; undefined until measured: the chosen one). */
export function shownLayout(chosen: DiffLayout, width: number | undefined): DiffLayout {
  return chosen === 'side-by-side' && width !== undefined && width > 0 && width < SIDE_BY_SIDE_MIN_WIDTH ? 'line-by-line' : chosen;
}
