// Withdrawing an image and restoring it (domain/withdrawal.ts): the dialog's state and its one
// write, the channel with its annotation and history changed, sent with the resourceVersion read.
import { defineStore } from 'pinia';
import {
  applyWithdrawals, OSVersion, plainObject, planWithdrawal, readPool, Reason, textDraftTarget, WithdrawalPlan, WriteVerdict
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { writeAndReadBack } from '../api/write-readback';
import { TYPE } from '../config';
import { useChannelVersionsStore } from './channel-versions';
import { selectorChannels } from './pool-list';
import { keepText, keepTextAs, takeText } from './text-drafts';

function draftTarget(request: WithdrawalRequest): string {
  const { namespace = '', name = '' } = (request.channel.metadata ?? {}) as { namespace?: string; name?: string };

  return textDraftTarget(`${ namespace }/${ name }`, request.kind, request.versionName);
}

export type WithdrawalKind = 'withdraw' | 'restore';

export type WithdrawalNotice =
  | { kind: 'refused'; reason: Reason }
  /** 409: the channel changed meanwhile; nothing was written. */
  | { kind: 'conflict' }
  | { kind: 'forbidden' }
  /** The answer was lost, but a read of the channel afterwards holds what was sent. */
  | { kind: 'writtenReadBack' }
  /** 401: nothing was written; the text is kept for after the new login (`kept`: this browser could keep it). */
  | { kind: 'unauthorized'; kept: boolean }
  /** No clear answer (a 5xx, a dropped answer): `written` is what a read of the channel afterwards showed. */
  | { kind: 'failed'; message: string; written: WriteVerdict };

export interface WithdrawalRequest {
  kind: WithdrawalKind;
  versionName: string;
  /** The channel as read when the dialog opened. */
  channel: Record<string, unknown>;
}

export const useWithdrawalStore = defineStore('osUpgrades/withdrawals', {
  state: () => ({
    request:    null as WithdrawalRequest | null,
    /** The reason (withdraw) or comment (restore) the person typed. */
    text:       '',
    writing:    false,
    notice:     null as WithdrawalNotice | null,
    /** Unix seconds of the text given back after a new login (0 when none). */
    restoredAt: 0,
    /** The pools, read when a withdraw dialog opens: which of them run the image (domain/withdrawal-impact.ts). */
    pools:      {
      state: 'idle' as 'idle' | 'loading' | 'loaded' | 'error', objects: [] as unknown[], versions: [] as OSVersion[], error: ''
    },
  }),

  getters: {
    /** After an answer that left the channel written, changed by someone else, or unread, confirming again could write twice. */
    settled: (state): boolean => state.notice?.kind === 'writtenReadBack' || (state.notice?.kind === 'failed' && state.notice.written !== 'notWritten'),
  },

  actions: {
    /** The shell logs out (a session that expired): the open dialog's reason is kept for this person. */
    keepTyped(principal: string, path: string): void {
      if (this.request && this.text.trim()) {
        keepTextAs(principal, path, 'withdraw', draftTarget(this.request), { text: this.text });
      }
    },

    open(kind: WithdrawalKind, channel: unknown, version: OSVersion) {
      if (this.writing) {
        return;
      }
      this.request = {
        kind, versionName: version.name, channel: plainObject(channel)
      };
      this.text = '';
      this.notice = null;
      this.restoredAt = 0;
    },

    /** Gives back the text kept when this dialog's write met 401 (the same person, channel, action and image). */
    restoreText(shell: ShellStore) {
      const kept = this.request ? takeText(shell, 'withdraw', draftTarget(this.request)) : undefined;

      if (kept) {
        this.text = kept.texts.text ?? '';
        this.restoredAt = kept.savedAt;
      }
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
      const request = this.request;

      if (!plan || !request || this.writing) {
        return false;
      }
      if (!plan.ok) {
        this.notice = { kind: 'refused', reason: plan.reason };

        return false;
      }
      this.writing = true;
      this.notice = null;
      try {
        const result = await writeAndReadBack(shell, {
          type: TYPE.CHANNEL, object: plan.object, mode: 'update', before: request.channel
        });

        switch (result.kind) {
        case 'written':
          if (result.readBack) {
            this.notice = { kind: 'writtenReadBack' };
          } else {
            this.request = null;
          }

          return true;
        case 'conflict':
        case 'forbidden':
          this.notice = { kind: result.kind };

          return false;
        case 'unauthorized':
          this.notice = { kind: 'unauthorized', kept: keepText(shell, 'withdraw', draftTarget(request), { text: this.text }) };

          return false;
        case 'invalid':
          this.notice = {
            kind: 'failed', message: result.message, written: 'notWritten'
          };

          return false;
        default:
          this.notice = {
            kind: 'failed', message: result.message, written: result.written
          };

          return false;
        }
      } catch (e) {
        this.notice = {
          kind: 'failed', message: errorMessage(e), written: 'unknown'
        };

        return false;
      } finally {
        this.writing = false;
      }
    },

    /** After a conflict: the channel as it is now, for the person to confirm again. */
    reload(channel: unknown) {
      if (this.request && channel) {
        this.request = { ...this.request, channel: plainObject(channel) };
        this.notice = null;
      }
    },
  },
});
