import { getCurrentInstance } from 'vue';
import type { ShellStore } from '../types/shell-store';

/**
 * The shell's Vuex store (the component's `$store`), typed as far as this package uses it. Call
 * it in `setup()`. The store is looked up when used, not when called: `setup()` runs before
 * the component's global properties (the test mounts' `mocks` among them) are in place.
 */
export function useShellStore(): ShellStore {
  const instance = getCurrentInstance();

  if (!instance) {
    throw new Error('useShellStore() is for setup()');
  }
  const current = () => instance.proxy?.$store as unknown as ShellStore;

  return {
    dispatch:        (action, payload) => current().dispatch(action, payload),
    subscribeAction: (handler) => current().subscribeAction?.(handler) ?? (() => undefined),
    get getters() {
      return current().getters;
    },
    // The extension manager: the shell's paging helper asks it which types an extension pages.
    get $extension() {
      return current().$extension;
    },
  };
}
