import { onBeforeUnmount, ref, Ref } from 'vue';
import type { ShellStore } from '../types/shell-store';
import { onShellReconnect } from '../stores/reconnect';

/** What a list page reads: the shell's live lists, and why they could not be read ('' when they were). */
export interface Lists {
  error: string;
}

export interface LiveLists<T extends Lists> {
  /** `empty` until the first read ends, then what it read; after a reconnect what was read again. */
  lists: Ref<T>;
  /** True until the first read ends. */
  loading: Ref<boolean>;
  /** Reads the lists, then again after each websocket reconnect; called once, when the component is created. */
  readLists: (shell: ShellStore, read: (opt: { force?: boolean }) => Promise<T>) => Promise<void>;
}

/**
 * A page's live lists: read once, read again (`force`: from the server) after the shell's
 * websocket reconnected, since a re-watch may send nothing of what was missed (domain/live-list.ts);
 * a failed read again keeps the lists shown. The reconnect listener ends with the component.
 */
export function useLiveLists<T extends Lists>(empty: T): LiveLists<T> {
  const lists = ref(empty) as Ref<T>;
  const loading = ref(true);
  let stopReconnect: (() => void) | undefined;
  let unmounted = false;

  onBeforeUnmount(() => {
    unmounted = true;
    stopReconnect?.();
  });

  async function readLists(shell: ShellStore, read: (opt: { force?: boolean }) => Promise<T>): Promise<void> {
    lists.value = await read({});
    loading.value = false;
    if (unmounted) {
      return;
    }
    stopReconnect = onShellReconnect(shell, async() => {
      const reread = await read({ force: true });

      if (!reread.error) {
        lists.value = reread;
      }
    });
  }

  return {
    lists, loading, readLists
  };
}
