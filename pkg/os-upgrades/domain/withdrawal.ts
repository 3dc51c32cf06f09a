// Withdrawn images (pkg/os-upgrades/domain/README.md, rule "Withdrawn images"). The record lives on the
// ManagedOSVersionChannel, not on the ManagedOSVersion: the operator's channel sync rewrites
// the labels and annotations of the versions it creates (elemental-operator
// controllers/managedosversionchannel_controller.go, createManagedOSVersions), but never the
// channel's own metadata.
import type { KubeObject, OSVersion, Reason, Withdrawal } from './types';
import { asOSVersions, VersionInput } from './channel';
import { appendHistory } from './history';
import { asText, cloneJson, isRecord } from './text';
import { WITHDRAWN_ANNOTATION } from './keys';


export interface WithdrawalReading {
  /** Version name → withdrawal. */
  withdrawals: Record<string, Withdrawal>;
  warnings: Reason[];
}

function metadataOf(obj: unknown): Record<string, unknown> {
  return isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
}

function warning(name: string): Reason {
  return { key: `osUpgrades.withdrawal.warning.${ name }` };
}

/** The withdrawals a channel records. Never throws: bad JSON gives none, with a warning. */
export function readWithdrawals(channel: unknown): WithdrawalReading {
  const annotations = isRecord(metadataOf(channel).annotations) ? metadataOf(channel).annotations as Record<string, unknown> : {};
  const text = annotations[WITHDRAWN_ANNOTATION];
  const withdrawals: Record<string, Withdrawal> = {};

  if (text === undefined || text === null || text === '') {
    return { withdrawals, warnings: [] };
  }
  let parsed: unknown;

  try {
    parsed = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) {
    return { withdrawals, warnings: [warning('unreadable')] };
  }
  let skipped = false;

  for (const [name, value] of Object.entries(parsed)) {
    if (isRecord(value)) {
      withdrawals[name] = {
        reason: asText(value.reason), by: asText(value.by), at: asText(value.at)
      };
    } else {
      skipped = true;
    }
  }

  return { withdrawals, warnings: skipped ? [warning('skipped')] : [] };
}

/**
 * The versions with `withdrawn` set from their channel's annotation (a channel is matched by
 * namespace and name against the version's channel label). New records; the others unchanged
 * (a withdrawal a channel no longer lists is removed).
 */
export function applyWithdrawals(versions: readonly VersionInput[], channels: readonly unknown[]): OSVersion[] {
  const byChannel = new Map<string, Record<string, Withdrawal>>();

  for (const channel of Array.isArray(channels) ? channels : []) {
    const metadata = metadataOf(channel);

    byChannel.set(`${ asText(metadata.namespace) }\u0000${ asText(metadata.name) }`, readWithdrawals(channel).withdrawals);
  }

  return asOSVersions(versions).map((version) => {
    const withdrawals = byChannel.get(`${ version.namespace }\u0000${ version.channel }`);
    const withdrawal = withdrawals && Object.prototype.hasOwnProperty.call(withdrawals, version.name) ? withdrawals[version.name] : undefined;

    if (withdrawal) {
      return { ...version, withdrawn: { ...withdrawal } };
    }
    if (version.withdrawn) {
      const copy = { ...version };

      delete copy.withdrawn;

      return copy;
    }

    return version;
  });
}

export interface WithdrawIntent {
  kind: 'withdraw';
  versionName: string;
  /** Why: shown on every pool running it, and the history's comment. */
  reason: string;
  by: string;
}

export interface RestoreIntent {
  kind: 'restore';
  versionName: string;
  /** Why it may be used again. */
  comment: string;
  by: string;
}

export type WithdrawalPlan = { ok: true; object: KubeObject } | { ok: false; reason: Reason };

function refuse(name: string, values?: Record<string, unknown>): WithdrawalPlan {
  return { ok: false, reason: values ? { key: `osUpgrades.withdrawal.refusal.${ name }`, values } : { key: `osUpgrades.withdrawal.refusal.${ name }` } };
}

function isoTime(now: number): string | undefined {
  return Number.isFinite(now) && Math.abs(now * 1000) <= 8.64e15 ? new Date(now * 1000).toISOString() : undefined;
}

/**
 * The channel object to write for a withdrawal or a restore: the annotation's JSON changed and
 * one history entry appended, in the same object (one request; it keeps resourceVersion so a
 * concurrent change gets a 409). `versions` are the versions known, to refuse an unknown name.
 */
export function planWithdrawal(channel: unknown, intent: WithdrawIntent | RestoreIntent, versions: readonly VersionInput[], now: number): WithdrawalPlan {
  if (!isRecord(channel)) {
    return refuse('noChannel');
  }
  if (!isRecord(intent) || (intent.kind !== 'withdraw' && intent.kind !== 'restore')) {
    return refuse('unknownIntent');
  }
  const at = isoTime(now);
  const by = asText(intent.by).trim();
  const name = asText(intent.versionName);
  const comment = (intent.kind === 'withdraw' ? asText(intent.reason) : asText(intent.comment)).trim();
  const metadata = metadataOf(channel);
  const reading = readWithdrawals(channel);

  if (!by) {
    return refuse('approverRequired');
  }
  if (!at) {
    return refuse('invalidTime');
  }
  if (!comment) {
    return refuse(intent.kind === 'withdraw' ? 'reasonRequired' : 'commentRequired');
  }
  if (reading.warnings.length) {
    // Never overwrite a record that cannot be read: someone else's withdrawals would be lost.
    return refuse('unreadable');
  }
  const known = asOSVersions(versions).some((version) => version.name === name && version.channel === asText(metadata.name) &&
    (version.namespace === '' || version.namespace === asText(metadata.namespace)));

  if (!name || !known) {
    return refuse('versionNotFound', { name });
  }
  const withdrawn = Object.prototype.hasOwnProperty.call(reading.withdrawals, name);

  if (intent.kind === 'withdraw' && withdrawn) {
    return refuse('alreadyWithdrawn', { name });
  }
  if (intent.kind === 'restore' && !withdrawn) {
    return refuse('notWithdrawn', { name });
  }
  const withdrawals = { ...reading.withdrawals };

  if (intent.kind === 'withdraw') {
    withdrawals[name] = {
      reason: comment, by, at
    };
  } else {
    delete withdrawals[name];
  }
  const object = cloneJson(channel);

  if (!isRecord(object.metadata)) {
    object.metadata = {};
  }
  const objectMetadata = object.metadata as Record<string, unknown>;

  if (!isRecord(objectMetadata.annotations)) {
    objectMetadata.annotations = {};
  }
  const annotations = objectMetadata.annotations as Record<string, unknown>;

  if (Object.keys(withdrawals).length) {
    annotations[WITHDRAWN_ANNOTATION] = JSON.stringify(withdrawals);
  } else {
    delete annotations[WITHDRAWN_ANNOTATION];
  }
  appendHistory(object, {
    kind: intent.kind, from: '', to: name, by, at, comment
  });

  return { ok: true, object };
}
