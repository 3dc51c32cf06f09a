// Withdrawing an image and restoring it (domain/withdrawal.ts): the dialog's state and its one
// write, the channel with its annotation and history changed, sent with the resourceVersion read.
import { defineStore } from 'pinia';
import {
  applyWithdrawals, OSVersion, plainPool, planWithdrawal, readPool, Reason, WithdrawalPlan
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll, WriteError, writeObject } from '../api/resources';
import { TYPE } from '../config';
import { useChannelVersionsStore } from './channel-versions';
import { selectorChannels } from './pool-list';

export type WithdrawalKind = 'withdraw' | 'restore';

export type WithdrawalNotice =
  | { kind: 'refused'; reason: Reason }
  /** 409: the channel changed meanwhile; nothing was written. */
  | { kind: 'conflict' }
  | { kind: 'forbidden' }
  | { kind: 'failed'; message: string };

export interface WithdrawalRequest {
  kind: WithdrawalKind;
  versionName: string;
  /** The channel as read when the dialog opened. */
  channel: Record<string, unknown>;
}

export const useWithdrawalStore = defineStore('osUpgrades.withdrawal', {
  state: () => ({
    request: null as WithdrawalRequest | null,
    /** The reason (withdraw) or comment (restore) the person typed. */
    text:    '',
    writing: false,
    notice:  null as WithdrawalNotice | null,
    /** The pools, read when a withdraw dialog opens: which of them run the image (domain/withdrawal-impact.ts). */
    pools:   {
      state: 'idle' as 'idle' | 'loading' | 'loaded' | 'error', objects: [] as unknown[], versions: [] as OSVersion[], error: ''
    },
  }),

  actions: {
    open(kind: WithdrawalKind, channel: unknown, version: OSVersion) {
      if (this.writing) {
        return;
      }
      this.request = {
        kind, versionName: version.name, channel: plainPool(channel)
      };
      this.text = '';
      this.notice = null;
    },

    /**
     * Reads the pools and the versions of the channels their selectors without a channel choose from
     * (the dialog has its own channel's), for the list of pools running the image.
     */
    async loadPools(shell: ShellStore, channels: readonly unknown[]) {
      const request = this.request;

      this.pools = {
        state: 'loading', objects: [], versions: [], error: ''
      };
      try {
        const pools = await findAll<unknown>(shell, TYPE.IMAGE);
        const anyChannel = pools.filter((pool) => {
          const view = readPool(pool);

          return view.selector && !view.selector.channel;
        });
        const lists = await useChannelVersionsStore().loadMany(shell, selectorChannels(anyChannel, channels));

        if (this.request === request) {
          this.pools = {
            state: 'loaded', objects: pools, versions: applyWithdrawals(lists.flat(), [...channels]), error: ''
          };
        }
      } catch (e) {
        if (this.request === request) {
          this.pools = {
            state: 'error', objects: [], versions: [], error: errorMessage(e)
          };
        }
      }
    },

    close() {
      if (!this.writing) {
        this.request = null;
        this.notice = null;
      }
    },

    plan(versions: readonly OSVersion[], by: string, now: number): WithdrawalPlan | undefined {
      const request = this.request;

      if (!request) {
        return undefined;
      }
      const intent = request.kind === 'withdraw' ? {
        kind: 'withdraw' as const, versionName: request.versionName, reason: this.text, by
      } : {
        kind: 'restore' as const, versionName: request.versionName, comment: this.text, by
      };

      return planWithdrawal(request.channel, intent, versions, now);
    },

    /** Writes the planned channel; returns true when it was written. A refusal or a 409 writes nothing. */
    async confirm(shell: ShellStore, versions: readonly OSVersion[], by: string, now: number): Promise<boolean> {
      const plan = this.plan(versions, by, now);

      if (!plan || this.writing) {
        return false;
      }
      if (!plan.ok) {
        this.notice = { kind: 'refused', reason: plan.reason };

        return false;
      }
      this.writing = true;
      this.notice = null;
      try {
        await writeObject(shell, TYPE.CHANNEL, plan.object, 'update');
        this.request = null;

        return true;
      } catch (e) {
        if (e instanceof WriteError && e.isConflict) {
          this.notice = { kind: 'conflict' };
        } else if (e instanceof WriteError && e.isForbidden) {
          this.notice = { kind: 'forbidden' };
        } else {
          this.notice = { kind: 'failed', message: errorMessage(e) };
        }

        return false;
      } finally {
        this.writing = false;
      }
    },

    /** After a conflict: the channel as it is now, for the person to confirm again. */
    reload(channel: unknown) {
      if (this.request && channel) {
        this.request = { ...this.request, channel: plainPool(channel) };
        this.notice = null;
      }
    },
  },
});
