// The colours of the images on the fleet overview: one per image, the same on every chart of the
// page, and no two images of the page alike while there are fewer images than colours.

/** Ten hues told apart with the common colour-vision deficiencies (Tableau 10). */
export const IMAGE_PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** The colour of an image that is not known (no pinned image). */
export const NO_IMAGE_COLOR = 'var(--muted)';

const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * A colour per image name: the names in version order (`3.9` before `3.12`) take the palette's
 * colours in turn, so neighbouring images always differ, and so does every image of the page
 * until there are more images than colours.
 */
export function imageColors(names: Iterable<string>): Record<string, string> {
  const sorted = [...new Set(names)].filter((name) => name).sort(byName);

  return Object.fromEntries(sorted.map((name, i) => [name, IMAGE_PALETTE[i % IMAGE_PALETTE.length]]));
}
