import type { ShellStore } from '../../api/resources';

/** Who is approving: the logged-in user's name, else their principal or id ('' when unknown). */
export function approverOf(store: ShellStore): string {
  const user = store.getters['auth/user'] as { username?: unknown; id?: unknown } | null | undefined;
  const principal = store.getters['auth/principalId'];

  for (const candidate of [user?.username, principal, user?.id]) {
    if (typeof candidate === 'string' && candidate.trim()) {
      return candidate.trim();
    }
  }

  return '';
}
