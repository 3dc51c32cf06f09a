import type { OSVersion, Reason } from './types';
import { asOSVersions, compareNewestFirst, VersionInput } from './channel';
import { compareText } from './text';
import { Advisory, advisoryCves, Severity, SEVERITIES } from './updatelog';

/** An advisory with the version whose log first lists it (oldest first in the span). */
export interface ChangelogEntry extends Advisory {
  versionName: string;
}

export type SeveritySummary = Record<'critical' | 'important' | 'moderate' | 'low' | 'none' | 'total', number>;

export interface Changelog {
  from?: OSVersion;
  to?: OSVersion;
  /** `downgrade` when `to` is older than `from`: the span is then what the downgrade takes away. */
  direction: 'upgrade' | 'downgrade' | 'same';
  /** Names of the container versions whose logs are included, newest first. */
  span: string[];
  /** Names of versions in the span that have no log. */
  missing: string[];
  /** De-duplicated by id, by severity, then date (newest first), then id. */
  advisories: ChangelogEntry[];
  summary: SeveritySummary;
  /** Unique CVE ids referenced, sorted (code-unit order). */
  cves: string[];
  /** Problems with the request (unknown version, other channel); the result is still usable. */
  problems: Reason[];
}

/** Version name → parsed advisories (undefined or null: no log). */
export type UpdateLogs = Record<string, readonly Advisory[] | undefined | null>;

const SEVERITY_RANK = new Map<Severity, number>(SEVERITIES.map((severity, index) => [severity, index]));

function problem(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `osUpgrades.changelog.problem.${ name }`, values } : { key: `osUpgrades.changelog.problem.${ name }` };
}

/** Severity (critical first, none last), then date (newest first, no date last), then id. */
export function compareAdvisories(a: Advisory, b: Advisory): number {
  const severity = (SEVERITY_RANK.get(a.severity) ?? SEVERITIES.length) - (SEVERITY_RANK.get(b.severity) ?? SEVERITIES.length);

  if (severity !== 0) {
    return severity;
  }
  if (a.date !== b.date) {
    if (a.date === undefined) {
      return 1;
    }
    if (b.date === undefined) {
      return -1;
    }

    return b.date - a.date;
  }

  return compareText(a.id, b.id);
}

function emptySummary(): SeveritySummary {
  return {
    critical: 0, important: 0, moderate: 0, low: 0, none: 0, total: 0
  };
}

/** The version of that name, a container one when several share it. */
function findVersion(versions: OSVersion[], name: string): OSVersion | undefined {
  const matches = versions.filter((version) => version.name === name);

  return matches.find((version) => version.type === 'container') ?? matches[0];
}

/**
 * Rule 5 of domain/README.md: the changelog between two images. The span is every container version of the
 * newer image's channel (and namespace) that is newer than the older image, up to and including
 * the newer one (rule 1 order). Advisories are de-duplicated by id, and dropped when dated at
 * or before the older image's `created` (where both dates exist). Never throws.
 */
export function aggregateChangelog(versions: readonly VersionInput[], fromName: string, toName: string, logs: UpdateLogs): Changelog {
  const all = asOSVersions(versions);
  const from = findVersion(all, fromName);
  const to = findVersion(all, toName);
  const result: Changelog = {
    direction: 'same', span: [], missing: [], advisories: [], summary: emptySummary(), cves: [], problems: [],
  };

  if (from) {
    result.from = from;
  } else {
    result.problems.push(problem('unknownVersion', { name: fromName }));
  }
  if (to) {
    result.to = to;
  } else {
    result.problems.push(problem('unknownVersion', { name: toName }));
  }
  if (!from || !to || from === to) {
    return result;
  }
  const order = compareNewestFirst(from, to);

  result.direction = order > 0 ? 'upgrade' : 'downgrade';
  const [older, newer] = order > 0 ? [from, to] : [to, from];

  if (older.channel !== newer.channel || older.namespace !== newer.namespace) {
    result.problems.push(problem('otherChannel', { from: older.channel, to: newer.channel }));
  }
  for (const version of [from, to]) {
    if (version.type !== 'container') {
      result.problems.push(problem('notContainer', { name: version.name, type: version.type }));
    }
  }

  const span = all
    .filter((version) => version.type === 'container' && version.channel === newer.channel && version.namespace === newer.namespace &&
      compareNewestFirst(version, older) < 0 && compareNewestFirst(version, newer) >= 0)
    .sort(compareNewestFirst);
  const hasLog = (name: string) => Object.prototype.hasOwnProperty.call(logs ?? {}, name) && Array.isArray(logs[name]);
  const since = older.created;
  const byId = new Map<string, ChangelogEntry>();
  const withoutId: ChangelogEntry[] = [];

  result.span = span.map((version) => version.name);
  result.missing = result.span.filter((name) => !hasLog(name));

  // Oldest first, so an advisory is attributed to the first version that lists it.
  for (let i = span.length - 1; i >= 0; i--) {
    const name = span[i].name;

    if (!hasLog(name)) {
      continue;
    }
    for (const advisory of logs[name] as readonly Advisory[]) {
      if (since !== undefined && advisory.date !== undefined && advisory.date <= since) {
        continue;
      }
      if (!advisory.id) {
        withoutId.push({ ...advisory, versionName: name });
      } else if (!byId.has(advisory.id)) {
        byId.set(advisory.id, { ...advisory, versionName: name });
      }
    }
  }

  const advisories = [...byId.values(), ...withoutId].sort(compareAdvisories);
  const cves = new Set<string>();

  for (const advisory of advisories) {
    result.summary[advisory.severity || 'none']++;
    for (const cve of advisoryCves(advisory)) {
      cves.add(cve);
    }
  }
  result.summary.total = advisories.length;
  result.advisories = advisories;
  result.cves = [...cves].sort(compareText);

  return result;
}
