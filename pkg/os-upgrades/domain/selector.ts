import type { OSVersion, Reason } from './types';
import {
  asOSVersion, compareRanked, rank, RankedVersion, VersionInput
} from './channel';
import { parseVersionRange, rangeIncludes, VersionRange } from './range';
import { isRecord } from './text';

/** How a pool names its image by rule instead of by ID (DESIGN rule 3). Stored as JSON. */
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
  reasons: Reason[];
}

export interface Resolution {
  /** The newest candidate; undefined when nothing matches. */
  chosen?: OSVersion;
  /** Every matching container version, newest first (rule 1). */
  candidates: OSVersion[];
  /** Every other version, newest first, with all the reasons it failed. */
  rejected: Rejection[];
  /** Selector errors; when there are any, every version is rejected with `invalidSelector`. */
  errors: SelectorError[];
}

function reason(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `${ REASON }.${ name }`, values } : { key: `${ REASON }.${ name }` };
}

/** Why one container version does not match; [] when it matches. */
function mismatches(selector: ImageSelector, range: VersionRange | undefined, item: RankedVersion, now: number): Reason[] {
  const version = item.version;
  const reasons: Reason[] = [];

  if (selector.channel !== undefined && version.channel !== selector.channel) {
    reasons.push(reason('channelMismatch', { expected: selector.channel, actual: version.channel }));
  }
  if (!selector.includeOutOfSync && !version.inSync) {
    reasons.push(reason('outOfSync'));
  }
  if (range) {
    const parsed = item.key.parsed;

    if (!parsed) {
      reasons.push(reason('versionUnparsable', { version: version.version }));
    } else if (!rangeIncludes(range, parsed.base.map(Number))) {
      reasons.push(reason('versionOutOfRange', { range: selector.version, version: version.version }));
    }
  }
  if (selector.displayName !== undefined && version.displayName !== selector.displayName) {
    reasons.push(reason('displayNameMismatch', { expected: selector.displayName, actual: version.displayName }));
  }
  if (selector.platform !== undefined && !version.platforms.includes(selector.platform)) {
    reasons.push(reason('platformMissing', { platform: selector.platform, platforms: version.platforms.join(', ') }));
  }
  if (selector.minAgeHours !== undefined) {
    if (version.created === undefined) {
      reasons.push(reason('noCreated', { minAgeHours: selector.minAgeHours }));
    } else if (!Number.isFinite(now)) {
      reasons.push(reason('ageUnknown', { minAgeHours: selector.minAgeHours }));
    } else {
      const ageHours = (now - version.created) / 3600;

      if (ageHours < selector.minAgeHours) {
        reasons.push(reason('tooYoung', { minAgeHours: selector.minAgeHours, ageHours: Math.floor(ageHours * 10) / 10 }));
      }
    }
  }

  return reasons;
}

/**
 * DESIGN rule 3: which version the selector picks at `now` (unix seconds), every candidate
 * ranked by rule 1, and every rejected version with its reasons. A pure function of its
 * inputs; never throws; no match is a result with `chosen` undefined.
 */
export function resolveSelector(selectorInput: ImageSelector | unknown, versions: readonly VersionInput[], now: number): Resolution {
  const parsed = parseSelector(selectorInput);
  const ranked = (Array.isArray(versions) ? versions : []).map((input) => rank(asOSVersion(input))).sort(compareRanked);
  const candidates: OSVersion[] = [];
  const rejected: Rejection[] = [];

  if (!parsed.selector) {
    return {
      candidates, errors: parsed.errors, rejected: ranked.map((item) => ({ version: item.version, reasons: [reason('invalidSelector')] })),
    };
  }
  const selector = parsed.selector;
  const range = selector.version === undefined ? undefined : parseVersionRange(selector.version);

  for (const item of ranked) {
    const reasons = item.version.type === 'container' ? mismatches(selector, range, item, now) : [reason('notContainer', { type: item.version.type })];

    if (reasons.length) {
      rejected.push({ version: item.version, reasons });
    } else {
      candidates.push(item.version);
    }
  }

  return {
    chosen: candidates[0], candidates, rejected, errors: [],
  };
}
