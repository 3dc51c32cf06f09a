import { defineStore } from 'pinia';
import {
  checkPoolUpgrade, KubeObject, OSVersion, PendingWrite, pendingWrite, plainPool, planPoolWrite, PoolIntent, poolId, PoolWritePlan,
  readPool, Reason
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { readLatestPool, writePool } from '../api/pools';

export type ApprovalKind = 'approve' | 'rollback';

/** What the approval dialog showed the person: the write must match it exactly or not happen. */
export interface ApprovalRequest {
  kind: ApprovalKind;
  id: string;
  /** The pool as read when the dialog opened (or reloaded after a refusal). */
  snapshot: KubeObject;
  resourceVersion: string;
  /** The pin the dialog shows as current ('' when none). */
  expectedPin: string;
  /** The image the dialog offers (approve: the candidate; rollback: the previous pin). */
  versionName: string;
}

export type ApprovalNotice =
  | { kind: 'conflict' }
  | { kind: 'refused'; reason: Reason }
  | { kind: 'forbidden' }
  | { kind: 'failed'; message: string };

export interface ApprovalContext {
  store: ShellStore;
  versions: readonly OSVersion[];
  /** Unix seconds. */
  now: number;
  approvedBy: string;
}

/**
 * The request for `object`: for an approval, the image its selector picks now unless the person
 * chose one (`versionName`, for a pool pinned by exact version); for a rollback, its previous pin.
 */
export function approvalRequest(kind: ApprovalKind, object: unknown, versions: readonly OSVersion[], now: number, versionName?: string): ApprovalRequest {
  const snapshot = plainPool(object);
  const pool = readPool(snapshot);
  let target = '';

  if (kind === 'rollback') {
    target = pool.previousVersion ?? '';
  } else if (versionName !== undefined) {
    target = versionName;
  } else {
    target = checkPoolUpgrade(snapshot, versions, now).upgrade?.name ?? '';
  }

  return {
    kind,
    id:              poolId(snapshot),
    snapshot,
    resourceVersion: pool.resourceVersion ?? '',
    expectedPin:     pool.pin ?? '',
    versionName:     target,
  };
}

export function approvalIntent(request: ApprovalRequest, approvedBy: string): PoolIntent {
  return request.kind === 'rollback' ? {
    kind: 'rollback', approvedBy, expectedPin: request.expectedPin
  } : {
    kind: 'approve', versionName: request.versionName, expectedPin: request.expectedPin, approvedBy
  };
}

/** The approval dialog: what it showed, and the one write it may make. */
export const usePoolApprovalStore = defineStore('osUpgrades.poolApproval', {
  state: () => ({
    request: null as ApprovalRequest | null,
    /** True from the click until the server answered: a second click writes nothing. */
    writing: false,
    notice:  null as ApprovalNotice | null,
    /** By pool id: what the last write left, until the operator's status moves past it. */
    pending: {} as Record<string, PendingWrite>,
  }),

  actions: {
    /** Opens the dialog. `versionName` is for a pool pinned by exact version: the image the person picked. */
    open(kind: ApprovalKind, object: unknown, versions: readonly OSVersion[], now: number, versionName?: string) {
      if (this.writing) {
        return;
      }
      this.request = approvalRequest(kind, object, versions, now, versionName);
      this.notice = null;
    },

    close() {
      if (!this.writing) {
        this.request = null;
        this.notice = null;
      }
    },

    /** The object the dialog would write now, or why it cannot. */
    plan(versions: readonly OSVersion[], now: number, approvedBy: string): PoolWritePlan | undefined {
      return this.request ? planPoolWrite(this.request.snapshot, approvalIntent(this.request, approvedBy), versions, now) : undefined;
    },

    /**
     * Writes the approved pin with the resourceVersion the dialog read. On a refusal, or a 409
     * for a change to anything but the status, nothing is written: the pool is read again and
     * the dialog shows its new state. Returns true when the write happened.
     */
    async confirm(context: ApprovalContext): Promise<boolean> {
      const request = this.request;

      if (!request || this.writing) {
        return false;
      }
      this.writing = true;
      this.notice = null;
      try {
        return await this.write(request, context);
      } finally {
        this.writing = false;
      }
    },

    async write(request: ApprovalRequest, context: ApprovalContext): Promise<boolean> {
      const intent = approvalIntent(request, context.approvedBy);
      const outcome = await writePool(context.store, {
        id:       request.id,
        mode:     'update',
        snapshot: request.snapshot,
        plan:     (snapshot) => planPoolWrite(snapshot, intent, context.versions, context.now),
      });

      switch (outcome.kind) {
      case 'written':
        this.request = null;
        // The status the write left is the old rollout's until the operator and Fleet react.
        this.pending = { ...this.pending, [request.id]: pendingWrite(outcome.stored ?? outcome.snapshot) };

        return true;
      case 'refused':
        this.notice = { kind: 'refused', reason: outcome.reason };
        this.show(request, await readLatestPool(context.store, request.id), context);

        return false;
      case 'conflict':
        this.notice = { kind: 'conflict' };
        this.show(request, outcome.latest, context);

        return false;
      case 'forbidden':
        this.notice = { kind: 'forbidden' };

        return false;
      default:
        this.notice = { kind: 'failed', message: outcome.message };

        return false;
      }
    },

    /** After a refusal or a conflict: the dialog offers the pool's new state (or says it is gone). */
    show(request: ApprovalRequest, latest: unknown, context: ApprovalContext) {
      if (!latest) {
        this.notice = { kind: 'refused', reason: { key: 'osUpgrades.pool.refusal.noPool' } };

        return;
      }
      const keepPick = request.kind === 'approve' && readPool(latest).selectorText === undefined ? request.versionName : undefined;

      this.request = approvalRequest(request.kind, latest, context.versions, context.now, keepPick);
    },
  },
});
