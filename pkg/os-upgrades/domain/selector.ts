import type { OSVersion, Reason } from './types';
import {
  asOSVersions, compareNewestFirst, compareNewestFirstParsed, isContainerVersion, VersionInput
} from './channel';
import { parseVersionRange, rangeIncludes, VersionRange } from './range';
import { isRecord } from './text';
import { cachedParseVersion, ParsedVersion } from './versions';

/** How a pool names its image by rule instead of by ID (rule "Selector" of domain/README.md). Stored as JSON. */
export interface ImageSelector {
  /** Channel name (label `elemental.cattle.io/channel`). */
  channel?: string;
  /** Semver range matched against the base version only, e.g. `>=2.2.0 <2.3.0`, `~2.2`. */
  version?: string;
  /** Exact display name. */
  displayName?: string;
  /** `os/arch`, e.g. `linux/aarch64`: must be listed in the version's platforms. */
  platform?: string;
  /** Soak time: skip images younger than this many hours. */
  minAgeHours?: number;
  /** Also consider versions the channel no longer lists (default false). */
  includeOutOfSync?: boolean;
}

/** A selector validation error: the field it is about ('' for the whole selector) and an l10n key. */
export interface SelectorError extends Reason {
  field: string;
}

export interface ParsedSelector {
  /** The selector with only the fields that are set, in a fixed order; undefined when invalid. */
  selector?: ImageSelector;
  errors: SelectorError[];
}

const ERROR = 'osUpgrades.selector.error';
const REASON = 'osUpgrades.selector.reason';
const STRING_FIELDS = ['channel', 'version', 'displayName', 'platform'] as const;
const KNOWN_FIELDS = new Set<string>([...STRING_FIELDS, 'minAgeHours', 'includeOutOfSync']);
const PLATFORM_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/;

function error(field: string, reason: string, values?: Record<string, unknown>): SelectorError {
  return values ? {
    field, key: `${ ERROR }.${ reason }`, values
  } : { field, key: `${ ERROR }.${ reason }` };
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/** Field-by-field errors of a selector object; [] when it is valid. */
export function validateSelector(selector: unknown): SelectorError[] {
  if (!isRecord(selector)) {
    return [error('', 'notAnObject')];
  }
  const errors: SelectorError[] = [];

  for (const field of Object.keys(selector)) {
    if (!KNOWN_FIELDS.has(field)) {
      errors.push(error(field, 'unknownKey', { field }));
    }
  }
  for (const field of STRING_FIELDS) {
    const value = selector[field];

    if (isSet(value) && typeof value !== 'string') {
      errors.push(error(field, 'notAString', { field }));
    }
  }
  if (typeof selector.version === 'string' && isSet(selector.version) && !parseVersionRange(selector.version)) {
    errors.push(error('version', 'badVersionRange', { value: selector.version }));
  }
  if (typeof selector.platform === 'string' && isSet(selector.platform) && !PLATFORM_PATTERN.test(selector.platform)) {
    errors.push(error('platform', 'badPlatform', { value: selector.platform }));
  }
  if (isSet(selector.minAgeHours)) {
    const hours = selector.minAgeHours;

    if (typeof hours !== 'number' || !Number.isFinite(hours)) {
      errors.push(error('minAgeHours', 'notANumber', { field: 'minAgeHours' }));
    } else if (hours < 0) {
      errors.push(error('minAgeHours', 'negative', { field: 'minAgeHours', value: hours }));
    }
  }
  if (isSet(selector.includeOutOfSync) && typeof selector.includeOutOfSync !== 'boolean') {
    errors.push(error('includeOutOfSync', 'notABoolean', { field: 'includeOutOfSync' }));
  }

  return errors;
}

/** The selector's set fields in a fixed order (so its JSON is stable). Assumes it is valid. */
function cleanSelector(selector: Record<string, unknown>): ImageSelector {
  const clean: ImageSelector = {};

  for (const field of STRING_FIELDS) {
    if (isSet(selector[field])) {
      clean[field] = selector[field] as string;
    }
  }
  if (isSet(selector.minAgeHours)) {
    clean.minAgeHours = selector.minAgeHours as number;
  }
  if (selector.includeOutOfSync === true) {
    clean.includeOutOfSync = true;
  }

  return clean;
}

/** A selector from JSON text or an object. Never throws. */
export function parseSelector(input: unknown): ParsedSelector {
  let value = input;

  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { errors: [error('', 'invalidJson')] };
    }
  }
  const errors = validateSelector(value);

  return errors.length || !isRecord(value) ? { errors } : { selector: cleanSelector(value), errors };
}

/** The JSON stored in the pool annotation: set fields only, fixed order. */
export function serializeSelector(selector: ImageSelector): string {
  return JSON.stringify(cleanSelector(selector as Record<string, unknown>));
}

export interface Rejection {
  version: OSVersion;
  /** Reason objects are frozen, and shared with the versions that fail the same way. */
  reasons: Reason[];
}

export interface Resolution {
  /** The newest candidate; undefined when nothing matches. */
  chosen?: OSVersion;
  /** Every matching container version, newest first (rule "Channel order"). */
  candidates: OSVersion[];
  /** Every other version, newest first, with all the reasons it failed. */
  rejected: Rejection[];
  /** Selector errors; when there are any, every version is rejected with `invalidSelector`. */
  errors: SelectorError[];
}

function reason(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `${ REASON }.${ name }`, values } : { key: `${ REASON }.${ name }` };
}

// Keys of the reasons built once per version (their values name the version): built once here, not
// concatenated again for each of 10,000 versions.
const VERSION_UNPARSABLE = `${ REASON }.versionUnparsable`;
const VERSION_OUT_OF_RANGE = `${ REASON }.versionOutOfRange`;
const TOO_YOUNG = `${ REASON }.tooYoung`;

/** A reason shared between versions: frozen, so that no consumer can change it for all of them. */
function sharedReason(name: string, values?: Record<string, unknown>): Reason {
  return Object.freeze(reason(name, values && Object.freeze(values)));
}

const INVALID_SELECTOR = sharedReason('invalidSelector');

/**
 * Reasons whose values do not depend on the version itself are shared (frozen) between the
 * versions that fail the same way: resolving 10,000 versions must not build 20,000 of them.
 */
class ReasonCache {
  // By reason name, then by the version's value: no string is built to look a reason up.
  private readonly byName = new Map<string, Map<string, Reason>>();

  constructor(private readonly selector: ImageSelector) {}

  get(name: string, actual = ''): Reason {
    let byValue = this.byName.get(name);

    if (!byValue) {
      byValue = new Map();
      this.byName.set(name, byValue);
    }
    let cached = byValue.get(actual);

    if (!cached) {
      cached = sharedReason(name, this.values(name, actual));
      byValue.set(actual, cached);
    }

    return cached;
  }

  private values(name: string, actual: string): Record<string, unknown> | undefined {
    const selector = this.selector;

    switch (name) {
    case 'notContainer':
      return { type: actual };
    case 'channelMismatch':
      return { expected: selector.channel, actual };
    case 'displayNameMismatch':
      return { expected: selector.displayName, actual };
    case 'platformMissing':
      return { platform: selector.platform, platforms: actual };
    case 'noCreated':
    case 'ageUnknown':
      return { minAgeHours: selector.minAgeHours };
    default:
      return undefined;
    }
  }
}

// The reasons of the version being checked. A reason list kept in the result is a copy of its
// exact length: an array grown from [] by push reserves 17 places, and at 8,000 rejected versions
// those dominated what each resolution left for the garbage collector.
const found: Reason[] = [];
let foundCount = 0;

function add(reasonFound: Reason): void {
  found[foundCount++] = reasonFound;
}

/** Why one container version does not match; undefined when it matches. */
function mismatches(selector: ImageSelector, range: VersionRange | undefined, version: OSVersion, parsed: ParsedVersion | null, now: number, reasons: ReasonCache): Reason[] | undefined {
  foundCount = 0;

  if (selector.channel !== undefined && version.channel !== selector.channel) {
    add(reasons.get('channelMismatch', version.channel));
  }
  if (!selector.includeOutOfSync && !version.inSync) {
    add(reasons.get('outOfSync'));
  }
  if (range) {
    if (!parsed) {
      add({ key: VERSION_UNPARSABLE, values: { version: version.version } });
    } else if (!rangeIncludes(range, parsed.base)) {
      add({ key: VERSION_OUT_OF_RANGE, values: { range: selector.version, version: version.version } });
    }
  }
  if (selector.displayName !== undefined && version.displayName !== selector.displayName) {
    add(reasons.get('displayNameMismatch', version.displayName));
  }
  if (selector.platform !== undefined && !version.platforms.includes(selector.platform)) {
    add(reasons.get('platformMissing', version.platforms.join(', ')));
  }
  if (selector.minAgeHours !== undefined) {
    if (version.created === undefined) {
      add(reasons.get('noCreated'));
    } else if (!Number.isFinite(now)) {
      add(reasons.get('ageUnknown'));
    } else {
      const ageHours = (now - version.created) / 3600;

      if (ageHours < selector.minAgeHours) {
        add({ key: TOO_YOUNG, values: { minAgeHours: selector.minAgeHours, ageHours: Math.floor(ageHours * 10) / 10 } });
      }
    }
  }

  return foundCount ? found.slice(0, foundCount) : undefined;
}

/**
 * Rule "Selector" of domain/README.md: which version the selector picks at `now` (unix seconds), every candidate
 * ranked by rule "Channel order", and every rejected version with its reasons. A pure function of its
 * inputs; never throws; no match is a result with `chosen` undefined.
 */
export function resolveSelector(selectorInput: ImageSelector | unknown, versions: readonly VersionInput[], now: number): Resolution {
  const parsed = parseSelector(selectorInput);
  const all = asOSVersions(versions);

  if (!parsed.selector) {
    return {
      candidates: [], errors: parsed.errors, rejected: all.sort(compareNewestFirst).map((version) => ({ version, reasons: [INVALID_SELECTOR] })),
    };
  }
  const selector = parsed.selector;
  const range = selector.version === undefined ? undefined : parseVersionRange(selector.version);
  const reasons = new ReasonCache(selector);
  // Each version's parse, looked up once: the sorts below compare on it about 14 times a version.
  const parses = all.map((version) => cachedParseVersion(version.version) ?? null);
  const matched: number[] = [];
  const failedAt: number[] = [];
  const failures: Reason[][] = new Array(all.length);

  for (let i = 0; i < all.length; i++) {
    const version = all[i];
    let failed: Reason[] | undefined;

    if (!isContainerVersion(version)) {
      failed = [reasons.get('notContainer', version.type)];
    } else if (version.terminating) {
      // Being deleted: it goes away as soon as no pool pins it (managedosversion_controller.go).
      failed = [reasons.get('terminating')];
    } else if (version.withdrawn) {
      // Withdrawn on its channel (withdrawal.ts): never picked, whatever else matches.
      failed = [reason('withdrawn', { reason: version.withdrawn.reason, by: version.withdrawn.by })];
    } else {
      failed = mismatches(selector, range, version, parses[i], now, reasons);
    }

    if (failed) {
      failures[i] = failed;
      failedAt.push(i);
    } else {
      matched.push(i);
    }
  }
  const newestFirst = (i: number, j: number) => compareNewestFirstParsed(all[i], parses[i], all[j], parses[j]);
  const candidates = matched.sort(newestFirst).map((i) => all[i]);
  const rejected = failedAt.sort(newestFirst).map((i): Rejection => ({ version: all[i], reasons: failures[i] }));

  return {
    chosen: candidates[0], candidates, rejected, errors: [],
  };
}
