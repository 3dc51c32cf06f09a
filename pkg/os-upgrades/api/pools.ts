// The one write of a workload pool (a ManagedOSImage), shared by the pool form and the approval
// dialog: what they plan is the domain's; this sends it and handles the answer.
// The protocol is described in docs/architecture.md ("The write protocol").
import {
  KubeObject, plainObject, PoolWritePlan, Reason, sameContent, WriteVerdict
} from '../domain';
import { TYPE } from '../config';
import { findOne, ShellStore } from './resources';
import { FRESH, writeAndReadBack } from './write-readback';

/** How long a save waits for the server's answer. */
export const SAVE_TIMEOUT_MS = 30_000;

export { FRESH };

/** How often a write is retried when a 409 came only from a status update (or the operator's label). */
export const STATUS_ONLY_RETRIES = 3;

/** The pool as stored now, as a plain copy; undefined when it cannot be read (gone, forbidden). */
export async function readLatestPool(store: ShellStore, id: string): Promise<KubeObject | undefined> {
  const found = await findOne(store, TYPE.IMAGE, id, FRESH).catch(() => undefined);

  return found ? plainObject(found) : undefined;
}

export type PoolWriteOutcome =
  /** Written; `snapshot` is the read the object was planned on, `stored` what the server answered. */
  | { kind: 'written'; snapshot: KubeObject | undefined; stored?: KubeObject }
  /** The plan refused: nothing was sent. */
  | { kind: 'refused'; reason: Reason; snapshot: KubeObject | undefined }
  /** 409 for a change to more than the status: nothing was written; `latest` is the pool now (undefined when gone). */
  | { kind: 'conflict'; snapshot: KubeObject | undefined; latest?: KubeObject }
  /** The server refused (403, 400/422, 401): nothing was written. */
  | { kind: 'forbidden' | 'invalid' | 'unauthorized'; message: string; snapshot: KubeObject | undefined }
  /**
   * No clear answer: a 5xx or a network error (`failed`), no answer in time (`timeout`), or the
   * person cancelled. `written` is what a read of the pool afterwards shows.
   */
  | { kind: 'failed' | 'timeout' | 'cancelled'; message: string; written: WriteVerdict; snapshot: KubeObject | undefined };

export interface PoolWriteRequest {
  /** `namespace/name`, to read the pool again after a 409. */
  id: string;
  mode: 'create' | 'update';
  /** The pool as read by the person's screen (undefined when creating). */
  snapshot: KubeObject | undefined;
  /** The object to write, planned on a read of the pool; it carries that read's resourceVersion. */
  plan: (snapshot: KubeObject | undefined) => PoolWritePlan;
  /** Cancels the wait for the answer (Cancel beside Saving…). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Plans on the snapshot and sends the object. The server answers 409 when the pool changed since
 * that read; the pool is then read again, and when only its status or the operator's own label
 * moved (an operator reporting rollout progress, or labelling the pin: `sameContent`) the plan is made again on the new read and sent, at most
 * `retries` times. Any other change writes nothing and returns the latest read.
 */
export async function writePool(store: ShellStore, request: PoolWriteRequest, retries = STATUS_ONLY_RETRIES): Promise<PoolWriteOutcome> {
  const { snapshot } = request;
  const plan = request.plan(snapshot);

  if (!plan.ok) {
    return {
      kind: 'refused', reason: plan.reason, snapshot
    };
  }
  const result = await writeAndReadBack(store, {
    type: TYPE.IMAGE, object: plan.object, mode: request.mode, before: snapshot, same: sameContent, plain: plainObject
  }, { timeoutMs: request.timeoutMs ?? SAVE_TIMEOUT_MS, signal: request.signal });

  switch (result.kind) {
  case 'written':
    return {
      kind: 'written', snapshot, stored: result.stored
    };
  case 'conflict':
    break;
  case 'forbidden':
  case 'invalid':
  case 'unauthorized':
    return {
      kind: result.kind, message: result.message, snapshot
    };
  default:
    return {
      kind: result.kind, message: result.message, written: result.written, snapshot
    };
  }
  const latest = await readLatestPool(store, request.id);

  if (latest && retries > 0 && sameContent(latest, snapshot)) {
    return await writePool(store, { ...request, snapshot: latest }, retries - 1);
  }

  return {
    kind: 'conflict', snapshot, latest
  };
}
