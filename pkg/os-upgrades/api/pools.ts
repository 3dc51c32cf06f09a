// The one write of a workload pool (a ManagedOSImage), shared by the pool form and the approval
// dialog: what they plan is the domain's; this sends it and handles the answer.
// The protocol is described in docs/architecture.md ("The write protocol").
import {
  KubeObject, plainPool, PoolWritePlan, Reason, sameContent
} from '../domain';
import { TYPE } from '../config';
import {
  errorMessage, findOne, ShellStore, WriteError, writeObject
} from './resources';

/**
 * Read from the server, and start no watch of one object: the shell would stop its watch of the
 * whole list for it, and the pools page would no longer see the rollout progress.
 */
export const FRESH = { force: true, watch: false };

/** How often a write is retried when a 409 came only from a status update (or the operator's label). */
export const STATUS_ONLY_RETRIES = 3;

/** The pool as stored now, as a plain copy; undefined when it cannot be read (gone, forbidden). */
export async function readLatestPool(store: ShellStore, id: string): Promise<KubeObject | undefined> {
  const found = await findOne(store, TYPE.IMAGE, id, FRESH).catch(() => undefined);

  return found ? plainPool(found) : undefined;
}

export type PoolWriteOutcome =
  /** Written; `snapshot` is the read the object was planned on, `stored` what the server answered. */
  | { kind: 'written'; snapshot: KubeObject | undefined; stored?: KubeObject }
  /** The plan refused: nothing was sent. */
  | { kind: 'refused'; reason: Reason; snapshot: KubeObject | undefined }
  /** 409 for a change to more than the status: nothing was written; `latest` is the pool now (undefined when gone). */
  | { kind: 'conflict'; snapshot: KubeObject | undefined; latest?: KubeObject }
  /** The server refused for another reason (403, 400/422, anything else): nothing was written. */
  | { kind: 'forbidden' | 'invalid' | 'failed'; message: string; snapshot: KubeObject | undefined };

export interface PoolWriteRequest {
  /** `namespace/name`, to read the pool again after a 409. */
  id: string;
  mode: 'create' | 'update';
  /** The pool as read by the person's screen (undefined when creating). */
  snapshot: KubeObject | undefined;
  /** The object to write, planned on a read of the pool; it carries that read's resourceVersion. */
  plan: (snapshot: KubeObject | undefined) => PoolWritePlan;
}

function failure(err: unknown, snapshot: KubeObject | undefined): PoolWriteOutcome {
  const message = errorMessage(err);

  if (err instanceof WriteError && err.isForbidden) {
    return {
      kind: 'forbidden', message, snapshot
    };
  }
  if (err instanceof WriteError && (err.status === 422 || err.status === 400)) {
    return {
      kind: 'invalid', message, snapshot
    };
  }

  return {
    kind: 'failed', message, snapshot
  };
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
  try {
    const stored = await writeObject(store, TYPE.IMAGE, plan.object, request.mode);

    return {
      kind: 'written', snapshot, stored: stored ? plainPool(stored) : plan.object
    };
  } catch (err) {
    if (!(err instanceof WriteError && err.isConflict)) {
      return failure(err, snapshot);
    }
    const latest = await readLatestPool(store, request.id);

    if (latest && retries > 0 && sameContent(latest, snapshot)) {
      return await writePool(store, { ...request, snapshot: latest }, retries - 1);
    }

    return {
      kind: 'conflict', snapshot, latest
    };
  }
}
