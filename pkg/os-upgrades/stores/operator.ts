// The Elemental operator this Rancher runs, checked once per session (emptied at logout by
// stores/reset.ts): whether its types are there, its version, and the features that depend on it.
import { defineStore } from 'pinia';
import type { ShellStore } from '../types/shell-store';
import {
  OperatorFeature, operatorFeatures, OperatorPresence, operatorPresence, operatorVersion
} from '../domain';
import { readOperator } from '../api/operator';

export const useOperatorStore = defineStore('osUpgrades/operator', {
  state: () => ({
    checked:  false,
    presence: { kind: 'ready' } as OperatorPresence,
    version:  undefined as string | undefined,
    features: [] as OperatorFeature[],
    pending:  undefined as Promise<void> | undefined,
  }),

  actions: {
    /** Reads once; later calls wait for the first. */
    async check(shell: ShellStore): Promise<void> {
      if (!this.pending) {
        this.pending = this.read(shell);
      }
      await this.pending;
    },

    async read(shell: ShellStore): Promise<void> {
      const reading = await readOperator(shell);

      this.presence = operatorPresence(reading.schemaIds, reading.mayInstall);
      this.version = operatorVersion(reading.metadata);
      this.features = operatorFeatures(this.version, reading.changelogServed);
      this.checked = true;
    },
  },
});
