import { isRecord } from './text';

export type RolloutPhase = 'done' | 'progressing' | 'error' | 'unknown';

export interface Rollout {
  phase: RolloutPhase;
  /** The message of the condition that decided the phase ('' when there is none). */
  message: string;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
}

function conditionsOf(obj: unknown): Condition[] {
  const status = isRecord(obj) && isRecord(obj.status) ? obj.status : {};
  const list = Array.isArray(status.conditions) ? status.conditions : [];

  return list.filter(isRecord).map((c) => ({
    type:               String(c.type ?? ''),
    status:             String(c.status ?? ''),
    reason:             String(c.reason ?? ''),
    message:            String(c.message ?? ''),
    observedGeneration: typeof c.observedGeneration === 'number' ? c.observedGeneration : undefined,
  }));
}

const FAILURE = /(error|fail)/i;

/**
 * The rollout state of a pool from the Fleet bundle conditions the operator copies into
 * `status.conditions`: Ready=True is done; a failed or erroring condition is an error; a Ready
 * condition not true yet, or one observed for an older generation of the pool, is progressing.
 */
export function rolloutOf(obj: unknown): Rollout {
  const conditions = conditionsOf(obj);
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
  const generation = typeof metadata.generation === 'number' ? metadata.generation : undefined;
  const failed = conditions.find((c) => (c.status === 'True' && FAILURE.test(c.type)) || (c.status === 'False' && FAILURE.test(c.reason)));

  if (failed) {
    return { phase: 'error', message: failed.message || failed.reason };
  }
  const ready = conditions.find((c) => c.type === 'Ready');

  if (!ready) {
    return { phase: 'unknown', message: '' };
  }
  const stale = generation !== undefined && ready.observedGeneration !== undefined && ready.observedGeneration < generation;

  if (ready.status === 'True' && !stale) {
    return { phase: 'done', message: ready.message };
  }

  return { phase: 'progressing', message: ready.message || ready.reason };
}
