// Per-version changelog files for the whole session: what was fetched, what is loading, what failed.
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { summarizeSourceAnswers } from '../domain';
import type {
  Advisory, OSVersion, Package, SourceSummary, UpdateLogs
} from '../domain';
import { ChangelogClient, ChangelogFile, FetchOutcome, FileResult } from '../api/changelog-client';
import { readAllowedOrigins } from '../api/changelog-origins';
import { browserFileCache } from '../api/persistent-cache';
import type { ShellStore } from '../api/resources';
import { SETTLE_SPACING_MS, SettleBatch } from './settle-batch';

export type FileState<T = unknown> = { state: 'loading' } | FileResult<T>;

export interface Progress {
  done: number;
  total: number;
}

type VersionRef = Pick<OSVersion, 'name' | 'namespace' | 'changelogURL'>;

interface ChangelogsState {
  files: Record<string, FileState>;
}

export function fileKey(file: ChangelogFile, version: Pick<OSVersion, 'name' | 'namespace'>): string {
  return `${ file }:${ version.namespace }/${ version.name }`;
}

// Outside the reactive state: the client holds a cache and in-flight requests.
let client: ChangelogClient | undefined;
let clientReady: Promise<ChangelogClient> | undefined;
// Settled files waiting to be written to a store, written together (settle-batch.ts).
const batches = new WeakMap<object, SettleBatch<FileState>>();
// How many callers wait for each key, so one caller leaving does not hide another's load.
const waiting = new Map<string, number>();

export const useChangelogsStore = defineStore('osUpgrades/changelogs', {
  state: (): ChangelogsState => ({ files: {} }),

  getters: {
    fileState: (state) => (file: ChangelogFile, version: Pick<OSVersion, 'name' | 'namespace'>): FileState | undefined => state.files[fileKey(file, version)],

    log(): (version: Pick<OSVersion, 'name' | 'namespace'>) => FileState<Advisory[]> | undefined {
      return (version) => this.fileState('log', version) as FileState<Advisory[]> | undefined;
    },

    packages(): (version: Pick<OSVersion, 'name' | 'namespace'>) => FileState<Package[]> | undefined {
      return (version) => this.fileState('packages', version) as FileState<Package[]> | undefined;
    },

    /** The logs of these versions, by name, as aggregateChangelog takes them (absent = no log). */
    logsByName(): (versions: readonly Pick<OSVersion, 'name' | 'namespace'>[]) => UpdateLogs {
      return (versions) => {
        const logs: UpdateLogs = {};

        for (const version of versions) {
          const result = this.log(version);

          if (result?.state === 'ok') {
            logs[version.name] = result.value;
          }
        }

        return logs;
      };
    },

    /**
     * What came back for this file of these versions, taken together (the domain's
     * summarizeSourceAnswers): `failed` counts files that could not be read (network, status,
     * a web page where a file was expected, a format error), `noService` those of a source that
     * serves none; `verdict` is `unreachable` when nothing but errors came back.
     */
    answers(): (file: ChangelogFile, versions: readonly Pick<OSVersion, 'name' | 'namespace'>[]) => SourceSummary {
      return (file, versions) => summarizeSourceAnswers(versions.map((version) => this.fileState(file, version)?.state));
    },

    /** How many of these files are settled (ok, missing or error). */
    progress(): (file: ChangelogFile, versions: readonly Pick<OSVersion, 'name' | 'namespace'>[]) => Progress {
      return (file, versions) => ({
        total: versions.length,
        done:  versions.filter((version) => {
          const result = this.fileState(file, version);

          return result !== undefined && result.state !== 'loading';
        }).length,
      });
    },
  },

  actions: {
    /** Replaces the session's client and forgets every file (tests hand in one with a fake HTTP). */
    useClient(custom: ChangelogClient | undefined): void {
      client = custom;
      clientReady = custom ? Promise.resolve(custom) : undefined;
      waiting.clear();
      this.files = {};
    },

    /** The session's client, created once with the administrator's allow-list. */
    client(shellStore: ShellStore): Promise<ChangelogClient> {
      if (!clientReady) {
        clientReady = readAllowedOrigins(shellStore).then((allowedOrigins) => {
          const userId = String(shellStore.getters['auth/principalId'] ?? '');

          client = new ChangelogClient({
            serverOrigin: window.location.origin, allowedOrigins, cache: browserFileCache(), userId
          });

          return client;
        });
      }

      return clientReady;
    },

    /**
     * Loads one file of each version, at most a few at a time (the client limits), and settles
     * when all are settled. Files already fetched or known missing are not fetched again.
     * Aborting `signal` cancels what this caller still waits for.
     */
    async load(shellStore: ShellStore, file: ChangelogFile, versions: readonly VersionRef[], channel: unknown, signal?: AbortSignal): Promise<void> {
      const needed = versions.filter((version) => {
        const state = this.files[fileKey(file, version)]?.state;

        return state !== 'ok' && state !== 'missing' && state !== 'noService';
      });

      if (!needed.length || signal?.aborted) {
        return;
      }
      // Without an await when the client exists, so this caller is counted before the caller
      // it replaces cancels: a file both need keeps loading.
      const changelogClient = client ?? await this.client(shellStore);

      await Promise.all(needed.map((version) => loadOne(this, changelogClient, file, version, channel, signal)));
    },

    /**
     * A version's log from a URL that is not its usual one (the folder a ManagedOSChangelog
     * serves); on success it replaces whatever the usual source said.
     */
    async loadLogFrom(shellStore: ShellStore, version: Pick<OSVersion, 'name' | 'namespace'>, url: string, signal?: AbortSignal): Promise<FileState> {
      const changelogClient = client ?? await this.client(shellStore);
      const outcome = await changelogClient.fetchFile('log', url, signal, 'resource');

      if (outcome.state === 'cancelled') {
        return this.files[fileKey('log', version)] ?? { state: 'missing' };
      }
      const state: FileState = outcome.state === 'ok' ? { state: 'ok', value: markRaw(outcome.value as object) } : outcome;

      if (outcome.state === 'ok') {
        this.files[fileKey('log', version)] = state;
      }

      return state;
    },

    /** Forgets every file: this session's and those kept across sessions. */
    async clearCache(shellStore: ShellStore): Promise<void> {
      const changelogClient = client ?? await this.client(shellStore);

      await changelogClient.clearCache();
      waiting.clear();
      this.files = {};
    },

    async cacheUsage(shellStore: ShellStore): Promise<{ entries: number; bytes: number }> {
      return (client ?? await this.client(shellStore)).cacheUsage();
    },

    /** A new allow-list (the sources page saved one): the next load uses a new client. */
    forgetClient(): void {
      client = undefined;
      clientReady = undefined;
    },
  },
});

/**
 * One file of one version, written to the store with those settled with it. A plain function, not
 * an action: Pinia wraps each action call in subscription bookkeeping and two more promises, and a
 * compare calls this for each of its 500 logs at once.
 */
async function loadOne(store: ChangelogsState, changelogClient: ChangelogClient, file: ChangelogFile, version: VersionRef, channel: unknown, signal?: AbortSignal): Promise<void> {
  const key = fileKey(file, version);

  if (signal?.aborted) {
    return;
  }
  waiting.set(key, (waiting.get(key) ?? 0) + 1);
  if (store.files[key]?.state !== 'ok') {
    store.files[key] = { state: 'loading' };
  }
  const outcome: FetchOutcome<unknown> = file === 'log' ? await changelogClient.fetchLog(version, channel, signal) : await changelogClient.fetchPackages(version, channel, signal);
  const left = (waiting.get(key) ?? 1) - 1;

  if (left > 0) {
    waiting.set(key, left);
  } else {
    waiting.delete(key);
  }
  let batch = batches.get(store);

  if (!batch) {
    batch = new SettleBatch<FileState>((entries) => {
      for (const [settledKey, state] of entries) {
        store.files[settledKey] = state;
      }
    }, SETTLE_SPACING_MS);
    batches.set(store, batch);
  }
  if (outcome.state === 'cancelled') {
    if (left === 0 && store.files[key]?.state === 'loading' && !batch.pending(key)) {
      delete store.files[key];
    }
  } else {
    // Parsed files can be large: keep them out of Vue's deep reactivity.
    await batch.add(key, outcome.state === 'ok' ? { state: 'ok', value: markRaw(outcome.value as object) } : outcome, waiting.size === 0);
  }
}
