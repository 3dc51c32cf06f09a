import type { Reason } from './types';

// What a person may type into a field before anything is sent: the Kubernetes rules for names,
// label keys and label values, and the CRD's number types. Each check returns the problem (an
// l10n key) or undefined, so the form shows it beside the field and keeps the input as typed.

const KEY = 'osUpgrades.input';

/** A DNS-1123 label part: lowercase alphanumerics and '-', alphanumeric at both ends. */
const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
/** k8s.io/apimachinery pkg/util/validation/validation.go, IsDNS1123Subdomain. */
const DNS1123_SUBDOMAIN = new RegExp(`^${ DNS1123_LABEL }(\\.${ DNS1123_LABEL })*$`);

export const DNS1123_SUBDOMAIN_MAX = 253;
/** validation.go, qualifiedNameFmt: the name part of a label key, and a label value. */
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

export const QUALIFIED_NAME_MAX = 63;
export const LABEL_VALUE_MAX = 63;

/**
 * The largest integer the browser sends exactly. The CRD's `concurrency` is an int64
 * (tests/fixtures/elemental/crds, `format: int64`), but a JSON number past 2^53 − 1 is rounded
 * (99999999999999999999 would be written as 1e20): the form refuses it instead.
 */
export const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/** What a display shows of a message at most (a server error may echo a megabyte). */
export const DISPLAY_TEXT_MAX = 300;

function problem(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `${ KEY }.${ name }`, values } : { key: `${ KEY }.${ name }` };
}

/** metadata.name of a namespaced custom resource: a DNS-1123 subdomain (validation.go, IsDNS1123Subdomain). */
export function resourceNameProblem(name: string): Reason | undefined {
  if (!name) {
    return problem('nameRequired');
  }
  if (name.length > DNS1123_SUBDOMAIN_MAX) {
    return problem('nameTooLong', { max: DNS1123_SUBDOMAIN_MAX });
  }
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return problem('nameInvalid');
  }

  return undefined;
}

/** A namespace: a DNS-1123 label of at most 63 characters (validation.go, IsDNS1123Label). */
export function namespaceProblem(namespace: string): Reason | undefined {
  if (!namespace) {
    return problem('namespaceRequired');
  }
  if (namespace.length > QUALIFIED_NAME_MAX || !new RegExp(`^${ DNS1123_LABEL }$`).test(namespace)) {
    return problem('namespaceInvalid', { max: QUALIFIED_NAME_MAX });
  }

  return undefined;
}

/** A label key: `[prefix/]name` (validation.go, IsQualifiedName). */
export function labelKeyProblem(key: string): Reason | undefined {
  if (!key) {
    return problem('labelKeyRequired');
  }
  const parts = key.split('/');

  if (parts.length > 2) {
    return problem('labelKeyInvalid', { key });
  }
  const name = parts[parts.length - 1];
  const prefix = parts.length === 2 ? parts[0] : undefined;

  if (prefix !== undefined && (!prefix || prefix.length > DNS1123_SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(prefix))) {
    return problem('labelKeyPrefixInvalid', { key: truncateForDisplay(key, 80), max: DNS1123_SUBDOMAIN_MAX });
  }
  if (name.length > QUALIFIED_NAME_MAX) {
    return problem('labelKeyTooLong', { key: truncateForDisplay(key, 80), max: QUALIFIED_NAME_MAX });
  }
  if (!QUALIFIED_NAME.test(name)) {
    return problem('labelKeyInvalid', { key: truncateForDisplay(key, 80) });
  }

  return undefined;
}

/** A label value: empty, or at most 63 of `A-Z a-z 0-9 - _ .`, alphanumeric at both ends (validation.go, IsValidLabelValue). */
export function labelValueProblem(value: string): Reason | undefined {
  if (value.length > LABEL_VALUE_MAX) {
    return problem('labelValueTooLong', { max: LABEL_VALUE_MAX, length: value.length });
  }
  if (value && !QUALIFIED_NAME.test(value)) {
    return problem('labelValueInvalid', { value: truncateForDisplay(value, 80) });
  }

  return undefined;
}

export interface LabelRow {
  key: string;
  value: string;
}

/** The first problem of a key=value pair. */
export function labelProblem(row: LabelRow): Reason | undefined {
  return labelKeyProblem(row.key) ?? labelValueProblem(row.value);
}

export interface ParsedLabels {
  labels: Record<string, string>;
  /** Empty when every part is a valid `key=value` and no key repeats. */
  problems: Reason[];
}

/** `a=1, b=2` → labels, with a problem for every part that is not a valid `key=value` (nothing is left out silently). */
export function parseLabelText(text: string): ParsedLabels {
  const labels: Record<string, string> = {};
  const problems: Reason[] = [];

  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');

    if (eq < 0) {
      problems.push(problem('labelPartInvalid', { part: truncateForDisplay(part, 80) }));
      continue;
    }
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const rowProblem = labelProblem({ key, value });

    if (rowProblem) {
      problems.push(rowProblem);
    } else if (key in labels) {
      problems.push(problem('labelKeyRepeated', { key }));
    } else {
      labels[key] = value;
    }
  }
  if (!problems.length && !Object.keys(labels).length) {
    problems.push(problem('labelsRequired'));
  }

  return { labels, problems };
}

export interface IntegerBounds {
  min: number;
  max?: number;
}

/** A whole number typed as text, within bounds (max defaults to the largest the browser sends exactly). */
export function integerProblem(text: string, bounds: IntegerBounds): Reason | undefined {
  const max = bounds.max ?? MAX_EXACT_INTEGER;
  const trimmed = text.trim();

  if (!/^-?\d+$/.test(trimmed)) {
    return problem('integerInvalid', { min: bounds.min, max });
  }
  const value = Number(trimmed);

  if (!Number.isSafeInteger(value) || value < bounds.min || value > max) {
    return problem('integerOutOfRange', { min: bounds.min, max });
  }

  return undefined;
}

/** At most `max` characters of a message for display, ending in '…' when cut. */
export function truncateForDisplay(text: string, max = DISPLAY_TEXT_MAX): string {
  if (text.length <= max) {
    return text;
  }
  const chars = Array.from(text);

  return chars.length > max ? `${ chars.slice(0, Math.max(0, max - 1)).join('') }…` : text;
}
