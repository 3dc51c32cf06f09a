// The workload pools and the versions they can name, read for the pools page. The lists are the
// shell's management store's own: its watch keeps them current, with the rollout progress.
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { TYPE } from '../config';

export interface PoolList {
  pools: unknown[];
  versions: unknown[];
  /** Why the lists could not be read ('' when they were). */
  error: string;
}

/** `opt.force` reads the lists from the server again (after a websocket reconnect, domain/live-list.ts). */
export async function loadPoolList(shell: ShellStore, opt: Record<string, unknown> = {}): Promise<PoolList> {
  try {
    const [pools, versions] = await Promise.all([findAll(shell, TYPE.IMAGE, opt), findAll(shell, TYPE.VERSION, opt)]);

    return {
      pools, versions, error: ''
    };
  } catch (e) {
    return {
      pools: [], versions: [], error: errorMessage(e)
    };
  }
}
