// The pages' lists stay current after a websocket drop: each page reads its lists again once the
// shell has reconnected and re-watched, whatever the server sent on the re-watch (domain/live-list.ts).
import type { ShellStore } from '../types/shell-store';
import { onReconnect } from '../api/resources';

/** Calls `reload` after each reconnect of the shell's websocket; returns the function that stops it. */
export function onShellReconnect(shell: ShellStore, reload: () => void): () => void {
  return onReconnect(shell, reload);
}
