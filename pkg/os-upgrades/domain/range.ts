/**
 * A small semver range parser (the npm `semver` syntax without pre-releases), matched against
 * the base version of an image only: `>=2.2.0 <2.3.0`, `~2.2`, `^2`, `2.2.x`, `*`,
 * `1.2 - 2.3`, alternatives with `||`.
 */

type Operator = '<' | '<=' | '>' | '>=';

interface Comparator {
  operator: Operator;
  version: number[];
}

/** Alternatives (`||`) of comparator sets; a version matches a set when it meets all of them. */
export type VersionRange = Comparator[][];

/** A partial version such as `2`, `2.2`, `2.2.x`, `*`: the numbers given, up to the first wildcard. */
type Partial = number[];

const PARTIAL_PATTERN = /^[vV=]?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/;

function parsePartial(text: string): Partial | undefined {
  const match = PARTIAL_PATTERN.exec(text);

  if (!match) {
    return undefined;
  }
  const numbers: number[] = [];

  for (const part of match.slice(1)) {
    if (part === undefined || !/^\d+$/.test(part)) {
      break;
    }
    numbers.push(Number(part));
  }

  return numbers;
}

function full(partial: Partial): number[] {
  return [partial[0] ?? 0, partial[1] ?? 0, partial[2] ?? 0];
}

/** The lowest version above everything that `partial` covers: `2.2` → 2.3.0, `2` → 3.0.0. */
function nextAfter(partial: Partial): number[] {
  const next = full(partial);

  next[partial.length - 1] += 1;

  return next;
}

function between(low: number[] | undefined, highExclusive: number[] | undefined): Comparator[] {
  const set: Comparator[] = [];

  if (low) {
    set.push({ operator: '>=', version: low });
  }
  if (highExclusive) {
    set.push({ operator: '<', version: highExclusive });
  }

  return set;
}

const NOTHING: Comparator[] = [{ operator: '<', version: [0, 0, 0] }];

function expandPrimitive(operator: string, partial: Partial): Comparator[] {
  const complete = partial.length === 3;

  switch (operator) {
  case '':
  case '=':
    return partial.length ? between(full(partial), nextAfter(partial)) : [];
  case '>=':
    return partial.length ? [{ operator: '>=', version: full(partial) }] : [];
  case '>':
    if (!partial.length) {
      return NOTHING;
    }

    return complete ? [{ operator: '>', version: full(partial) }] : [{ operator: '>=', version: nextAfter(partial) }];
  case '<':
    return partial.length ? [{ operator: '<', version: full(partial) }] : NOTHING;
  case '<=':
    if (!partial.length) {
      return [];
    }

    return complete ? [{ operator: '<=', version: full(partial) }] : [{ operator: '<', version: nextAfter(partial) }];
  case '~':
    if (!partial.length) {
      return [];
    }

    return between(full(partial), nextAfter(partial.slice(0, partial.length === 1 ? 1 : 2)));
  case '^': {
    if (!partial.length) {
      return [];
    }
    // The first non-zero part given may not change; with only zeros given, the last one given.
    const fixed = partial.findIndex((part) => part !== 0);
    const keep = fixed === -1 ? partial.length : fixed + 1;

    return between(full(partial), nextAfter(partial.slice(0, keep)));
  }
  default:
    return NOTHING;
  }
}

const PRIMITIVE_PATTERN = /^(<=|>=|<|>|=|~>|~|\^)?(.*)$/;

function parseComparatorSet(text: string): Comparator[] | undefined {
  // `>= 2.2.0` is allowed: glue operators to their version first.
  const tokens = text.replace(/(<=|>=|<|>|=|~>|~|\^)\s+/g, '$1').split(/\s+/).filter(Boolean);

  if (tokens.length === 3 && tokens[1] === '-') {
    const low = parsePartial(tokens[0]);
    const high = parsePartial(tokens[2]);

    if (!low || !high) {
      return undefined;
    }
    const upper = high.length === 0 ? [] : high.length === 3 ? [{ operator: '<=' as const, version: full(high) }] : [{ operator: '<' as const, version: nextAfter(high) }];

    return [...(low.length ? [{ operator: '>=' as const, version: full(low) }] : []), ...upper];
  }
  const set: Comparator[] = [];

  for (const token of tokens) {
    const match = PRIMITIVE_PATTERN.exec(token);
    const partial = match ? parsePartial(match[2]) : undefined;

    if (!match || !partial) {
      return undefined;
    }
    set.push(...expandPrimitive(match[1] === '~>' ? '~' : match[1] ?? '', partial));
  }

  return set;
}

/** Parses a range; undefined when it is not one. An empty range means any version. */
export function parseVersionRange(text: string): VersionRange | undefined {
  if (typeof text !== 'string' || text.length > 1000) {
    return undefined;
  }
  const alternatives = text.split('||');
  const range: VersionRange = [];

  for (const alternative of alternatives) {
    if (!alternative.trim() && alternatives.length > 1) {
      return undefined;
    }
    const set = parseComparatorSet(alternative.trim());

    if (!set) {
      return undefined;
    }
    range.push(set);
  }

  return range;
}

function compareNumbers(a: number[], b: number[]): number {
  const length = Math.max(a.length, b.length);

  for (let i = 0; i < length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);

    if (difference !== 0) {
      return difference < 0 ? -1 : 1;
    }
  }

  return 0;
}

function meets(version: number[], comparator: Comparator): boolean {
  const result = compareNumbers(version, comparator.version);

  switch (comparator.operator) {
  case '<':
    return result < 0;
  case '<=':
    return result <= 0;
  case '>':
    return result > 0;
  case '>=':
    return result >= 0;
  }
}

/** True when the base version (e.g. [2, 2, 0]) is in the range. Loops, no closures: it runs per version. */
export function rangeIncludes(range: VersionRange, base: number[]): boolean {
  for (const set of range) {
    let all = true;

    for (const comparator of set) {
      if (!meets(base, comparator)) {
        all = false;
        break;
      }
    }
    if (all) {
      return true;
    }
  }

  return false;
}
