import { onBeforeUnmount, ref, Ref, toRaw } from 'vue';
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

/** Resolves after the browser drew the next frame (at once where there are no frames). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') {
      resolve();

      return;
    }
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/** Every list the same object: a read that gives these needs no new render. */
function sameLists<T extends Lists>(a: T, b: T): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof T>;

  // The lists shown are read through the ref's proxies.
  return [...keys].every((key) => toRaw(a[key]) === toRaw(b[key]));
}

/**
 * A page's live lists: read once, read again (`force`: from the server) after the shell's
 * websocket reconnected, since a re-watch may send nothing of what was missed (domain/live-list.ts);
 * a failed read again keeps the lists shown. The reconnect listener ends with the component.
 * `kept`: what the stores still hold from the page's last read (live lists, kept current by their
 * watches): shown at once, then replaced only if the first read gives other lists.
 */
export function useLiveLists<T extends Lists>(empty: T, kept?: T): LiveLists<T> {
  const lists = ref(kept ?? empty) as Ref<T>;
  const loading = ref(!kept);
  let stopReconnect: (() => void) | undefined;
  let unmounted = false;

  onBeforeUnmount(() => {
    unmounted = true;
    stopReconnect?.();
  });

  async function readLists(shell: ShellStore, read: (opt: { force?: boolean }) => Promise<T>): Promise<void> {
    if (kept) {
      // The kept lists are drawn first: the read, and whatever it sets going, comes after that frame.
      await afterNextPaint();
    }
    const first = await read({});

    if (!sameLists(lists.value, first)) {
      lists.value = first;
    }
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
