// The shell's login and logout hooks. They are in the package's entry, which the dashboard loads
// on every page: the stores (with the domain and the shell's models they import) are loaded here
// only when there is something to empty or to resume, not at each dashboard start.
import type { ShellStore } from '../types/shell-store';
import { storedDraft } from '../api/drafts';

/** Whose session the stores hold (the principal seen at the last login). */
let owner: string | undefined;

/** The shell's logout hook: every store emptied. */
export async function onLogout(): Promise<void> {
  const principal = owner;

  owner = undefined;
  const reset = await import(/* webpackChunkName: "stores-reset" */ './reset');

  reset.keepOpenDialogTexts(principal);
  reset.resetStores();
}

/**
 * The shell's login hook (it also runs once when the dashboard starts with a session): the
 * stores are emptied only when another person than the last one logged in; a pool form's draft
 * or a dialog's text kept through a 401 is resumed for its person.
 */
export async function onLogin(shell: ShellStore): Promise<void> {
  const principal = String(shell.getters['auth/principalId'] ?? '');
  const changed = owner !== undefined && owner !== principal;

  owner = principal;
  if (!changed && storedDraft() === undefined && storedDraft('text') === undefined) {
    return;
  }
  const reset = await import(/* webpackChunkName: "stores-reset" */ './reset');

  if (changed) {
    reset.resetStores();
  }
  reset.resumeDraft(shell, principal);
}
