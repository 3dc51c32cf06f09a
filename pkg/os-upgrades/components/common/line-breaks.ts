// Where a long machine text (a URL, an image reference) may wrap: after its separators, never in
// the middle of a word, so a narrow column breaks `http://host/path/` at the slashes only.

const SEPARATORS = /(?<=[/?&=])/;

/** The text cut after each `/`, `?`, `&` and `=`: render each part followed by a `<wbr>`. */
export function wrapParts(text: string): string[] {
  return text ? text.split(SEPARATORS).filter((part) => part !== '') : [];
}
