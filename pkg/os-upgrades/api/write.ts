// The one write routine for every object the extension writes (pools, channels, settings,
// ManagedOSChangelogs): plans the object on a read, sends it with that read's resourceVersion,
// reads it again when the answer was a 409 or unclear, and returns one WriteOutcome
// (domain/write-outcome.ts), which domain/write-notice.ts puts into words.
// The protocol is described in docs/architecture.md ("The write protocol").
import type { KubeObject, Reason, WriteOutcome } from '../domain';
import type { ShellStore, WriteOptions } from './resources';
import { idOf, readBack, SendRequest, writeAndReadBack } from './write-readback';

/** How often a write is planned again when a 409 came only from a status update (or the operator's label). */
export const STATUS_ONLY_RETRIES = 3;

/** The object to write, or why it may not be written (nothing is sent). */
export type WritePlan = { ok: true; object: KubeObject } | { ok: false; reason: Reason };

export interface WriteRequest extends Omit<SendRequest, 'object'>, WriteOptions {
  /** The object to write as planned on `before`, the read it starts from (undefined for a create). */
  plan: (before: KubeObject | undefined) => WritePlan;
  /**
   * After a 409: when the object moved only in a way the plan does not depend on (a pool's status),
   * the plan is made again on the new read and sent, at most `times` times.
   */
  replan?: { when: (latest: KubeObject, before: KubeObject | undefined) => boolean; times: number };
}

/** The outcome, and the read the last plan was made on (a new one after a replan). */
export type WriteAnswer = WriteOutcome & { before: KubeObject | undefined };

/** A plan that writes `object` as it is. */
export const asIs = (object: KubeObject) => (): WritePlan => ({ ok: true, object });

export async function write(store: ShellStore, request: WriteRequest): Promise<WriteAnswer> {
  const { before } = request;
  const plan = request.plan(before);

  if (!plan.ok) {
    return {
      kind: 'refused', reason: plan.reason, before
    };
  }
  const result = await writeAndReadBack(store, {
    type: request.type, object: plan.object, mode: request.mode, before, same: request.same, plain: request.plain
  }, { timeoutMs: request.timeoutMs, signal: request.signal });

  if (result.kind !== 'conflict') {
    return { ...result, before };
  }
  const read = (plan.object.metadata as { name?: unknown } | undefined)?.name ? await readBack(store, request.type, idOf(plan.object), request.plain) : undefined;
  const latest = read === 'unreadable' ? undefined : read;
  const replan = request.replan;

  if (latest && replan && replan.times > 0 && replan.when(latest, before)) {
    return await write(store, {
      ...request, before: latest, replan: { ...replan, times: replan.times - 1 }
    });
  }

  return {
    ...result, before, ...(latest ? { latest } : {})
  };
}
