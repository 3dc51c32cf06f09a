// Withdrawing an image and restoring it (domain/withdrawal.ts): the dialog's state and its one
// write, the channel with its annotation and history changed, sent with the resourceVersion read.
import { defineStore } from 'pinia';
import {
  applyWithdrawals, OSVersion, plainObject, planWithdrawal, readPool, RestoreIntent, textDraftTarget, WithdrawalPlan, WithdrawIntent, WriteNotice, writeNotice, WriteOutcome
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { errorMessage, findAll } from '../api/resources';
import { writeChannel } from '../api/channels';
import { idOf, readBack } from '../api/write-readback';
import { TYPE } from '../config';
import { useChannelVersionsStore } from './channel-versions';
import { selectorChannels } from './pool-list';
import { keepText, keepTextAs, takeText } from './text-drafts';

function intentOf(request: WithdrawalRequest, text: string, by: string): WithdrawIntent | RestoreIntent {
  return request.kind === 'withdraw' ? {
    kind: 'withdraw', versionName: request.versionName, reason: text, by
  } : {
    kind: 'restore', versionName: request.versionName, comment: text, by
  };
}

function draftTarget(request: WithdrawalRequest): string {
  const { namespace = '', name = '' } = (request.channel.metadata ?? {}) as { namespace?: string; name?: string };

  return textDraftTarget(`${ namespace }/${ name }`, request.kind, request.versionName);
}

export type WithdrawalKind = 'withdraw' | 'restore';

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
    /** What the last write did, when the dialog stays open to say so. */
    outcome:    null as WriteOutcome | null,
    /** 401: this browser could keep the text for after the new login. */
    kept:       false,
    /** Unix seconds of the text given back after a new login (0 when none). */
    restoredAt: 0,
    /** The pools, read when a withdraw dialog opens: which of them run the image (domain/withdrawal-impact.ts). */
    pools:      {
      state: 'idle' as 'idle' | 'loading' | 'loaded' | 'error', objects: [] as unknown[], versions: [] as OSVersion[], error: ''
    },
  }),

  getters: {
    notice: (state): WriteNotice | undefined => (state.outcome && state.request ? writeNotice(state.outcome, { subject: state.request.kind === 'withdraw' ? 'withdrawal' : 'restore', kept: state.kept }) : undefined),

    /** After an answer that left the channel written, changed by someone else, or unread, confirming again could write twice. */
    settled(): boolean {
      return !!this.notice?.settled;
    },
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
      this.outcome = null;
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
        this.outcome = null;
      }
    },

    plan(versions: readonly OSVersion[], by: string, now: number): WithdrawalPlan | undefined {
      const request = this.request;

      if (!request) {
        return undefined;
      }

      return planWithdrawal(request.channel, intentOf(request, this.text, by), versions, now);
    },

    /**
     * Writes the planned channel; returns true when it was written. A refusal or a 409 writes
     * nothing (but a 409 from the operator's status alone: api/channels.ts plans it again on the
     * new read); after a 409 the dialog goes on from the channel as it is now.
     */
    async confirm(shell: ShellStore, versions: readonly OSVersion[], by: string, now: number): Promise<boolean> {
      const request = this.request;
      const plan = this.plan(versions, by, now);

      if (!request || !plan || this.writing) {
        return false;
      }
      this.writing = true;
      this.outcome = null;
      try {
        const intent = intentOf(request, this.text, by);
        const outcome = await writeChannel(shell, request.channel, (channel) => planWithdrawal(channel, intent, versions, now));

        // A plain success closes the dialog; the rest is said in it.
        this.outcome = outcome.kind === 'written' && !outcome.readBack ? null : outcome;
        if (outcome.kind === 'written' && !outcome.readBack) {
          this.request = null;
        }
        if (outcome.kind === 'unauthorized') {
          this.kept = keepText(shell, 'withdraw', draftTarget(request), { text: this.text });
        }
        if (outcome.kind === 'conflict' && outcome.latest) {
          this.request = { ...request, channel: outcome.latest };
        }

        return outcome.kind === 'written';
      } catch (e) {
        this.outcome = {
          kind: 'failed', message: errorMessage(e), written: 'unknown'
        };

        return false;
      } finally {
        this.writing = false;
      }
    },

    /** After an unclear answer: the channel as stored now, for the person to confirm again (or see it is done). */
    async readAgain(shell: ShellStore) {
      const request = this.request;
      const channel = request ? await readBack(shell, TYPE.CHANNEL, idOf(request.channel), plainObject) : undefined;

      if (request && this.request === request && channel && channel !== 'unreadable') {
        this.request = { ...request, channel };
        this.outcome = null;
      }
    },
  },
});
