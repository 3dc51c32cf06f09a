import { ChangelogFormatError } from './errors';
import { asText, asUnixSeconds, isRecord, utf8Length } from './text';

/** Largest updates log accepted, in bytes of UTF-8. */
export const MAX_UPDATE_LOG_BYTES = 5 * 1024 * 1024;
/** Most advisories accepted in one updates log. */
export const MAX_UPDATE_LOG_ENTRIES = 20000;

export type Severity = 'critical' | 'important' | 'moderate' | 'low' | '';

export const SEVERITIES: readonly Severity[] = ['critical', 'important', 'moderate', 'low', ''];

export interface AdvisoryReference {
  href: string;
  id: string;
  title: string;
  type: string;
}

export interface AdvisoryPackage {
  name: string;
  version: string;
  release: string;
  arch: string;
}

/** One SUSE updateinfo advisory, normalised: every field present, typed. */
export interface Advisory {
  id: string;
  /** `security`, `recommended`, `optional`, `feature`, or what the file says. */
  type: string;
  title: string;
  severity: Severity;
  /** Unix seconds; undefined when missing or unreadable. */
  date?: number;
  references: AdvisoryReference[];
  /** Free text, often Markdown: hostile until sanitised (rule "Hostile content" of domain/README.md). */
  description: string;
  packages: AdvisoryPackage[];
}

function normaliseSeverity(value: unknown): Severity {
  const severity = asText(value).trim().toLowerCase();

  return (SEVERITIES as readonly string[]).includes(severity) ? severity as Severity : '';
}

/** Unix seconds from `"1732636077"`, a number, or an ISO date. */
function advisoryDate(value: unknown): number | undefined {
  const seconds = asUnixSeconds(value);

  if (seconds !== undefined || typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    return seconds;
  }
  const millis = Date.parse(value);

  return Number.isFinite(millis) ? Math.floor(millis / 1000) : undefined;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function toAdvisory(entry: Record<string, unknown>): Advisory {
  const advisory: Advisory = {
    id:         asText(entry.id),
    type:       asText(entry.type),
    title:      asText(entry.title),
    severity:   normaliseSeverity(entry.severity),
    references: records(entry.references).map((reference) => ({
      href:  asText(reference.href),
      id:    asText(reference.id),
      title: asText(reference.title),
      type:  asText(reference.type),
    })),
    description: asText(entry.description),
    packages:    records(entry.packages).map((pkg) => ({
      name:    asText(pkg.name),
      version: asText(pkg.version),
      release: asText(pkg.release),
      arch:    asText(pkg.arch),
    })),
  };
  const date = advisoryDate(entry.date);

  if (date !== undefined) {
    advisory.date = date;
  }

  return advisory;
}

/**
 * Parses an updates log (`<name>.updates.log`, a JSON array of updateinfo advisories) given as
 * text or as already decoded JSON. Throws ChangelogFormatError, and nothing else, when the
 * input is not one or is over the limits. Fields of an advisory are all optional.
 */
export function parseUpdateLog(input: unknown): Advisory[] {
  let data = input;

  if (typeof input === 'string') {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: count only when it matters.
    if (input.length > MAX_UPDATE_LOG_BYTES || (input.length * 3 > MAX_UPDATE_LOG_BYTES && utf8Length(input) > MAX_UPDATE_LOG_BYTES)) {
      throw new ChangelogFormatError('tooLarge', `updates log over ${ MAX_UPDATE_LOG_BYTES } bytes`, { limit: MAX_UPDATE_LOG_BYTES });
    }
    try {
      data = JSON.parse(input);
    } catch (e) {
      throw new ChangelogFormatError('invalidJson', `updates log is not JSON: ${ e instanceof Error ? e.message : String(e) }`);
    }
  }
  if (!Array.isArray(data)) {
    throw new ChangelogFormatError('notAList', 'updates log is not a JSON array');
  }
  if (data.length > MAX_UPDATE_LOG_ENTRIES) {
    throw new ChangelogFormatError('tooManyEntries', `updates log has over ${ MAX_UPDATE_LOG_ENTRIES } advisories`, { limit: MAX_UPDATE_LOG_ENTRIES });
  }

  return data.map((entry, index) => {
    if (!isRecord(entry)) {
      throw new ChangelogFormatError('invalidEntry', `advisory ${ index + 1 } is not an object`, { index: index + 1 });
    }

    return toAdvisory(entry);
  });
}

const CVE_PATTERN = /^CVE-\d{4}-\d{4,}$/;

/** The CVE ids an advisory references (upper case, well-formed only). */
export function advisoryCves(advisory: Advisory): string[] {
  const cves: string[] = [];

  for (const reference of advisory.references) {
    const id = reference.id.trim().toUpperCase();

    if (CVE_PATTERN.test(id) && (reference.type === 'cve' || reference.type === '')) {
      cves.push(id);
    }
  }

  return cves;
}
