import { defineStore } from 'pinia';
import {
  checkPoolUpgrade, KubeObject, OSVersion, planPoolWrite, PoolIntent, PoolWritePlan, readPool, Reason
} from '../domain';
import { findOne, ShellStore, WriteError, writeObject } from '../api/resources';
import { TYPE } from '../config';
import { plainPool, poolId } from '../components/pool/pool-object';

export type ApprovalKind = 'approve' | 'rollback';

/**
 * Read from the server, and start no watch of one object: the shell would stop its watch of the
 * whole list for it, and the pools page would no longer see the rollout progress.
 */
export const FRESH = { force: true, watch: false };

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
    /** The id of the pool written last (the page shows its rollout). */
    written: '',
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
     * Writes the approved pin with the resourceVersion the dialog read. On a refusal or a 409
     * nothing is written: the pool is read again and the dialog shows its new state.
     * Returns true when the write happened.
     */
    async confirm(context: ApprovalContext): Promise<boolean> {
      const request = this.request;

      if (!request || this.writing) {
        return false;
      }
      this.writing = true;
      this.notice = null;
      try {
        const plan = planPoolWrite(request.snapshot, approvalIntent(request, context.approvedBy), context.versions, context.now);

        if (!plan.ok) {
          this.notice = { kind: 'refused', reason: plan.reason };
          await this.reload(request, context);

          return false;
        }
        await writeObject(context.store, TYPE.IMAGE, plan.object, 'update');
        this.request = null;
        this.written = request.id;

        return true;
      } catch (err) {
        if (err instanceof WriteError && err.isConflict) {
          this.notice = { kind: 'conflict' };
          await this.reload(request, context);
        } else if (err instanceof WriteError && err.isForbidden) {
          this.notice = { kind: 'forbidden' };
        } else {
          this.notice = { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
        }

        return false;
      } finally {
        this.writing = false;
      }
    },

    /** Reads the pool again after a refusal: the dialog then offers its new state. */
    async reload(request: ApprovalRequest, context: ApprovalContext) {
      let latest: unknown;

      try {
        latest = await findOne(context.store, TYPE.IMAGE, request.id, FRESH);
      } catch {
        latest = undefined;
      }
      if (!latest) {
        this.notice = { kind: 'refused', reason: { key: 'osUpgrades.pool.refusal.noPool' } };

        return;
      }
      const keepPick = request.kind === 'approve' && readPool(latest).selectorText === undefined ? request.versionName : undefined;

      this.request = approvalRequest(request.kind, latest, context.versions, context.now, keepPick);
    },
  },
});
