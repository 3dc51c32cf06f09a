// The versions the pools in view pin or can roll back to, read by name (a few dozen names per
// request, api/version-queries.ts) the first time a pool in view names them, and kept for the
// session: a change of any version reads the held names again, so a visit reads none of them.
import { defineStore } from 'pinia';
import { namesToRead, OSVersion, versionKey } from '../domain';
import { watchChanges } from '../api/resource-changes';
import { TYPE } from '../config';
import type { ShellStore } from '../types/shell-store';
import { pinnedVersions } from './channel-versions';

let stopWatch: (() => Promise<void>) | undefined;
/** The store the watch calls back (a store replaced by another Pinia starts afresh). */
let owner: object | undefined;
/** Names read and not found are held as missing, so they are not asked for on every visit. */
const MISSING = null;

export const usePinnedVersionsStore = defineStore('osUpgrades/pinnedVersions', {
  state: () => ({
    /** `namespace/name` → the version (frozen), or null when no version has that name. */
    byKey: {} as Record<string, OSVersion | null>,
  }),

  getters: {
    /** The held versions of these names, by namespace (a pool's pin and previous version). */
    versionsOf(): (names: ReadonlyMap<string, readonly string[]>) => OSVersion[] {
      return (names) => [...names].flatMap(([namespace, list]) => list.map((name) => this.byKey[versionKey(namespace, name)]))
        .filter((version): version is OSVersion => !!version);
    },
  },

  actions: {
    /** Reads the names not held yet; `force` reads every held name again (after a reconnect). */
    async ensure(shell: ShellStore, names: ReadonlyMap<string, readonly string[]>, opt: { force?: boolean } = {}): Promise<void> {
      if (owner !== this.$state) {
        stopWatch?.().catch(() => undefined);
        stopWatch = undefined;
        owner = this.$state;
      }
      stopWatch ??= watchChanges(shell, 'os-upgrades/versions/pins', TYPE.VERSION, () => this.readAgain(shell));
      const missing = namesToRead(names, (key) => !opt.force && key in this.byKey);

      await this.read(shell, missing);
    },

    async read(shell: ShellStore, names: ReadonlyMap<string, readonly string[]>): Promise<void> {
      const found = await Promise.all([...names].map(async([namespace, list]) => ({
        namespace, list, versions: await pinnedVersions(shell, namespace, list)
      })));
      const byKey = { ...this.byKey };

      for (const { namespace, list, versions } of found) {
        for (const name of list) {
          byKey[versionKey(namespace, name)] = MISSING;
        }
        for (const version of versions) {
          byKey[versionKey(version.namespace, version.name)] = Object.freeze(version) as OSVersion;
        }
      }
      this.byKey = byKey;
    },

    /** A version changed: every held name is read again (they are a few hundred at most). */
    readAgain(shell: ShellStore): void {
      const names = new Map<string, string[]>();

      for (const key of Object.keys(this.byKey)) {
        const [namespace, name] = key.split('/');

        names.set(namespace, [...names.get(namespace) ?? [], name]);
      }
      this.read(shell, names).catch(() => undefined);
    },

    reset(): void {
      stopWatch?.().catch(() => undefined);
      stopWatch = undefined;
      this.$reset();
    },
  },
});
