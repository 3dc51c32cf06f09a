import type { OSVersion } from './types';
import {
  asRecord, asText, asUnixSeconds, compareText, isRecord
} from './text';
import { cachedParseVersion, compareVersionTexts, ParsedVersion } from './versions';
import { CHANNEL_LABEL, OUT_OF_SYNC_ANNOTATION } from './keys';


function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * A ManagedOSVersion as the API returns it → OSVersion. Never throws: a missing or garbage
 * field becomes '' / [] / undefined.
 */
export function toOSVersion(obj: unknown): OSVersion {
  const metadata = asRecord(isRecord(obj) ? obj.metadata : undefined);
  const spec = asRecord(isRecord(obj) ? obj.spec : undefined);
  const specMetadata = asRecord(spec.metadata);
  const labels = asRecord(metadata.labels);
  const annotations = asRecord(metadata.annotations);
  // The operator compares the type case-insensitively (api/v1beta1 managedosversion_types.go): keep it lower-case.
  const type = asText(spec.type).toLowerCase();
  const image = type === 'iso' ? asText(specMetadata.uri) || asText(specMetadata.upgradeImage) : asText(specMetadata.upgradeImage) || asText(specMetadata.uri);
  const changelogURL = asText(specMetadata.changelogURL);
  const version: OSVersion = {
    name:        asText(metadata.name),
    namespace:   asText(metadata.namespace),
    channel:     asText(labels[CHANNEL_LABEL]),
    version:     asText(spec.version),
    type,
    created:     asUnixSeconds(specMetadata.created),
    displayName: asText(specMetadata.displayName),
    image,
    platforms:   textList(specMetadata.platforms),
    inSync:      asText(annotations[OUT_OF_SYNC_ANNOTATION]).trim().toLowerCase() !== 'true',
    terminating: asText(metadata.deletionTimestamp) !== '',
  };

  if (changelogURL) {
    version.changelogURL = changelogURL;
  }
  if (isRecord(spec.upgradeContainer)) {
    version.upgradeContainer = spec.upgradeContainer;
  }

  return version;
}

function isOSVersion(value: Record<string, unknown>): value is Record<string, unknown> & OSVersion {
  return typeof value.name === 'string' && typeof value.namespace === 'string' && typeof value.channel === 'string' &&
    typeof value.version === 'string' && typeof value.type === 'string' && typeof value.displayName === 'string' &&
    typeof value.image === 'string' && Array.isArray(value.platforms) && typeof value.inSync === 'boolean' &&
    (value.created === undefined || (typeof value.created === 'number' && Number.isFinite(value.created)));
}

/**
 * What the list functions accept: OSVersion records (returned as they are), ManagedOSVersion
 * objects (converted by toOSVersion) or partial records (missing fields filled in).
 */
export type VersionInput = OSVersion | Record<string, unknown>;

export function asOSVersion(input: unknown): OSVersion {
  if (!isRecord(input)) {
    return toOSVersion(undefined);
  }
  if (isRecord(input.metadata) || isRecord(input.spec)) {
    return toOSVersion(input);
  }
  if (isOSVersion(input)) {
    return input;
  }

  return {
    name:        asText(input.name),
    namespace:   asText(input.namespace),
    channel:     asText(input.channel),
    version:     asText(input.version),
    type:        asText(input.type).toLowerCase(),
    created:     asUnixSeconds(input.created),
    displayName: asText(input.displayName),
    image:       asText(input.image),
    platforms:   textList(input.platforms),
    inSync:      input.inSync !== false,
    terminating: input.terminating === true,
    ...(isRecord(input.upgradeContainer) ? { upgradeContainer: input.upgradeContainer } : {}),
    ...(isRecord(input.withdrawn) ? { withdrawn: input.withdrawn as unknown as OSVersion['withdrawn'] } : {}),
  };
}

/** Versions are typed `container` or `iso`; the operator compares the type case-insensitively (api/v1beta1 managedosversion_types.go). */
export function isContainerVersion(version: OSVersion): boolean {
  // toOSVersion and asOSVersion keep the type lower-case already: compare first, lower-case only other records.
  return version.type === 'container' || version.type.toLowerCase() === 'container';
}

export function asOSVersions(inputs: readonly unknown[] | undefined | null): OSVersion[] {
  return Array.isArray(inputs) ? inputs.map(asOSVersion) : [];
}

function parseOf(version: OSVersion, parsed: ParsedVersion | null | undefined): ParsedVersion | undefined {
  return parsed === undefined ? cachedParseVersion(version.version) : parsed ?? undefined;
}

/**
 * Rule "Channel order" of domain/README.md, newest first (negative when `a` is newer): `created` descending (missing =
 * older than any), then version descending, then name ascending; namespace, channel and type
 * only break the last ties. Allocates nothing: it runs O(n log n) times per sort.
 */
export function compareNewestFirst(a: OSVersion, b: OSVersion): number {
  return compareNewestFirstParsed(a, undefined, b, undefined);
}

/**
 * compareNewestFirst with each version's parse (cachedParseVersion of its `version`; null when it
 * does not parse) already in hand, for sorting many: undefined looks it up.
 */
export function compareNewestFirstParsed(a: OSVersion, parsedA: ParsedVersion | null | undefined, b: OSVersion, parsedB: ParsedVersion | null | undefined): number {
  if (a.created !== b.created) {
    if (a.created === undefined) {
      return 1;
    }
    if (b.created === undefined) {
      return -1;
    }

    return a.created < b.created ? 1 : -1;
  }

  return compareVersionTexts(b.version, parseOf(b, parsedB), a.version, parseOf(a, parsedA)) ||
    compareText(a.name, b.name) ||
    compareText(a.namespace, b.namespace) ||
    compareText(a.channel, b.channel) ||
    compareText(a.type, b.type);
}

/** A new array of the versions, newest first (rule "Channel order"). */
export function orderChannel(versions: readonly VersionInput[]): OSVersion[] {
  return asOSVersions(versions).sort(compareNewestFirst);
}

/** True when both versions belong to the same channel of the same namespace. */
export function sameChannel(a: OSVersion, b: OSVersion): boolean {
  return a.channel === b.channel && a.namespace === b.namespace;
}

/**
 * The previous image of container version `name`: the next older container version of its
 * channel (rule "Channel order"). Undefined for an unknown name, an iso, or the oldest version.
 */
export function previousVersion(versions: readonly VersionInput[], name: string): OSVersion | undefined {
  const all = asOSVersions(versions);
  const current = all.find((version) => version.name === name && isContainerVersion(version));

  if (!current) {
    return undefined;
  }
  let previous: OSVersion | undefined;

  for (const version of all) {
    if (version === current || !isContainerVersion(version) || !sameChannel(version, current)) {
      continue;
    }
    if (compareNewestFirst(current, version) < 0 && (!previous || compareNewestFirst(version, previous) < 0)) {
      previous = version;
    }
  }

  return previous;
}

/** Container versions of one channel, newest first. */
export function channelContainers(versions: readonly VersionInput[], channel: string, namespace?: string): OSVersion[] {
  return orderChannel(asOSVersions(versions).filter((version) => isContainerVersion(version) && version.channel === channel &&
    (namespace === undefined || version.namespace === namespace)));
}
