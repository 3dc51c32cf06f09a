import type { OSVersion } from './types';
import { asOSVersions, compareNewestFirst, VersionInput } from './channel';
import { compareText } from './text';
import { Advisory, advisoryCves } from './updatelog';
import { aggregateChangelog, ChangelogEvidence, UpdateLogs } from './changelog';
import { advisoryDelivery, PackageLists } from './advisory-evidence';
import { formatPackageVersion } from './packages';

/** What a search knows so far: parsed package lists and logs, by version name. */
export interface ImageSearchIndex {
  packages?: PackageLists;
  logs?: UpdateLogs;
}

export type ImageMatchField = 'name' | 'version' | 'displayName' | 'package' | 'cve';

/** One reason an image matched: the field, and the text there that matched. */
export interface ImageMatch {
  field: ImageMatchField;
  /** The image name, version, display name; `name-version-release` of a package; a CVE id. */
  text: string;
  /** For `cve`: the advisory that references it. */
  advisoryId?: string;
}

export interface ImageHit {
  version: OSVersion;
  matches: ImageMatch[];
}

function own<T>(record: Record<string, T> | undefined, name: string): T | undefined {
  return record && Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/** By channel and namespace, then newest first: the order of hits and of fixing images. */
function compareByChannel(a: OSVersion, b: OSVersion): number {
  return compareText(a.namespace, b.namespace) || compareText(a.channel, b.channel) || compareNewestFirst(a, b);
}

/**
 * Finds images by text (case-insensitive, trimmed): a part of the image name, version or
 * display name; the exact name of an installed package, or its `name-version[-release]` (a
 * prefix of it after `name-`); a CVE id (exact) referenced by an advisory of the image's log.
 * Only what `index` holds is searched. Hits are ordered by namespace, channel, newest first;
 * each lists what matched. An empty query finds nothing.
 */
export function searchImages(versions: readonly VersionInput[], query: string, index: ImageSearchIndex): ImageHit[] {
  const needle = String(query ?? '').trim().toLowerCase();

  if (!needle) {
    return [];
  }
  const hits: ImageHit[] = [];

  for (const version of asOSVersions(versions)) {
    const matches: ImageMatch[] = [];
    const text = (field: 'name' | 'version' | 'displayName') => {
      if (version[field] && version[field].toLowerCase().includes(needle)) {
        matches.push({ field, text: version[field] });
      }
    };

    text('name');
    text('version');
    text('displayName');
    for (const pkg of own(index.packages, version.name) ?? []) {
      const name = pkg.name.toLowerCase();
      const full = `${ pkg.name }-${ formatPackageVersion(pkg) }`;

      if (name === needle || (needle.startsWith(`${ name }-`) && full.toLowerCase().startsWith(needle))) {
        matches.push({ field: 'package', text: full });
      }
    }
    for (const advisory of own(index.logs, version.name) ?? []) {
      for (const cve of advisoryCves(advisory)) {
        if (cve.toLowerCase() === needle) {
          matches.push({
            field: 'cve', text: cve, advisoryId: advisory.id
          });
        }
      }
    }
    if (matches.length) {
      hits.push({ version, matches });
    }
  }

  return hits.sort((a, b) => compareByChannel(a.version, b.version));
}

/** The images of one channel that hold a fix: the first that delivers it, and every later one. */
export interface CveFix {
  namespace: string;
  channel: string;
  /** The first image (oldest) whose changelog delivers the CVE's fix. */
  first: string;
  /** That image and every later container image of the channel, newest first. */
  images: string[];
  /** How `first` was decided: `packages` when both package lists proved it, else `date`. */
  evidence: Exclude<ChangelogEvidence, 'none'>;
}

/**
 * "Which images fix CVE-X": per channel (and namespace), walking its container images oldest
 * first, the first image whose changelog from the previous image delivers an advisory that
 * references the CVE (aggregateChangelog, with package evidence where both lists are known;
 * an advisory found in any log of the index counts). The oldest image of a channel delivers
 * it when its own log lists it (and, with its package list known, it has the fix installed).
 * Channels where no image delivers it are left out.
 */
export function imagesFixingCve(versions: readonly VersionInput[], cve: string, index: ImageSearchIndex): CveFix[] {
  const wanted = String(cve ?? '').trim().toUpperCase();
  const all = asOSVersions(versions);
  const advisories = new Map<string, Advisory>();

  for (const name of Object.keys(index.logs ?? {})) {
    for (const advisory of own(index.logs, name) ?? []) {
      if (advisoryCves(advisory).includes(wanted)) {
        advisories.set(advisory.id || `${ name }#${ advisories.size }`, advisory);
      }
    }
  }
  if (!wanted || !advisories.size) {
    return [];
  }
  const channels = new Map<string, OSVersion[]>();

  for (const version of all) {
    if (version.type === 'container') {
      const key = `${ version.namespace }\u0000${ version.channel }`;

      channels.set(key, [...(channels.get(key) ?? []), version]);
    }
  }
  const fixes: CveFix[] = [];

  for (const members of channels.values()) {
    const newestFirst = members.sort(compareNewestFirst);

    for (let i = newestFirst.length - 1; i >= 0; i--) {
      const evidence = delivers(all, newestFirst[i + 1], newestFirst[i], wanted, advisories, index);

      if (evidence) {
        fixes.push({
          namespace: newestFirst[i].namespace,
          channel:   newestFirst[i].channel,
          first:     newestFirst[i].name,
          images:    newestFirst.slice(0, i + 1).map((version) => version.name),
          evidence,
        });
        break;
      }
    }
  }

  return fixes.sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.channel, b.channel));
}

/** How `previous` → `image` delivers the CVE, or undefined when it does not (or cannot tell). */
function delivers(
  all: OSVersion[], previous: OSVersion | undefined, image: OSVersion, cve: string, advisories: Map<string, Advisory>, index: ImageSearchIndex
): 'packages' | 'date' | undefined {
  const after = own(index.packages, image.name);
  const before = previous ? own(index.packages, previous.name) : [];

  if (Array.isArray(after) && Array.isArray(before)) {
    return [...advisories.values()].some((advisory) => advisoryDelivery(advisory, before, after).delivered) ? 'packages' : undefined;
  }
  if (!previous) {
    return (own(index.logs, image.name) ?? []).some((advisory) => advisoryCves(advisory).includes(cve)) ? 'date' : undefined;
  }

  return aggregateChangelog(all, previous.name, image.name, index.logs ?? {}).cves.includes(cve) ? 'date' : undefined;
}
