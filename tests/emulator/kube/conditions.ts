// Status conditions as controllers write them. Source: kubernetes/apimachinery
// pkg/api/meta/conditions.go (SetStatusCondition, FindStatusCondition) over metav1.Condition, which
// rancher/elemental-operator controllers/managedosversionchannel_controller.go calls for a channel's Ready.

import { JsonObject, isObject } from '../core/json';
import { nowTimestamp } from './objects';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

export function conditionsOf(status: unknown): JsonObject[] {
  const conditions = isObject(status) ? status.conditions : undefined;

  return Array.isArray(conditions) ? conditions.filter(isObject) : [];
}

/** apimachinery's meta.SetStatusCondition: lastTransitionTime moves only when the status changes. */
export function setCondition(conditions: JsonObject[], condition: Condition, now = new Date()): JsonObject[] {
  const out = conditions.map((c) => ({ ...c }));
  const existing = out.find((c) => c.type === condition.type);

  if (!existing) {
    out.push({ ...condition, lastTransitionTime: condition.lastTransitionTime ?? nowTimestamp(now) });

    return out;
  }
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime ?? nowTimestamp(now);
  }
  existing.reason = condition.reason;
  existing.message = condition.message;

  return out;
}
