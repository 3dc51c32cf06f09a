// Small helpers shared by the domain files. Only isRecord is exported from index.ts.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a plain object, else an empty one (to read optional fields of API objects). */
export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The string itself, a number written as a string, or ''. */
export function asText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return String(value);
  }

  return '';
}

/** Unix seconds from a number or a numeric string; undefined otherwise. */
export function asUnixSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : undefined;
  }
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
    const seconds = Number(value);

    return Number.isFinite(seconds) ? seconds : undefined;
  }

  return undefined;
}

/** Compares strings by UTF-16 code units: fast, and the same in every locale. */
export function compareText(a: string, b: string): number {
  if (a === b) {
    return 0;
  }

  return a < b ? -1 : 1;
}

/** Compares two strings of decimal digits as numbers of any size. */
export function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');

  if (x.length !== y.length) {
    return x.length < y.length ? -1 : 1;
  }

  return compareText(x, y);
}

/** A copy of plain JSON data (Kubernetes objects are JSON). */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/** Number of bytes of `text` in UTF-8, without TextEncoder (not in every test environment). */
export function utf8Length(text: string): number {
  let bytes = 0;

  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);

    if (code < 0x80) {
      bytes += 1;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else {
      bytes += 3;
    }
  }

  return bytes;
}

/**
 * A person's sentence without its final full stop, for a message that puts its own after it
 * ("{reason}. See …"): a reason typed with a period would read "newer.. See".
 */
export function withoutFinalStop(text: string): string {
  return text.trim().replace(/(?<!\.)[.。]$/, '');
}
