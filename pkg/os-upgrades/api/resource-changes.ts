import type { ShellStore } from '../types/shell-store';
import { RESOURCE_CHANGES } from './version-queries';

/**
 * The shell's `resource.changes` listener for a type (shell/plugins/steve/subscribe.js watchEvent):
 * `onChange` gets the revision of each change (the event carries no object). Returns the stop.
 */
export function watchChanges(store: ShellStore, id: string, type: string, onChange: (revision?: string) => void): () => Promise<void> {
  const params = { type, mode: RESOURCE_CHANGES };
  let watching = true;

  store.dispatch('management/watchEvent', {
    event: RESOURCE_CHANGES, id, params, callback: ({ revision }: { revision?: string } = {}) => onChange(revision),
  })?.catch?.(() => {
    watching = false;
  });

  return async() => {
    if (watching) {
      watching = false;
      await store.dispatch('management/unwatchEvent', {
        event: RESOURCE_CHANGES, id, params
      });
    }
  };
}
