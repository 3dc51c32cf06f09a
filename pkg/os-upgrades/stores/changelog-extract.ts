// "Extract the changelog from the channel image": one ManagedOSChangelog per version, created
// only on a person's click, followed until the operator serves the file, then fetched.
import { defineStore } from 'pinia';
import {
  changelogResourceFileUrl, changelogResourceState, KubeObject, OSVersion, Reason
} from '../domain';
import {
  canCreateChangelogResource, findOrCreateChangelogResource, hasChangelogResources, readChangelogResource, UnclearCreate
} from '../api/changelog-resources';
import { errorMessage, ShellStore, WriteError } from '../api/resources';
import { useChangelogsStore } from './changelogs';

/** requesting → starting (pod) → ready (served) → fetching → fetched; or failed / expired / refused. */
export type ExtractStage = 'requesting' | 'starting' | 'ready' | 'fetching' | 'fetched' | 'expired' | 'failed' | 'refused';

export interface ExtractState {
  stage: ExtractStage;
  /** The ManagedOSChangelog's name, once known. */
  resource?: string;
  error?: Reason;
}

export const POLL_MS = 1000;
/** The pod pulls the channel image first: minutes on a slow registry. */
export const GIVE_UP_MS = 10 * 60 * 1000;

const running = new Map<string, Promise<void>>();

const keyOf = (version: Pick<OSVersion, 'namespace' | 'name'>) => `${ version.namespace }/${ version.name }`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const useChangelogExtractStore = defineStore('osUpgrades/changelogExtract', {
  state: () => ({ byVersion: {} as Record<string, ExtractState> }),

  getters: { stateOf: (state) => (version: Pick<OSVersion, 'namespace' | 'name'>): ExtractState | undefined => state.byVersion[keyOf(version)] },

  actions: {
    available(shellStore: ShellStore): boolean {
      return hasChangelogResources(shellStore);
    },

    mayCreate(shellStore: ShellStore): boolean {
      return canCreateChangelogResource(shellStore);
    },

    /** The click. A second click while one runs joins it; nothing is created twice. */
    extract(shellStore: ShellStore, channel: { name: string; namespace: string }, version: Pick<OSVersion, 'namespace' | 'name'>): Promise<void> {
      const key = keyOf(version);
      const current = running.get(key);

      if (current) {
        return current;
      }
      const run = this.run(shellStore, channel, version).finally(() => running.delete(key));

      running.set(key, run);

      return run;
    },

    async run(shellStore: ShellStore, channel: { name: string; namespace: string }, version: Pick<OSVersion, 'namespace' | 'name'>): Promise<void> {
      const key = keyOf(version);
      const set = (next: ExtractState) => {
        this.byVersion[key] = next;
      };

      set({ stage: 'requesting' });
      let object: KubeObject;

      try {
        object = await findOrCreateChangelogResource(shellStore, channel, version.name);
      } catch (err) {
        const refused = err instanceof WriteError && err.isForbidden;

        // After no clear answer the resource was read again: say what that read showed.
        const failedKey = err instanceof UnclearCreate ? `osUpgrades.extract.createUnclear.${ err.written }` : 'osUpgrades.extract.createFailed';

        set({ stage: refused ? 'refused' : 'failed', error: { key: refused ? 'osUpgrades.extract.forbidden' : failedKey, values: { message: errorMessage(err) } } });

        return;
      }
      const name = String((object.metadata as { name?: unknown } | undefined)?.name ?? '');
      const started = Date.now();

      for (;;) {
        const resource = changelogResourceState(object);

        if (resource.stage === 'failed' || resource.stage === 'expired') {
          set({
            stage: resource.stage, resource: name, error: { key: `osUpgrades.extract.${ resource.stage }Detail`, values: { message: resource.message } }
          });

          return;
        }
        if (resource.stage === 'ready') {
          set({ stage: 'fetching', resource: name });
          const result = await useChangelogsStore().loadLogFrom(shellStore, version, changelogResourceFileUrl(resource.url, version.name));

          set(result.state === 'ok' ? { stage: 'fetched', resource: name } : {
            stage: 'failed', resource: name, error: { key: 'osUpgrades.extract.fetchFailed' }
          });

          return;
        }
        set({ stage: 'starting', resource: name });
        if (Date.now() - started > GIVE_UP_MS) {
          set({
            stage: 'failed', resource: name, error: { key: 'osUpgrades.extract.timeout' }
          });

          return;
        }
        await sleep(POLL_MS);
        try {
          object = await readChangelogResource(shellStore, version.namespace, name);
        } catch (err) {
          set({
            stage: 'failed', resource: name, error: { key: 'osUpgrades.extract.readFailed', values: { message: errorMessage(err) } }
          });

          return;
        }
      }
    },
  },
});
