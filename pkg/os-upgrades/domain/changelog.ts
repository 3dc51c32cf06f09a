import type { OSVersion, Reason } from './types';
import { asOSVersions, compareNewestFirst, isContainerVersion, VersionInput } from './channel';
import { compareText } from './text';
import { Advisory, advisoryCves, Severity, SEVERITIES } from './updatelog';
import { advisoryDelivery, PackageLists, PackageProof } from './advisory-evidence';

/** Which rule decided that an advisory belongs to a changelog (README rule "Changelog"). */
export type ChangelogEvidence = 'packages' | 'date' | 'none';

/** An advisory with the version whose log first lists it (oldest first in the span). */
export interface ChangelogEntry extends Advisory {
  versionName: string;
  /** `packages`: the package diff proves it (see `proof`); `date`: only its date says so. */
  evidence?: 'packages' | 'date';
  /** With package evidence: the packages whose versions prove it. */
  proof?: PackageProof[];
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
  /** Problems with the request (unknown version, not a container); the result is still usable. */
  problems: Reason[];
  /**
   * `packages` when both package lists decided, `date` when a list was missing and the dates
   * did, `none` when nothing could (same image, unknown version, or across channels without
   * both lists).
   */
  evidence: ChangelogEvidence;
  /** `from` and `to` are in different channels (or namespaces). */
  crossChannel: boolean;
  /** True when the advisories cannot be known (across channels without both package lists). */
  advisoriesUnknown: boolean;
  /** Package evidence: advisories of the span that the older image already had (not changes). */
  alreadyHad: ChangelogEntry[];
  /** Package evidence: advisories of the span that name no package, so nothing can prove them (not listed). */
  unprovable: ChangelogEntry[];
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

  return matches.find((version) => isContainerVersion(version)) ?? matches[0];
}

function hasOwn<T>(record: Record<string, T> | undefined, name: string): boolean {
  return !!record && Object.prototype.hasOwnProperty.call(record, name);
}

function packageList(packages: PackageLists | undefined, name: string) {
  const list = hasOwn(packages, name) ? packages?.[name] : undefined;

  return Array.isArray(list) ? list : undefined;
}

/**
 * The versions whose logs are read, newest first. Same channel: every container version of
 * it after the older image up to the newer one. Across channels: every container version of
 * the newer image's channel up to the newer one (the older one is in no order with them).
 */
function spanOf(all: OSVersion[], older: OSVersion, newer: OSVersion, crossChannel: boolean): OSVersion[] {
  return all
    .filter((version) => isContainerVersion(version) && version.channel === newer.channel && version.namespace === newer.namespace &&
      compareNewestFirst(version, newer) >= 0 && (crossChannel || compareNewestFirst(version, older) < 0))
    .sort(compareNewestFirst);
}

/**
 * README rule "Changelog": the changelog between two images, `from` → `to`, in any channels. The span
 * (spanOf) gives the logs; their advisories are de-duplicated by id and kept:
 * - with both package lists (`packages`, version name → list): when the move from the older to
 *   the newer image delivers them (advisoryDelivery), whatever their dates; those the older
 *   image already had are returned apart in `alreadyHad`;
 * - otherwise, same channel only: when dated after the older image's `created` (where both
 *   dates exist);
 * - otherwise (across channels): none, `advisoriesUnknown` is true.
 * A downgrade gives the same advisories: what it takes away. Never throws.
 */
/** What a changelog between two images reads, known before any log arrives (planChangelog). */
export interface ChangelogPlan {
  from?: OSVersion;
  to?: OSVersion;
  direction: Changelog['direction'];
  crossChannel: boolean;
  /** The container versions whose logs are read, newest first (their names: `span`). */
  spanVersions: OSVersion[];
  span: string[];
  problems: Reason[];
}

/**
 * The first half of README rule "Changelog", without any log: the two images, the direction and the span
 * (spanOf) whose logs the changelog reads. A page plans once, fetches the span's files, then
 * aggregates once (aggregatePlan). Never throws.
 */
export function planChangelog(versions: readonly VersionInput[], fromName: string, toName: string): ChangelogPlan {
  const all = asOSVersions(versions);
  const from = findVersion(all, fromName);
  const to = findVersion(all, toName);
  const plan: ChangelogPlan = {
    direction: 'same', crossChannel: false, spanVersions: [], span: [], problems: []
  };

  if (from) {
    plan.from = from;
  } else {
    plan.problems.push(problem('unknownVersion', { name: fromName }));
  }
  if (to) {
    plan.to = to;
  } else {
    plan.problems.push(problem('unknownVersion', { name: toName }));
  }
  if (!from || !to || from === to) {
    return plan;
  }
  const order = compareNewestFirst(from, to);

  plan.direction = order > 0 ? 'upgrade' : 'downgrade';
  const [older, newer] = order > 0 ? [from, to] : [to, from];

  plan.crossChannel = older.channel !== newer.channel || older.namespace !== newer.namespace;
  for (const version of [from, to]) {
    if (version.type !== 'container') {
      plan.problems.push(problem('notContainer', { name: version.name, type: version.type }));
    }
  }
  plan.spanVersions = spanOf(all, older, newer, plan.crossChannel);
  plan.span = plan.spanVersions.map((version) => version.name);

  return plan;
}

/** README rule "Changelog" whole: planChangelog, then aggregatePlan over the logs and package lists. */
export function aggregateChangelog(versions: readonly VersionInput[], fromName: string, toName: string, logs: UpdateLogs, packages?: PackageLists): Changelog {
  return aggregatePlan(planChangelog(versions, fromName, toName), logs, packages);
}

/** The second half of README rule "Changelog": the advisories of a planned span's logs (see aggregateChangelog). */
export function aggregatePlan(plan: ChangelogPlan, logs: UpdateLogs, packages?: PackageLists): Changelog {
  const { from, to } = plan;
  const result: Changelog = {
    direction:         plan.direction,
    span:              [...plan.span],
    missing:           [],
    advisories:        [],
    summary:           emptySummary(),
    cves:              [],
    problems:          [...plan.problems],
    evidence:          'none',
    crossChannel:      plan.crossChannel,
    advisoriesUnknown: false,
    alreadyHad:        [],
    unprovable:        [],
  };

  if (from) {
    result.from = from;
  }
  if (to) {
    result.to = to;
  }
  if (!from || !to || plan.direction === 'same') {
    return result;
  }
  const [older, newer] = plan.direction === 'upgrade' ? [from, to] : [to, from];
  const span = plan.spanVersions;
  const hasLog = (name: string) => hasOwn(logs ?? {}, name) && Array.isArray(logs[name]);
  const olderList = packageList(packages, older.name);
  const newerList = packageList(packages, newer.name);

  result.missing = result.span.filter((name) => !hasLog(name));
  result.evidence = olderList && newerList ? 'packages' : result.crossChannel ? 'none' : 'date';
  if (result.evidence === 'none') {
    result.advisoriesUnknown = true;

    return result;
  }

  const since = older.created;
  const byId = new Map<string, ChangelogEntry>();
  const withoutId: ChangelogEntry[] = [];
  const alreadyHad = new Map<string, ChangelogEntry>();
  const unprovable: ChangelogEntry[] = [];
  const seen = new Set<string>();

  // Oldest first, so an advisory is attributed to the first version that lists it.
  for (let i = span.length - 1; i >= 0; i--) {
    const name = span[i].name;

    if (!hasLog(name)) {
      continue;
    }
    for (const advisory of logs[name] as readonly Advisory[]) {
      if (advisory.id && seen.has(advisory.id)) {
        continue;
      }
      let entry: ChangelogEntry;

      if (olderList && newerList) {
        const delivery = advisoryDelivery(advisory, olderList, newerList);

        if (!delivery.delivered) {
          if (delivery.alreadyHad && advisory.id) {
            alreadyHad.set(advisory.id, {
              ...advisory, versionName: name, evidence: 'packages'
            });
            seen.add(advisory.id);
          } else if (!advisory.packages.some((pkg) => pkg.name && pkg.version)) {
            unprovable.push({ ...advisory, versionName: name });
            if (advisory.id) {
              seen.add(advisory.id);
            }
          }
          continue;
        }
        entry = {
          ...advisory, versionName: name, evidence: 'packages', proof: delivery.proof
        };
      } else {
        if (since !== undefined && advisory.date !== undefined && advisory.date <= since) {
          continue;
        }
        entry = {
          ...advisory, versionName: name, evidence: 'date'
        };
      }
      if (!advisory.id) {
        withoutId.push(entry);
      } else {
        seen.add(advisory.id);
        byId.set(advisory.id, entry);
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
  result.alreadyHad = [...alreadyHad.values()].sort(compareAdvisories);
  result.unprovable = unprovable.sort(compareAdvisories);
  result.cves = [...cves].sort(compareText);

  return result;
}
