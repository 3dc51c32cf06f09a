import { defineStore } from 'pinia';
import {
  alreadyAtImage, approvalRaceLost, checkPoolUpgrade, KubeObject, OSVersion, PendingWrite, pendingWrite, plainObject, planPoolWrite, PoolIntent, poolId, PoolWritePlan,
  poolImageDrift, readPool, runImage, textDraftTarget, versionImageKey, versionsForPool, WriteNotice, writeNotice, WriteOutcome
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { heldPool, readLatestPool, writePool } from '../api/pools';
import { shownPool } from './shown-pools';
import { keepText, keepTextAs, takeText } from './text-drafts';

const draftTarget = (request: ApprovalRequest) => textDraftTarget(request.id, request.kind, request.versionName);

/** `promote`: the image a source pool soaked (domain/promotion.ts), approved like any other. */
export type ApprovalKind = 'approve' | 'rollback' | 'promote';

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
  /** The image reference the dialog shows for it, and what of the version it came from (`versionImageKey`). */
  image: string;
  expectedImage: string;
  /** Promote: the source pool, `namespace/name`. */
  source?: string;
}

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
export function approvalRequest(kind: ApprovalKind, object: unknown, versions: readonly OSVersion[], now: number, versionName?: string, source?: string): ApprovalRequest {
  const snapshot = plainObject(object);
  const pool = readPool(snapshot);
  let target = '';

  if (kind === 'rollback') {
    target = pool.previousVersion ?? '';
  } else if (versionName !== undefined) {
    target = versionName;
  } else {
    // Without an upgrade, a pin that now names another image than approved is offered again.
    target = checkPoolUpgrade(snapshot, versions, now).upgrade?.name ?? (poolImageDrift(snapshot, versions) ? pool.pin ?? '' : '');
  }

  const version = versionsForPool(versions, pool.namespace).find((v) => v.name === target);

  return {
    kind,
    id:              poolId(snapshot),
    snapshot,
    resourceVersion: pool.resourceVersion ?? '',
    expectedPin:     pool.pin ?? '',
    versionName:     target,
    image:           runImage(undefined, version),
    expectedImage:   versionImageKey(version),
    ...(kind === 'promote' ? { source: source ?? '' } : {}),
  };
}

export function approvalIntent(request: ApprovalRequest, approvedBy: string, comment = ''): PoolIntent {
  const expectedImage = request.expectedImage;

  if (request.kind === 'promote') {
    return {
      kind: 'promote', versionName: request.versionName, expectedPin: request.expectedPin, approvedBy, source: request.source ?? '', comment, expectedImage
    };
  }

  return request.kind === 'rollback' ? {
    kind: 'rollback', approvedBy, expectedPin: request.expectedPin, comment, expectedImage
  } : {
    kind: 'approve', versionName: request.versionName, expectedPin: request.expectedPin, approvedBy, comment, expectedImage
  };
}

/** The approval dialog: what it showed, and the one write it may make. */
export const usePoolApprovalStore = defineStore('osUpgrades/poolApproval', {
  state: () => ({
    request:    null as ApprovalRequest | null,
    /** True from the click until the server answered: a second click writes nothing. */
    writing:    false,
    /** What the last write did, when the dialog stays open to say so. */
    outcome:    null as WriteOutcome | null,
    /** 401: this browser could keep the comment for after the new login. */
    kept:       false,
    /** After a conflict or refusal: the image someone else approved first ('' when not). */
    alreadyAt:  '',
    /** The approver's optional comment, stored with the approval. */
    comment:    '',
    /** The pool whose dialog was open last (`namespace/name`): focus goes back to its row. */
    lastPool:   '',
    /** By pool id: what the last write left, until the operator's status moves past it. */
    pending:    {} as Record<string, PendingWrite>,
    /** Unix seconds of the comment given back after a new login (0 when none). */
    restoredAt: 0,
  }),

  getters: {
    notice(state): WriteNotice | undefined {
      const pool = state.request ? readPool(state.request.snapshot).name : '';

      return state.outcome ? writeNotice(state.outcome, {
        subject: 'approval', kept: state.kept, alreadyDone: !!state.alreadyAt, values: { pool, image: state.alreadyAt }
      }) : undefined;
    },
  },

  actions: {
    /** Forgets what the last write did. */
    clearOutcome() {
      this.outcome = null;
      this.alreadyAt = '';
    },

    /** The shell logs out (a session that expired): the open dialog's comment is kept for this person. */
    keepTyped(principal: string, path: string): void {
      if (this.request && this.comment.trim()) {
        keepTextAs(principal, path, 'approve', draftTarget(this.request), { comment: this.comment });
      }
    },

    /** Opens the dialog. `versionName` is for a pool pinned by exact version: the image the person picked. */
    open(kind: ApprovalKind, object: unknown, versions: readonly OSVersion[], now: number, versionName?: string) {
      if (this.writing) {
        return;
      }
      this.request = approvalRequest(kind, object, versions, now, versionName);
      this.clearOutcome();
      this.comment = '';
      this.restoredAt = 0;
      this.lastPool = this.request.id;
    },

    /** Gives back the comment kept when this approval met 401 (the same person, pool, action and image). */
    restoreComment(shell: ShellStore) {
      const kept = this.request ? takeText(shell, 'approve', draftTarget(this.request)) : undefined;

      if (kept) {
        this.comment = kept.texts.comment ?? '';
        this.restoredAt = kept.savedAt;
      }
    },

    /** Opens the dialog for a promotion offer: its soak (shown as the reason) is the comment, which the person may change. */
    openPromotion(object: unknown, versions: readonly OSVersion[], now: number, versionName: string, source: string, reason: string) {
      if (this.writing) {
        return;
      }
      this.request = approvalRequest('promote', object, versions, now, versionName, source);
      this.clearOutcome();
      this.comment = reason;
      this.restoredAt = 0;
      this.lastPool = this.request.id;
    },

    close() {
      if (!this.writing) {
        this.request = null;
        this.clearOutcome();
      }
    },

    /** The object the dialog would write now, or why it cannot. */
    plan(versions: readonly OSVersion[], now: number, approvedBy: string): PoolWritePlan | undefined {
      return this.request ? planPoolWrite(this.request.snapshot, approvalIntent(this.request, approvedBy, this.comment), versions, now) : undefined;
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
      this.clearOutcome();
      try {
        return await this.write(request, context);
      } finally {
        this.writing = false;
      }
    },

    async write(request: ApprovalRequest, context: ApprovalContext): Promise<boolean> {
      // The watch brought someone else's approval of this image first: nothing to write. Where the
      // shell pages pools, the list's page is read again at each change while the shell's own copy
      // follows its websocket: whichever came first shows it.
      const held = [heldPool(context.store, request.id), shownPool(request.id)].find((pool) => approvalRaceLost(request.snapshot, pool, request.versionName));

      if (held) {
        this.outcome = { kind: 'refused', reason: { key: 'osUpgrades.pool.refusal.alreadyPinned', values: { name: request.versionName } } };
        this.show(request, held, context);

        return false;
      }
      const intent = approvalIntent(request, context.approvedBy, this.comment);
      const outcome = await writePool(context.store, {
        mode:     'update',
        snapshot: request.snapshot,
        plan:     (snapshot) => planPoolWrite(snapshot, intent, context.versions, context.now),
      });

      if (outcome.kind === 'written') {
        this.request = null;
        // The status the write left is the old rollout's until the operator and Fleet react.
        this.pending = { ...this.pending, [request.id]: pendingWrite(outcome.stored) };

        return true;
      }
      this.outcome = outcome;
      if (outcome.kind === 'unauthorized') {
        this.kept = keepText(context.store, 'approve', draftTarget(request), { comment: this.comment });
      } else if (outcome.kind === 'refused') {
        this.show(request, await readLatestPool(context.store, request.id), context);
      } else if (outcome.kind === 'conflict') {
        this.show(request, outcome.latest ?? await readLatestPool(context.store, request.id), context);
      }

      return false;
    },

    /** After a refusal or a conflict: the dialog offers the pool's new state (or says it is gone). */
    show(request: ApprovalRequest, latest: unknown, context: ApprovalContext) {
      if (!latest) {
        this.outcome = { kind: 'refused', reason: { key: 'osUpgrades.pool.refusal.noPool' } };

        return;
      }
      // Lost a race to someone who approved the same image: say so, not why it cannot be approved again.
      if (alreadyAtImage(latest, request.versionName)) {
        this.alreadyAt = request.versionName;
      }
      const keepPick = request.kind === 'promote' || (request.kind === 'approve' && readPool(latest).selectorText === undefined) ? request.versionName : undefined;

      this.request = approvalRequest(request.kind, latest, context.versions, context.now, keepPick, request.source);
    },
  },
});
