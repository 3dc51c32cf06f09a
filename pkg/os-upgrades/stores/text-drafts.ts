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

  return returnPath(route?.fullPath) || returnPath(typeof window === 'undefined' ? '' : `${ window.location.pathname }${ window.location.search }`);
}

/** Keeps the texts; false when this browser cannot keep them. */
export function keepText(shell: ShellStore, kind: TextDraftKind, target: string, texts: Record<string, string>): boolean {
  const draft: TextDraft = {
    principal: principalOf(shell), kind, target, texts, path: currentPath(shell), savedAt: Date.now() / 1000
  };

  return storeDraft(draft, 'text');
}

/** The kept texts for this dialog and target, taken out of storage (given back once). */
export function takeText(shell: ShellStore, kind: TextDraftKind, target: string): TextDraft | undefined {
  const draft = readTextDraft(storedDraft('text'), principalOf(shell), kind, target, Date.now() / 1000);

  if (draft) {
    clearDraft('text');
  }

  return draft;
}
