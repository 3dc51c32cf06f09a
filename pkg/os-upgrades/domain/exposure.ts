// What a pool is exposed to (pkg/os-upgrades/domain/README.md, rule "Exposure"): the advisories its pin
// lacks against the newest image of its channel, by the changelog's evidence rule (rule "Changelog").
import type { OSVersion } from './types';
import { asOSVersions, compareNewestFirst, isContainerVersion, VersionInput } from './channel';
import {
  aggregateChangelog, ChangelogEntry, ChangelogEvidence, SeveritySummary, UpdateLogs
} from './changelog';
import type { PackageLists } from './advisory-evidence';
import { imagesFixingCve } from './image-search';
import { readPool, versionsForPool } from './pool';
import { resolveSelector } from './selector';

/**
 * `current`: the pin is the newest image; `behind`: the advisories it lacks are known;
 * `unknown`: it is behind but some logs (or package lists, across channels) are missing;
 * `noPin`: no version pinned (or a raw osImage), or the pin is not a known container image.
 */
export type ExposureStatus = 'current' | 'behind' | 'unknown' | 'noPin';

export interface PoolExposure {
  name: string;
  namespace: string;
  status: ExposureStatus;
  /** The pinned version's name ('' when none). */
  pinName: string;
  pin?: OSVersion;
  /** What the pool's selector would pick now (undefined without a usable selector or with no match). */
  selected?: OSVersion;
  /** The newest usable image of the pin's channel (container, in sync, not being deleted, not withdrawn). */
  newest?: OSVersion;
  /** Usable images of the channel newer than the pin. */
  behind: number;
  /** Advisories delivered by pin → newest (rule "Changelog"); [] when unknown. */
  advisories: ChangelogEntry[];
  summary: SeveritySummary;
  /** CVE ids of those advisories, sorted. */
  cves: string[];
  evidence: ChangelogEvidence;
  /** Versions of the span without a log. */
  missing: string[];
}

function emptySummary(): SeveritySummary {
  return {
    critical: 0, important: 0, moderate: 0, low: 0, none: 0, total: 0
  };
}

/** A version a pool could move to: what "newest" and "behind" count. */
export function isUsableImage(version: OSVersion): boolean {
  return isContainerVersion(version) && version.inSync && !version.terminating && !version.withdrawn;
}

function pinnedVersion(usable: OSVersion[], name: string): OSVersion | undefined {
  return name ? usable.find((version) => version.name === name && isContainerVersion(version)) : undefined;
}

/**
 * Rule "Exposure": the exposure of pool `pool` (a ManagedOSImage) at `now` (unix seconds). Never throws.
 * `logs` and `packages` are by version name (what is known so far).
 */
export function poolExposure(pool: unknown, versions: readonly VersionInput[], logs: UpdateLogs, packages: PackageLists | undefined, now: number): PoolExposure {
  const view = readPool(pool);
  const usable = versionsForPool(versions, view.namespace);
  const pinName = view.osImage ? '' : view.pin ?? '';
  const pin = pinnedVersion(usable, pinName);
  const result: PoolExposure = {
    name:       view.name,
    namespace:  view.namespace,
    status:     'noPin',
    pinName,
    behind:     0,
    advisories: [],
    summary:    emptySummary(),
    cves:       [],
    evidence:   'none',
    missing:    [],
  };

  if (view.selector) {
    const chosen = resolveSelector(view.selector, usable, now).chosen;

    if (chosen) {
      result.selected = chosen;
    }
  }
  if (!pin) {
    return result;
  }
  result.pin = pin;
  const channel = usable
    .filter((version) => version.channel === pin.channel && version.namespace === pin.namespace && isUsableImage(version))
    .sort(compareNewestFirst);
  const newest = channel[0];

  if (newest) {
    result.newest = newest;
  }
  result.behind = channel.filter((version) => compareNewestFirst(version, pin) < 0).length;
  if (!newest || result.behind === 0) {
    result.status = 'current';

    return result;
  }
  const changelog = aggregateChangelog(usable, pin.name, newest.name, logs ?? {}, packages);

  result.evidence = changelog.evidence;
  result.missing = changelog.missing;
  if (changelog.advisoriesUnknown || changelog.missing.length) {
    result.status = 'unknown';

    return result;
  }
  result.status = 'behind';
  result.advisories = changelog.advisories;
  result.summary = changelog.summary;
  result.cves = changelog.cves;

  return result;
}

const STATUS_RANK: Record<ExposureStatus, number> = {
  behind: 0, unknown: 1, noPin: 2, current: 3
};

/** Ranks exposures for the fleet overview: most critical advisories first, then important, moderate, low, then unknown, behind by, name. */
export function compareExposure(a: PoolExposure, b: PoolExposure): number {
  for (const severity of ['critical', 'important', 'moderate', 'low', 'none'] as const) {
    if (a.summary[severity] !== b.summary[severity]) {
      return b.summary[severity] - a.summary[severity];
    }
  }

  return STATUS_RANK[a.status] - STATUS_RANK[b.status] || b.behind - a.behind ||
    (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export interface ExposedPool {
  name: string;
  namespace: string;
  pinName: string;
  /** The oldest image of the pin's channel newer than the pin that has the fix (usable first). */
  fixedBy: string;
}

/**
 * The pools whose pin does not have the fix for `cve` (rule "Exposure"): the pin's channel has an image
 * that fixes it (rule "Image search", `imagesFixingCve`) and the pin is older than that image. Pools whose
 * channel has no known fix are not listed (nothing says they are affected).
 */
export function exposedPools(cve: string, pools: readonly unknown[], versions: readonly VersionInput[], logs: UpdateLogs, packages?: PackageLists): ExposedPool[] {
  const all = asOSVersions(versions);
  const fixes = imagesFixingCve(all, cve, { logs: logs ?? {}, packages: packages ?? {} });
  const exposed: ExposedPool[] = [];

  for (const obj of Array.isArray(pools) ? pools : []) {
    const view = readPool(obj);
    const pinName = view.osImage ? '' : view.pin ?? '';
    const usable = versionsForPool(all, view.namespace);
    const pin = pinnedVersion(usable, pinName);

    if (!pin) {
      continue;
    }
    const fix = fixes.find((candidate) => candidate.channel === pin.channel && candidate.namespace === pin.namespace);

    if (!fix || fix.images.includes(pin.name)) {
      continue;
    }
    const fixing = usable
      .filter((version) => fix.images.includes(version.name) && version.channel === pin.channel && version.namespace === pin.namespace &&
        isContainerVersion(version) && compareNewestFirst(version, pin) < 0)
      .sort((a, b) => Number(isUsableImage(b)) - Number(isUsableImage(a)) || compareNewestFirst(b, a));

    if (fixing.length) {
      exposed.push({
        name: view.name, namespace: view.namespace, pinName, fixedBy: fixing[0].name
      });
    }
  }

  return exposed.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
