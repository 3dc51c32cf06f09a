// What the logged-in person may do with pools, and who they are, from the shell's store.
import type { ShellStore } from '../types/shell-store';
import { approverOf, canCreate, canUpdate } from '../api/resources';
import { TYPE } from '../config';

export function canCreatePool(shell: ShellStore): boolean {
  return canCreate(shell, TYPE.IMAGE);
}

export function canUpdatePool(shell: ShellStore): boolean {
  return canUpdate(shell, TYPE.IMAGE);
}

/** Who is approving: the logged-in user's name, else their principal or id ('' when unknown). */
export function approverName(shell: ShellStore): string {
  return approverOf(shell);
}
