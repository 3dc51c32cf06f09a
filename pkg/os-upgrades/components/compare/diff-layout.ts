// The diff layout shown: side by side halves the width, and where a half is narrower than the
// longest package line it cuts the version strings off at the end of the line (diff2html does not
// wrap, so the two halves' rows stay side by side): the diff then shows line by line.
import type { DiffLayout } from '../../stores/compare';

/** The narrowest package diff (px) that shows side by side: two halves of about 55 monospace characters. */
export const SIDE_BY_SIDE_MIN_WIDTH = 900;

/** One character of the diff's 13 px monospace font, rounded up (Menlo, Consolas, DejaVu Sans Mono: 7.8 px). */
const CHAR_PX = 8;
/** What a half takes besides its text: the line numbers, diff2html's 4.5em padding each side, the borders. */
const HALF_CHROME_PX = 140;

/**
 * The longest changed line of a unified diff (its + or - prefix included; headers, hunk lines and
 * unchanged context left out): the package moves a person compares side by side. A longer
 * unchanged line scrolls inside its half (diff2html's overflow-x), as it reads the same on both.
 */
export function longestDiffLine(unified: string): number {
  return unified.split('\n').filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line)).reduce((max, line) => Math.max(max, line.length), 0);
}

/** The width (px) a side-by-side diff needs so that no half cuts a line of `longest` characters. */
export function sideBySideWidth(longest: number): number {
  return Math.max(SIDE_BY_SIDE_MIN_WIDTH, 2 * (HALF_CHROME_PX + longest * CHAR_PX));
}

/**
 * The layout shown for the one chosen at this width (px; undefined until measured: the chosen
 * one), for a diff whose longest line has `longest` characters.
 */
export function shownLayout(chosen: DiffLayout, width: number | undefined, longest = 0): DiffLayout {
  return chosen === 'side-by-side' && width !== undefined && width > 0 && width < sideBySideWidth(longest) ? 'line-by-line' : chosen;
}
