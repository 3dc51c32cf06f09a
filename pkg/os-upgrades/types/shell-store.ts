/** An action the shell's store dispatched, as its `subscribeAction` hands it to a listener. */
export interface StoreAction {
  type: string;
  payload?: unknown;
}

/** The part of the shell's Vuex store this package uses: its actions (`management/*`) and getters. */
export interface ShellStore {
  dispatch(action: string, payload?: unknown): Promise<unknown>;
  getters: Record<string, unknown>;
  /** Vuex's: calls `after` once each action has run; returns the function that stops listening. */
  subscribeAction?(handler: { after?: (action: StoreAction) => void }): () => void;
  /** The shell's extension manager (`store.$extension`), for its paging helper. */
  $extension?: unknown;
}
