import { newPoolForm, PoolForm } from './pool-form';
import { emptySelectorFields, SelectorFields } from './selector-fields';
import { isRecord } from './text';
import type { PoolYamlParts } from './pool-yaml';

// A pool form kept aside when its save met 401 (the session ended): restored after the same
// person logs in again, never shown to anyone else, and forgotten after a day.

export const DRAFT_MAX_AGE_SECONDS = 24 * 3600;

export interface PoolFormDraft {
  /** Who typed it (the shell's principal id). */
  principal: string;
  /** `namespace/name` of the pool edited, '' for a new pool. */
  poolId: string;
  form: PoolForm;
  selectorFields: SelectorFields;
  /** What a YAML edit added beside the form's fields (labels, annotations, other spec fields). */
  yaml?: PoolYamlParts;
  /** Unix seconds. */
  savedAt: number;
}

function sameShape<T extends object>(template: T, value: unknown): value is T {
  return isRecord(value) && Object.entries(template).every(([key, example]) => (Array.isArray(example) ? Array.isArray(value[key]) : typeof value[key] === typeof example));
}

function isYamlParts(value: unknown): value is PoolYamlParts {
  return isRecord(value) && isRecord(value.specBase) && isRecord(value.extra) && isRecord(value.extra.spec) && Array.isArray(value.problems);
}

/**
 * The draft stored for this person and this pool, or undefined: another person's, another pool's,
 * one older than a day, or anything that is not a draft (storage is not trusted).
 */
export function readDraft(stored: unknown, principal: string, poolId: string, now: number): PoolFormDraft | undefined {
  if (!isRecord(stored) || !principal || stored.principal !== principal || stored.poolId !== poolId) {
    return undefined;
  }
  if (typeof stored.savedAt !== 'number' || now - stored.savedAt > DRAFT_MAX_AGE_SECONDS || stored.savedAt - now > 60) {
    return undefined;
  }
  if (!sameShape(newPoolForm(), stored.form) || !sameShape(emptySelectorFields(), stored.selectorFields)) {
    return undefined;
  }
  if (stored.yaml !== undefined && !isYamlParts(stored.yaml)) {
    return undefined;
  }

  return stored as unknown as PoolFormDraft;
}

/** Whether a stored value is a live draft of this person, whatever the pool (to bring them back to it). */
export function draftOwnedBy(stored: unknown, principal: string, now: number): stored is PoolFormDraft {
  return isRecord(stored) && typeof stored.poolId === 'string' && readDraft(stored, principal, stored.poolId, now) !== undefined;
}
