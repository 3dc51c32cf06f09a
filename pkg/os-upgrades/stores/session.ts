// What the logged-in person may do with pools, and who they are, from the shell's store. Whether
// they may change one pool is that pool's own links (`mayUpdate`, domain/rights.ts), and where they
// may create one is `creatablePoolNamespaces`: a schema only says "somewhere".
import type { ShellStore } from '../types/shell-store';
import { approverOf, canCreate, canDelete, creatableNamespacesOf } from '../api/resources';
import { TYPE } from '../config';

export function canCreatePool(shell: ShellStore): boolean {
  return canCreate(shell, TYPE.IMAGE);
}

/** The namespaces where this person may create pools (Steve's checkPermissions); undefined when the server did not say. */
export async function creatablePoolNamespaces(shell: ShellStore): Promise<string[] | undefined> {
  return await creatableNamespacesOf(shell, TYPE.IMAGE);
}

export function canDeletePool(shell: ShellStore): boolean {
  return canDelete(shell, TYPE.IMAGE);
}

/** Who is approving: the logged-in user's name, else their principal or id ('' when unknown). */
export function approverName(shell: ShellStore): string {
  return approverOf(shell);
}
