import { defineStore } from 'pinia';
import {
  checkPoolUpgrade, KubeObject, OSVersion, PendingWrite, pendingWrite, planPoolWrite, PoolIntent, PoolWritePlan, readPool, Reason
} from '../domain';
import { findOne, ShellStore, WriteError, writeObject } from '../api/resources';
import { TYPE } from '../config';
import { plainPool, poolId, sameContent } from '../components/pool/pool-object';

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

/** How often a write is retried when a 409 came only from a status update. */
const STATUS_ONLY_RETRIES = 3;

async function readLatest(request: ApprovalRequest, context: ApprovalContext): Promise<unknown> {
  return await findOne(context.store, TYPE.IMAGE, request.id, FRESH).catch(() => undefined);
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
        return await this.write(request, context, STATUS_ONLY_RETRIES);
      } finally {
        this.writing = false;
      }
    },

    async write(request: ApprovalRequest, context: ApprovalContext, retries: number): Promise<boolean> {
      const plan = planPoolWrite(request.snapshot, approvalIntent(request, context.approvedBy), context.versions, context.now);

      if (!plan.ok) {
        this.notice = { kind: 'refused', reason: plan.reason };
        this.show(request, await readLatest(request, context), context);

        return false;
      }
      try {
        const stored = await writeObject(context.store, TYPE.IMAGE, plan.object, 'update');

        this.request = null;
        this.written = request.id;
        this.pending = { ...this.pending, [request.id]: pendingWrite(stored ?? plan.object) };

        return true;
      } catch (err) {
        if (!(err instanceof WriteError && err.isConflict)) {
          this.notice = err instanceof WriteError && err.isForbidden ? { kind: 'forbidden' } : { kind: 'failed', message: err instanceof Error ? err.message : String(err) };

          return false;
        }
        const latest = await readLatest(request, context);

        if (latest && retries > 0 && sameContent(latest, request.snapshot)) {
          // Only the status or the operator's own label moved: the pool is still what the dialog showed.
          return await this.write({
            ...request, snapshot: plainPool(latest), resourceVersion: readPool(latest).resourceVersion ?? ''
          }, context, retries - 1);
        }
        this.notice = { kind: 'conflict' };
        this.show(request, latest, context);

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
