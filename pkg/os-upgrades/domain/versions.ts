import { compareDigits, compareText } from './text';

/**
 * A version such as `v2.0.2-4.2.105`: base [2, 0, 2] and build revision [4, 2, 105].
 * `exact` is false when a part is too long for a double; such versions are then compared
 * digit by digit from their text.
 */
export interface ParsedVersion {
  base: number[];
  revision: number[];
  exact: boolean;
  /** The version as parsed: trimmed, without its `v`. */
  text: string;
}

const MAX_EXACT_DIGITS = 15;

/**
 * Parses a version (rule "Versions" of domain/README.md): `v?N(.N)*(-N(.N)*)?`; undefined when it is not one
 * (`unstable`, `latest`, ''). A hand-written scanner: it runs for every version on every sort.
 */
export function parseVersion(version: unknown): ParsedVersion | undefined {
  if (typeof version !== 'string') {
    return undefined;
  }
  const text = version.trim();
  const base: number[] = [];
  const revision: number[] = [];
  let parts = base;
  let exact = true;
  const start = text.charCodeAt(0) === 118 || text.charCodeAt(0) === 86 ? 1 : 0; // v or V
  let i = start;

  for (;;) {
    const partStart = i;
    let value = 0;

    while (i < text.length) {
      const code = text.charCodeAt(i);

      if (code < 48 || code > 57) {
        break;
      }
      value = value * 10 + code - 48;
      i++;
    }
    if (i === partStart) {
      return undefined;
    }
    if (i - partStart > MAX_EXACT_DIGITS) {
      exact = false;
    }
    parts.push(value);
    if (i === text.length) {
      return {
        base, revision, exact, text: text.slice(start)
      };
    }
    const separator = text[i];

    if (separator === '-' && parts === base) {
      parts = revision;
    } else if (separator !== '.') {
      return undefined;
    }
    i++;
  }
}

/** Digit strings of each part, for versions with parts too long for a double. */
function digitParts(version: string): { base: string[]; revision: string[] } {
  const [base, revision] = version.split('-');

  return { base: base.split('.'), revision: revision === undefined ? [] : revision.split('.') };
}

/** Number by number; a missing base part counts as 0, a shorter revision is lower. */
function compareParts<T extends number | string>(a: T[], b: T[], padWithZero: boolean, compare: (x: T, y: T) => number, zero: T): number {
  const length = Math.max(a.length, b.length);

  for (let i = 0; i < length; i++) {
    if (!padWithZero && (i >= a.length || i >= b.length)) {
      return i >= a.length ? -1 : 1;
    }
    const result = compare(a[i] ?? zero, b[i] ?? zero);

    if (result !== 0) {
      return result;
    }
  }

  return 0;
}

const compareNumbers = (x: number, y: number) => (x === y ? 0 : x < y ? -1 : 1);

/** Compares two parsed versions: base, then revision (no revision is lowest). */
export function compareParsedVersions(a: ParsedVersion, b: ParsedVersion): number {
  if (a.exact && b.exact) {
    return compareParts(a.base, b.base, true, compareNumbers, 0) || compareParts(a.revision, b.revision, false, compareNumbers, 0);
  }
  const x = digitParts(a.text);
  const y = digitParts(b.text);

  return compareParts(x.base, y.base, true, compareDigits, '0') || compareParts(x.revision, y.revision, false, compareDigits, '0');
}

/**
 * Total order on version strings (rule "Versions" of domain/README.md): `v2.0.2 < v2.0.2-4.2.97 < v2.0.2-4.2.105 <
 * v2.0.4-5.5.6`. Unparsable versions sort below every parsed one; ties (`v2.2` and `2.2.0`,
 * or two unparsable versions) are broken by the raw string, so 0 means identical strings.
 */
export function compareVersions(a: unknown, b: unknown): number {
  const x = typeof a === 'string' ? a : '';
  const y = typeof b === 'string' ? b : '';

  return compareVersionTexts(x, cachedParseVersion(x), y, cachedParseVersion(y));
}

/** compareVersions on versions already parsed (by cachedParseVersion), for sorting many. */
export function compareVersionTexts(a: string, parsedA: ParsedVersion | undefined, b: string, parsedB: ParsedVersion | undefined): number {
  if (parsedA && parsedB) {
    const result = compareParsedVersions(parsedA, parsedB);

    if (result !== 0) {
      return result;
    }
  } else if (parsedA || parsedB) {
    return parsedA ? 1 : -1;
  }

  return compareText(a, b);
}

// Parses of recently seen version strings (null: unparsable): channels are sorted and resolved
// again and again. Keyed by the (immutable) string, so it cannot go stale; emptied when full.
const parseCache = new Map<string, ParsedVersion | null>();
const PARSE_CACHE_LIMIT = 50000;

/** parseVersion, remembered. The result is shared: never modify it. */
export function cachedParseVersion(version: string): ParsedVersion | undefined {
  let parsed = parseCache.get(version);

  if (parsed === undefined) {
    if (parseCache.size >= PARSE_CACHE_LIMIT) {
      parseCache.clear();
    }
    parsed = parseVersion(version) ?? null;
    parseCache.set(version, parsed);
  }

  return parsed ?? undefined;
}
