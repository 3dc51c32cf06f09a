/** The part of the shell's Vuex store this package uses: its actions (`management/*`) and getters. */
export interface ShellStore {
  dispatch(action: string, payload?: unknown): Promise<unknown>;
  getters: Record<string, unknown>;
  /** The shell's extension manager (`store.$extension`), for its paging helper. */
  $extension?: unknown;
}
