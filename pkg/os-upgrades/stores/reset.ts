// Every store of this package, emptied when a person logs out or logs in: nothing one person
// read or typed (a pool form, a dialog, fetched changelogs) may be shown to the next.
import type { ShellStore } from '../types/shell-store';
import { useChangelogsStore } from './changelogs';
import { useChannelVersionsStore } from './channel-versions';
import { useCompareStore } from './compare';
import { usePoolFormStore } from './pool-form';
import { usePoolApprovalStore } from './pools';
import { useSelectorDraftStore } from './selector-draft';

export function resetStores(): void {
  usePoolApprovalStore().$reset();
  usePoolFormStore().$reset();
  useSelectorDraftStore().load();
  useCompareStore().$reset();
  // The next person may not read the same channels: drop them and their watches.
  useChannelVersionsStore().reset();
  // A new client too: it caches files, and the allowed origins are read again for the next person.
  useChangelogsStore().useClient(undefined);
}

/** Whose session the stores hold (the principal seen at the last login). */
let owner: string | undefined;

/** The shell's logout hook. */
export function onLogout(): void {
  resetStores();
  owner = undefined;
}

/**
 * The shell's login hook (it also runs once when the dashboard starts with a session): the
 * stores are emptied only when another person than the last one logged in.
 */
export function onLogin(shell: ShellStore): void {
  const principal = String(shell.getters['auth/principalId'] ?? '');

  if (owner !== undefined && owner !== principal) {
    resetStores();
  }
  owner = principal;
}
