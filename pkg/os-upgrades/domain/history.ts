// Approval history (pkg/os-upgrades/domain/README.md, rule "Approval history"): a bounded list of the changes
// people approved, kept in an annotation of the object they changed (a pool or a channel) and
// written in the same request as the change, so the record and the change cannot part.
import type { KubeObject, Reason } from './types';
import { asText, isRecord } from './text';
import { HISTORY_ANNOTATION } from './keys';

/** Entries kept: the newest ones. */
export const HISTORY_LIMIT = 20;

export type HistoryKind = 'approve' | 'rollback' | 'promote' | 'withdraw' | 'restore';

export const HISTORY_KINDS: readonly HistoryKind[] = ['approve', 'rollback', 'promote', 'withdraw', 'restore'];

/** One top-level spec field an approval wrote: its value before and after (absent when the field was not there). */
export interface SpecChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

export interface HistoryEntry {
  kind: HistoryKind;
  /** The pin before (pool) or '' (channel). */
  from: string;
  /** The pin after (pool) or the version withdrawn or restored (channel). */
  to: string;
  by: string;
  /** ISO 8601 time. */
  at: string;
  comment: string;
  /** Pool moves: the image reference the nodes ran before and are given after (absent in entries written before it was recorded). */
  fromImage?: string;
  toImage?: string;
  /** Pool moves: the spec fields the write changed (absent in entries written before it was recorded). */
  changes?: SpecChange[];
}

export interface HistoryReading {
  /** Oldest first. */
  entries: HistoryEntry[];
  /** Why some or all of the annotation could not be read ([] when all of it could). */
  warnings: Reason[];
}

function warning(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `osUpgrades.history.warning.${ name }`, values } : { key: `osUpgrades.history.warning.${ name }` };
}

function annotationsOf(obj: unknown): Record<string, unknown> {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return isRecord(metadata.annotations) ? metadata.annotations : {};
}

function toChanges(value: unknown): SpecChange[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }

  return value.filter((item): item is Record<string, unknown> & { field: string } => isRecord(item) && typeof item.field === 'string' && item.field !== '').map((item) => {
    const change: SpecChange = { field: item.field };

    if (item.before !== undefined) {
      change.before = item.before;
    }
    if (item.after !== undefined) {
      change.after = item.after;
    }

    return change;
  });
}

function toEntry(value: unknown): HistoryEntry | undefined {
  if (!isRecord(value) || !(HISTORY_KINDS as readonly unknown[]).includes(value.kind)) {
    return undefined;
  }
  const entry: HistoryEntry = {
    kind:    value.kind as HistoryKind,
    from:    asText(value.from),
    to:      asText(value.to),
    by:      asText(value.by),
    at:      asText(value.at),
    comment: asText(value.comment),
  };
  const changes = toChanges(value.changes);

  if (typeof value.fromImage === 'string') {
    entry.fromImage = value.fromImage;
  }
  if (typeof value.toImage === 'string') {
    entry.toImage = value.toImage;
  }
  if (changes) {
    entry.changes = changes;
  }

  return entry;
}

/** The top-level spec fields that differ between two specs, by field name, each with both values. */
export function specChanges(before: Record<string, unknown>, after: Record<string, unknown>): SpecChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();

  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field])).map((field) => {
    const change: SpecChange = { field };

    if (before[field] !== undefined) {
      change.before = before[field];
    }
    if (after[field] !== undefined) {
      change.after = after[field];
    }

    return change;
  });
}

/** The history of a pool or channel object, oldest first. Never throws: bad JSON is an empty history with a warning. */
export function readHistory(obj: unknown): HistoryReading {
  const text = annotationsOf(obj)[HISTORY_ANNOTATION];

  if (text === undefined || text === null || text === '') {
    return { entries: [], warnings: [] };
  }
  if (typeof text !== 'string') {
    return { entries: [], warnings: [warning('unreadable')] };
  }
  let parsed: unknown;

  try {
    parsed = JSON.parse(text);
  } catch {
    return { entries: [], warnings: [warning('unreadable')] };
  }
  if (!Array.isArray(parsed)) {
    return { entries: [], warnings: [warning('unreadable')] };
  }
  const entries = parsed.map(toEntry).filter((entry): entry is HistoryEntry => !!entry);
  const skipped = parsed.length - entries.length;

  return { entries, warnings: skipped ? [warning('skipped', { count: skipped })] : [] };
}

/**
 * Appends `entry` to the history of `object` (changed in place: call it on the copy a plan
 * writes), keeping the last HISTORY_LIMIT entries. An unreadable history starts anew.
 */
export function appendHistory(object: KubeObject, entry: HistoryEntry): void {
  const entries = [...readHistory(object).entries, { ...entry }].slice(-HISTORY_LIMIT);

  if (!isRecord(object.metadata)) {
    object.metadata = {};
  }
  const metadata = object.metadata as Record<string, unknown>;

  if (!isRecord(metadata.annotations)) {
    metadata.annotations = {};
  }
  (metadata.annotations as Record<string, unknown>)[HISTORY_ANNOTATION] = JSON.stringify(entries);
}
