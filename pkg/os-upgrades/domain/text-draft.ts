import { DRAFT_MAX_AGE_SECONDS } from './pool-draft';
import { isRecord } from './text';

// What a person typed in a dialog (the approval comment, the withdrawal reason or restore comment,
// the changelog sources) when its write met 401: kept like the pool form's draft (pool-draft.ts),
// given back only to the same person, for the same object and action, and for a day.

export type TextDraftKind = 'approve' | 'withdraw' | 'sources';

export interface TextDraft {
  /** Who typed it (the shell's principal id). */
  principal: string;
  kind: TextDraftKind;
  /** What it was typed for: `textDraftTarget`'s parts, so it comes back only to the same dialog. */
  target: string;
  /** The texts by field (`comment`, `reason`, `<namespace>/<channel>.template`…). */
  texts: Record<string, string>;
  /** The page it was typed on, to go back to after the login. */
  path: string;
  /** Unix seconds. */
  savedAt: number;
}

/** The target of a dialog's draft: the object, the action and the image it was for. */
export function textDraftTarget(...parts: string[]): string {
  return parts.join('|');
}

/** A path of this dashboard to go back to ('' for anything else: another origin, a scheme). */
export function returnPath(path: unknown): string {
  return typeof path === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(path) ? path : '';
}

function isLive(stored: Record<string, unknown>, principal: string, now: number): boolean {
  return !!principal && stored.principal === principal && typeof stored.savedAt === 'number' &&
    now - stored.savedAt <= DRAFT_MAX_AGE_SECONDS && stored.savedAt - now <= 60;
}

function isTexts(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((text) => typeof text === 'string');
}

/** The draft stored for this person, this dialog and this target, or undefined (storage is not trusted). */
export function readTextDraft(stored: unknown, principal: string, kind: TextDraftKind, target: string, now: number): TextDraft | undefined {
  if (!isRecord(stored) || !isLive(stored, principal, now) || stored.kind !== kind || stored.target !== target || !isTexts(stored.texts)) {
    return undefined;
  }

  return { ...(stored as unknown as TextDraft), path: returnPath(stored.path) };
}

/** The page to go back to after this person logged in again, '' when no live draft of theirs waits. */
export function textDraftPathFor(stored: unknown, principal: string, now: number): string {
  return isRecord(stored) && isLive(stored, principal, now) && isTexts(stored.texts) ? returnPath(stored.path) : '';
}
