import { compareDigits, compareText } from './text';

/**
 * A version such as `v2.0.2-4.2.105`: base `2.0.2` and build revision `4.2.105`, both kept as
 * digit strings so numbers of any size compare exactly.
 */
export interface ParsedVersion {
  base: string[];
  revision: string[];
}

const VERSION_PATTERN = /^[vV]?(\d+(?:\.\d+)*)(?:-(\d+(?:\.\d+)*))?$/;

/** Parses a version (DESIGN rule 2); undefined when it is not one (`unstable`, `latest`, ''). */
export function parseVersion(version: unknown): ParsedVersion | undefined {
  if (typeof version !== 'string') {
    return undefined;
  }
  const match = VERSION_PATTERN.exec(version.trim());

  if (!match) {
    return undefined;
  }

  return {
    base:     match[1].split('.'),
    revision: match[2] === undefined ? [] : match[2].split('.'),
  };
}

/** Number by number; a missing base part counts as 0, a shorter revision is lower. */
function compareParts(a: string[], b: string[], padWithZero: boolean): number {
  const length = Math.max(a.length, b.length);

  for (let i = 0; i < length; i++) {
    if (!padWithZero && (i >= a.length || i >= b.length)) {
      return i >= a.length ? -1 : 1;
    }
    const result = compareDigits(a[i] ?? '0', b[i] ?? '0');

    if (result !== 0) {
      return result;
    }
  }

  return 0;
}

/** Compares two parsed versions: base, then revision (no revision is lowest). */
export function compareParsedVersions(a: ParsedVersion, b: ParsedVersion): number {
  return compareParts(a.base, b.base, true) || compareParts(a.revision, b.revision, false);
}

/**
 * Total order on version strings (DESIGN rule 2): `v2.0.2 < v2.0.2-4.2.97 < v2.0.2-4.2.105 <
 * v2.0.4-5.5.6`. Unparsable versions sort below every parsed one; ties (`v2.2` and `2.2.0`,
 * or two unparsable versions) are broken by the raw string, so 0 means identical strings.
 */
export function compareVersions(a: unknown, b: unknown): number {
  return compareVersionKeys(versionKey(a), versionKey(b));
}

/** A version string with its parse, to sort many versions without parsing them repeatedly. */
export interface VersionKey {
  raw: string;
  parsed?: ParsedVersion;
}

export function versionKey(version: unknown): VersionKey {
  const raw = typeof version === 'string' ? version : '';

  return { raw, parsed: parseVersion(raw) };
}

export function compareVersionKeys(a: VersionKey, b: VersionKey): number {
  if (a.parsed && b.parsed) {
    const result = compareParsedVersions(a.parsed, b.parsed);

    if (result !== 0) {
      return result;
    }
  } else if (a.parsed || b.parsed) {
    return a.parsed ? 1 : -1;
  }

  return compareText(a.raw, b.raw);
}

/** The base version as numbers (`v2.2.0-3.12` → [2, 2, 0]), for matching semver ranges. */
export function baseNumbers(version: unknown): number[] | undefined {
  const parsed = parseVersion(version);

  return parsed ? parsed.base.map(Number) : undefined;
}
