// The one write of a workload pool (a ManagedOSImage), shared by the pool form and the approval
// dialog: what they plan is the domain's; api/write.ts sends it and reads back.
// The protocol is described in docs/architecture.md ("The write protocol").
import { KubeObject, plainObject, PoolWritePlan, sameContent } from '../domain';
import { TYPE } from '../config';
import { findOne, ShellStore } from './resources';
import { FRESH } from './write-readback';
import { STATUS_ONLY_RETRIES, write, WriteAnswer } from './write';

/** How long a save waits for the server's answer. */
export const SAVE_TIMEOUT_MS = 30_000;

export { FRESH, STATUS_ONLY_RETRIES };

/** The pool as stored now, as a plain copy; undefined when it cannot be read (gone, forbidden). */
export async function readLatestPool(store: ShellStore, id: string): Promise<KubeObject | undefined> {
  const found = await findOne(store, TYPE.IMAGE, id, FRESH).catch(() => undefined);

  return found ? plainObject(found) : undefined;
}

/** The pool as the page's watch holds it now, without a request (undefined when not held). */
export function heldPool(store: ShellStore, id: string): KubeObject | undefined {
  const byId = store.getters['management/byId'] as ((type: string, id: string) => unknown) | undefined;
  const held = byId?.(TYPE.IMAGE, id);

  return held ? plainObject(held) : undefined;
}

export interface PoolWriteRequest {
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
 * moved (an operator reporting rollout progress, or labelling the pin: `sameContent`) the plan is
 * made again on the new read and sent, at most `retries` times. Any other change writes nothing
 * and the outcome holds the latest read. `before` is the read the last plan was made on.
 */
export async function writePool(store: ShellStore, request: PoolWriteRequest, retries = STATUS_ONLY_RETRIES): Promise<WriteAnswer> {
  return await write(store, {
    type:      TYPE.IMAGE,
    mode:      request.mode,
    before:    request.snapshot,
    plan:      request.plan,
    same:      sameContent,
    plain:     plainObject,
    replan:    { when: (latest, before) => sameContent(latest, before), times: retries },
    timeoutMs: request.timeoutMs ?? SAVE_TIMEOUT_MS,
    signal:    request.signal,
  });
}
