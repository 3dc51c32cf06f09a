// A dialog's text kept through a 401 (domain/text-draft.ts) and given back after the same person
// logged in again: one place for the approval, the withdrawal and the sources page.
import { readTextDraft, returnPath, TextDraft, TextDraftKind } from '../domain';
import { clearDraft, storedDraft, storeDraft } from '../api/drafts';
import type { ShellStore } from '../types/shell-store';

export function principalOf(shell: ShellStore): string {
  return String(shell.getters['auth/principalId'] ?? '');
}

function currentPath(shell: ShellStore): string {
  const route = (shell as unknown as { $router?: { currentRoute?: { value?: { fullPath?: unknown } } } }).$router?.currentRoute?.value;

  return returnPath(route?.fullPath) || browserPath();
}

/** Keeps the texts for this person, to give back on `path`; false when this browser cannot keep them. */
export function keepTextAs(principal: string, path: string, kind: TextDraftKind, target: string, texts: Record<string, string>): boolean {
  const draft: TextDraft = {
    principal, kind, target, texts, path, savedAt: Date.now() / 1000
  };

  return storeDraft(draft, 'text');
}

/** Keeps the texts; false when this browser cannot keep them. */
export function keepText(shell: ShellStore, kind: TextDraftKind, target: string, texts: Record<string, string>): boolean {
  return keepTextAs(principalOf(shell), currentPath(shell), kind, target, texts);
}

/** The page the browser shows now, when it may be given back to (see `returnPath`). */
export function browserPath(): string {
  return typeof window === 'undefined' ? '' : returnPath(`${ window.location.pathname }${ window.location.search }`);
}

/** The kept texts for this dialog and target, taken out of storage (given back once). */
export function takeText(shell: ShellStore, kind: TextDraftKind, target: string): TextDraft | undefined {
  const draft = readTextDraft(storedDraft('text'), principalOf(shell), kind, target, Date.now() / 1000);

  if (draft) {
    clearDraft('text');
  }

  return draft;
}
