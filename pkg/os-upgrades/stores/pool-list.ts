// The workload pools and the versions they can name, read for the pools page. The lists are the
// shell's management store's own: its watch keeps them current, with the rollout progress.
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';

export interface PoolList {
  pools: unknown[];
  versions: unknown[];
  /** Fleet clusters and groups: they feed the approval's impact summary and may be unreadable. */
  clusters: unknown[];
  groups: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

export async function loadPoolList(shell: ShellStore): Promise<PoolList> {
  try {
    const optional = (type: string) => findAll(shell, type).catch(() => [] as unknown[]);
    const [pools, versions, clusters, groups] = await Promise.all([
      findAll(shell, TYPE.IMAGE), findAll(shell, TYPE.VERSION), optional(TYPE.FLEET_CLUSTER), optional(TYPE.FLEET_GROUP),
    ]);

    return {
      pools, versions, clusters, groups, error: ''
    };
  } catch (e) {
    return {
      pools: [], versions: [], clusters: [], groups: [], error: errorMessage(e)
    };
  }
}

/** Asks with the shell's own confirm dialog (prompt-remove), which deletes the pools' models. */
export function removePools(shell: ShellStore, models: unknown[]): void {
  shell.dispatch('management/promptRemove', models);
}
