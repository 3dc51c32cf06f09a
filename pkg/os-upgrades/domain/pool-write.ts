import type { KubeObject, OSVersion, Reason } from './types';
import type { VersionInput } from './channel';
import { isContainerVersion } from './channel';
import {
  APPROVAL_COMMENT_MAX, fleetLocalWithTargets, parts, PROTECTED_ANNOTATIONS, readPool, versionsForPool
} from './pool';
import {
  ImageSelector, parseSelector, resolveSelector, Resolution, serializeSelector
} from './selector';
import { asText, cloneJson, isRecord, withoutFinalStop } from './text';
import { addForce, isDowngrade, isSameTag, removeExtensionForce } from './force';
import { appendHistory, HistoryKind, specChanges } from './history';
import { guardedChange } from './guarded-fields';
import { imageDrift, runImage, versionImageKey } from './approved-image';
import {
  APPROVAL_COMMENT_ANNOTATION, APPROVED_AT_ANNOTATION, APPROVED_BY_ANNOTATION, APPROVED_IMAGE_ANNOTATION, ELEMENTAL_API_VERSION, PREVIOUS_VERSION_ANNOTATION, SELECTOR_ANNOTATION
} from './keys';

/** Spec fields a person may edit: targets, node selector, concurrency, cordon, drain… */
export type PoolSpecFields = Record<string, unknown>;

/** Labels and annotations to set; a null value removes the key. Protected annotations are ignored. */
export interface PoolMetadataFields {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
}

export interface CreateExactIntent extends PoolMetadataFields {
  kind: 'create-exact';
  name?: string;
  namespace?: string;
  versionName: string;
  spec?: PoolSpecFields;
}

export interface CreateSelectorIntent extends PoolMetadataFields {
  kind: 'create-selector';
  name?: string;
  namespace?: string;
  selector: ImageSelector | string;
  spec?: PoolSpecFields;
}

export interface EditIntent extends PoolMetadataFields {
  kind: 'edit';
  spec?: PoolSpecFields;
}

export interface ChangeSelectorIntent {
  kind: 'change-selector';
  /** null stops following a selector (the pin stays). */
  selector: ImageSelector | string | null;
}

export interface ApproveIntent {
  kind: 'approve';
  /** The version the person saw in the approval dialog. */
  versionName: string;
  /** The pin the dialog showed as current ('' or undefined when there was none). */
  expectedPin?: string;
  approvedBy: string;
  /** Why, for the approval history (optional). */
  comment?: string;
  /** The target's `versionImageKey` when the dialog showed it: refused when the image changed since. */
  expectedImage?: string;
}

/** Approve the image a source pool soaked (see promotion.ts): it must pass the pool's selector, not be its newest pick. */
export interface PromoteIntent {
  kind: 'promote';
  versionName: string;
  expectedPin?: string;
  approvedBy: string;
  /** `<namespace>/<name>` of the source pool. */
  source: string;
  /** The soak shown as the reason, for the history. */
  comment?: string;
  expectedImage?: string;
}

export interface RollbackIntent {
  kind: 'rollback';
  approvedBy: string;
  /** When given, the rollback is refused if the pin moved since the dialog showed it. */
  expectedPin?: string;
  comment?: string;
  expectedImage?: string;
}

export type PoolIntent = CreateExactIntent | CreateSelectorIntent | EditIntent | ChangeSelectorIntent | ApproveIntent | PromoteIntent | RollbackIntent;

export type PoolWritePlan =
  | {
    ok: true;
    /** The full ManagedOSImage to create or update (a new object). */
    object: KubeObject;
    /** The selector's resolution, for create-selector, change-selector and approve with a selector. */
    resolution?: Resolution;
    /** What the selector picks now (change-selector): an upgrade to approve when it differs from the pin. */
    candidate?: OSVersion;
    /**
     * Approve and rollback: the write makes the upgrade job run with FORCE=true, because the
     * nodes would otherwise skip an image that is not higher than theirs (see force.ts).
     */
    forced?: boolean;
    /**
     * Approve and rollback: the target's image has the current pin's tag. The
     * system-upgrade-controller hashes the tag only (pkg/upgrade/plan/plan.go DigestStatus), so
     * no node runs anything for this write.
     */
    sameTag?: boolean;
  }
  | { ok: false; reason: Reason; resolution?: Resolution };

const PIN_FIELDS = ['managedOSVersionName', 'osImage'];

function refuse(name: string, values?: Record<string, unknown>, resolution?: Resolution): PoolWritePlan {
  const reason: Reason = values ? { key: `osUpgrades.pool.refusal.${ name }`, values } : { key: `osUpgrades.pool.refusal.${ name }` };

  return resolution ? {
    ok: false, reason, resolution
  } : { ok: false, reason };
}

function checkVersion(versions: OSVersion[], name: string): PoolWritePlan | undefined {
  const matches = versions.filter((version) => version.name === name);

  if (!name || !matches.length) {
    return refuse('versionNotFound', { name });
  }
  if (!matches.some((version) => isContainerVersion(version))) {
    return refuse('notContainer', { name, type: matches[0].type });
  }
  if (matches.every((version) => version.terminating)) {
    return refuse('terminating', { name });
  }
  const withdrawn = matches.find((version) => version.withdrawn)?.withdrawn;

  if (withdrawn) {
    return refuse('withdrawn', {
      name, reason: withoutFinalStop(withdrawn.reason), by: withdrawn.by
    });
  }

  return undefined;
}

/** The target's image or upgrade container changed since the dialog showed it (`expected`). */
function imageChanged(versions: OSVersion[], name: string, expected: string | undefined): PoolWritePlan | undefined {
  const version = findVersion(versions, name);

  return expected === undefined || versionImageKey(version) === expected ? undefined : refuse('imageChanged', { name, image: runImage(undefined, version) });
}

function isoTime(now: number): string | undefined {
  // Date#toISOString throws outside ±8.64e15 ms.
  return Number.isFinite(now) && Math.abs(now * 1000) <= 8.64e15 ? new Date(now * 1000).toISOString() : undefined;
}

function applyMetadata(metadata: Record<string, unknown>, fields: PoolMetadataFields): void {
  for (const field of ['labels', 'annotations'] as const) {
    const changes = fields[field];

    if (!isRecord(changes)) {
      continue;
    }
    const target = isRecord(metadata[field]) ? metadata[field] as Record<string, unknown> : {};

    for (const [key, value] of Object.entries(changes)) {
      if (field === 'annotations' && PROTECTED_ANNOTATIONS.includes(key)) {
        continue;
      }
      if (value === null || value === undefined) {
        delete target[key];
      } else {
        target[key] = String(value);
      }
    }
    metadata[field] = target;
  }
}

function applySpec(spec: Record<string, unknown>, fields: PoolSpecFields | undefined): void {
  if (!isRecord(fields)) {
    return;
  }
  for (const [key, value] of Object.entries(fields)) {
    if (PIN_FIELDS.includes(key)) {
      continue;
    }
    if (value === undefined) {
      delete spec[key];
    } else {
      // null is kept: `drain: null` disables draining.
      spec[key] = cloneJson(value);
    }
  }
}

function setPin(spec: Record<string, unknown>, name: string): void {
  spec.managedOSVersionName = name;
  delete spec.osImage;
}

function planCreate(current: KubeObject | undefined, intent: CreateExactIntent | CreateSelectorIntent, versions: readonly VersionInput[], now: number): PoolWritePlan {
  const draft = isRecord(current) ? cloneJson(current) : {};
  const { metadata, spec } = parts(draft);

  if (asText(metadata.resourceVersion)) {
    return refuse('alreadyExists', { name: asText(metadata.name) });
  }
  const name = intent.name ?? asText(metadata.name);
  const namespace = intent.namespace ?? asText(metadata.namespace);

  if (!name) {
    return refuse('missingName');
  }
  if (!namespace) {
    return refuse('missingNamespace');
  }

  delete draft.status;
  draft.apiVersion = ELEMENTAL_API_VERSION;
  draft.kind = 'ManagedOSImage';
  metadata.name = name;
  metadata.namespace = namespace;
  if (isRecord(metadata.annotations)) {
    for (const key of PROTECTED_ANNOTATIONS) {
      delete metadata.annotations[key];
    }
  }
  applyMetadata(metadata, intent);
  applySpec(spec, intent.spec);
  if (fleetLocalWithTargets(namespace, spec)) {
    return refuse('fleetLocalTargets');
  }
  const guarded = guardedChange(undefined, {
    spec: {
      ...spec, managedOSVersionName: undefined, osImage: undefined
    }
  });

  // The pin is chosen in the form and shown; what else would run on the nodes needs an approval.
  if (guarded) {
    return refuse('guardedField', { field: guarded });
  }

  const usable = versionsForPool(versions, namespace);

  if (intent.kind === 'create-exact') {
    const problem = checkVersion(usable, asText(intent.versionName));

    if (problem) {
      return problem;
    }
    setPin(spec, asText(intent.versionName));

    return { ok: true, object: draft };
  }
  const parsed = parseSelector(intent.selector);

  if (!parsed.selector) {
    return refuse('invalidSelector', { errors: parsed.errors });
  }
  const resolution = resolveSelector(parsed.selector, usable, now);

  if (!resolution.chosen) {
    return refuse('noMatch', undefined, resolution);
  }
  setPin(spec, resolution.chosen.name);
  parts(draft).annotations()[SELECTOR_ANNOTATION] = serializeSelector(parsed.selector);

  return {
    ok: true, object: draft, resolution
  };
}

function planEdit(current: KubeObject, intent: EditIntent): PoolWritePlan {
  const object = cloneJson(current);
  const { metadata, spec } = parts(object);

  applyMetadata(metadata, intent);
  applySpec(spec, intent.spec);
  if (fleetLocalWithTargets(asText(metadata.namespace), spec)) {
    return refuse('fleetLocalTargets');
  }
  const guarded = guardedChange(current, object);

  if (guarded) {
    return refuse('guardedField', { field: guarded });
  }

  return { ok: true, object };
}

function planChangeSelector(current: KubeObject, intent: ChangeSelectorIntent, versions: readonly VersionInput[], now: number): PoolWritePlan {
  const object = cloneJson(current);
  const { metadata } = parts(object);

  if (intent.selector === null) {
    if (isRecord(metadata.annotations)) {
      delete metadata.annotations[SELECTOR_ANNOTATION];
    }

    return { ok: true, object };
  }
  const parsed = parseSelector(intent.selector);

  if (!parsed.selector) {
    return refuse('invalidSelector', { errors: parsed.errors });
  }
  const resolution = resolveSelector(parsed.selector, versionsForPool(versions, asText(metadata.namespace)), now);

  parts(object).annotations()[SELECTOR_ANNOTATION] = serializeSelector(parsed.selector);

  return resolution.chosen ? {
    ok: true, object, resolution, candidate: resolution.chosen
  } : {
    ok: true, object, resolution
  };
}

function findVersion(versions: OSVersion[], name: string): OSVersion | undefined {
  return versions.find((version) => version.name === name && isContainerVersion(version) && !version.terminating) ??
    versions.find((version) => version.name === name);
}

/**
 * Moves the pin to `target` with the approver annotations: the shared end of approve and
 * rollback. A downgrade gets FORCE (`unknownIsDowngrade` when an image is not known); any
 * other move takes back the FORCE the extension added before.
 */
interface PinMove {
  approvedBy: string;
  approvedAt: string;
  versions: OSVersion[];
  unknownIsDowngrade: boolean;
  kind: HistoryKind;
  comment?: string;
}

function movePin(current: KubeObject, target: string, move: PinMove, resolution?: Resolution): PoolWritePlan {
  const { approvedBy, approvedAt, versions } = move;
  const comment = asText(move.comment).trim();
  const object = cloneJson(current);
  const { spec } = parts(object);
  const oldPin = asText(spec.managedOSVersionName);
  const annotations = parts(object).annotations();
  const from = oldPin && !asText(spec.osImage) ? findVersion(versions, oldPin) : undefined;
  const to = findVersion(versions, target);
  // Approving the new image of the pinned name again changes nothing on the nodes' job but the record.
  const again = oldPin === target;
  const forced = !again && isDowngrade(from, to, move.unknownIsDowngrade);
  const sameTag = !again && isSameTag(from, to);

  if (forced) {
    addForce(object, to);
  } else if (!again) {
    removeExtensionForce(object);
  }

  setPin(spec, target);
  if (again) {
    // The previous pin stays what it was: Roll back still leads to it.
  } else if (oldPin) {
    annotations[PREVIOUS_VERSION_ANNOTATION] = oldPin;
  } else {
    delete annotations[PREVIOUS_VERSION_ANNOTATION];
  }
  const image = runImage(object, to);

  if (image) {
    annotations[APPROVED_IMAGE_ANNOTATION] = image;
  } else {
    delete annotations[APPROVED_IMAGE_ANNOTATION];
  }
  annotations[APPROVED_BY_ANNOTATION] = approvedBy;
  annotations[APPROVED_AT_ANNOTATION] = approvedAt;
  if (comment) {
    annotations[APPROVAL_COMMENT_ANNOTATION] = comment;
  } else {
    delete annotations[APPROVAL_COMMENT_ANNOTATION];
  }
  // Rule "Approval history": the record goes in the same object, so one request writes the change and its history.
  // The images and the spec fields written go in the record too: a change record reads them back.
  appendHistory(object, {
    kind:      move.kind,
    from:      oldPin,
    to:        target,
    by:        approvedBy,
    at:        approvedAt,
    comment:   asText(move.comment).trim(),
    fromImage: oldPin ? runImage(current, findVersion(versions, oldPin)) : '',
    toImage:   image,
    changes:   specChanges(parts(cloneJson(current)).spec, spec),
  });

  return resolution ? {
    ok: true, object, resolution, forced, sameTag
  } : {
    ok: true, object, forced, sameTag
  };
}

function planApprove(current: KubeObject, intent: ApproveIntent | PromoteIntent, versions: readonly VersionInput[], now: number): PoolWritePlan {
  const pool = readPool(current);
  const approvedAt = isoTime(now);
  const pin = pool.pin ?? '';
  const expected = asText(intent.expectedPin);
  const target = asText(intent.versionName);
  const approvedBy = asText(intent.approvedBy);

  if (!approvedBy) {
    return refuse('approverRequired');
  }
  if (asText(intent.comment).trim().length > APPROVAL_COMMENT_MAX) {
    return refuse('commentTooLong', { max: APPROVAL_COMMENT_MAX });
  }
  if (!approvedAt) {
    return refuse('invalidTime');
  }
  if (pin !== expected) {
    return refuse('pinChanged', { expected, actual: pin });
  }
  const usable = versionsForPool(versions, pool.namespace);

  if (target === pin && !imageDrift(current, findVersion(usable, pin))) {
    return refuse('alreadyPinned', { name: pin });
  }
  const problem = checkVersion(usable, target) ?? imageChanged(usable, target, intent.expectedImage);

  if (problem) {
    return problem;
  }
  let resolution: Resolution | undefined;

  if (pool.selectorText !== undefined) {
    if (!pool.selector) {
      return refuse('selectorUnreadable', { errors: pool.selectorErrors });
    }
    resolution = resolveSelector(pool.selector, usable, now);
    if (intent.kind === 'promote') {
      if (!resolution.candidates.some((version) => version.name === target)) {
        const reasons = resolution.rejected.find((rejection) => rejection.version.name === target)?.reasons ?? [];

        return refuse('selectorRejects', { name: target, reasons }, resolution);
      }
    } else if (resolution.chosen?.name !== target) {
      return refuse('selectionChanged', { approved: target, current: resolution.chosen?.name ?? '' }, resolution);
    }
  }
  if (intent.kind === 'promote' && !asText(intent.source).trim()) {
    return refuse('promotionSourceRequired');
  }

  return movePin(current, target, {
    approvedBy, approvedAt, versions: usable, unknownIsDowngrade: false, kind: intent.kind, comment: intent.comment
  }, resolution);
}

function planRollback(current: KubeObject, intent: RollbackIntent, versions: readonly VersionInput[], now: number): PoolWritePlan {
  const pool = readPool(current);
  const approvedAt = isoTime(now);
  const pin = pool.pin ?? '';
  const previous = pool.previousVersion?.trim() ?? '';
  const approvedBy = asText(intent.approvedBy);

  if (!approvedBy) {
    return refuse('approverRequired');
  }
  if (asText(intent.comment).trim().length > APPROVAL_COMMENT_MAX) {
    return refuse('commentTooLong', { max: APPROVAL_COMMENT_MAX });
  }
  if (!approvedAt) {
    return refuse('invalidTime');
  }
  if (!previous) {
    return refuse('noPreviousVersion');
  }
  if (intent.expectedPin !== undefined && asText(intent.expectedPin) !== pin) {
    return refuse('pinChanged', { expected: asText(intent.expectedPin), actual: pin });
  }
  if (previous === pin) {
    return refuse('alreadyPinned', { name: pin });
  }
  const usable = versionsForPool(versions, pool.namespace);
  const problem = checkVersion(usable, previous) ?? imageChanged(usable, previous, intent.expectedImage);

  // A rollback forces unless the previous image is known to be higher than the current one.
  return problem ?? movePin(current, previous, {
    approvedBy, approvedAt, versions: usable, unknownIsDowngrade: true, kind: 'rollback', comment: intent.comment
  });
}

/**
 * Rule "Pool writes" of domain/README.md: the ManagedOSImage to write for a person's intent, or why nothing may be
 * written. Pure: inputs are never changed; `now` is unix seconds. Only approve and rollback
 * move the pin; an update keeps metadata.resourceVersion so a concurrent change gets a 409.
 */
export function planPoolWrite(current: KubeObject | undefined | null, intent: PoolIntent, versions: readonly VersionInput[], now: number): PoolWritePlan {
  if (!isRecord(intent)) {
    return refuse('unknownIntent', { kind: '' });
  }
  if (intent.kind === 'create-exact' || intent.kind === 'create-selector') {
    return planCreate(current ?? undefined, intent, versions, now);
  }
  if (!isRecord(current)) {
    return refuse('noPool');
  }
  switch (intent.kind) {
  case 'edit':
    return planEdit(current, intent);
  case 'change-selector':
    return planChangeSelector(current, intent, versions, now);
  case 'approve':
  case 'promote':
    return planApprove(current, intent, versions, now);
  case 'rollback':
    return planRollback(current, intent, versions, now);
  default:
    return refuse('unknownIntent', { kind: asText((intent as { kind?: unknown }).kind) });
  }
}

export interface PoolUpgradeCheck {
  /** The stored selector's resolution now; undefined when the pool has no usable selector. */
  resolution?: Resolution;
  /** The version the selector picks now, when it differs from the pin: an upgrade to approve. */
  upgrade?: OSVersion;
}

/** Whether a pool's selector would now pick another image than its pin ("upgrade available"). */
export function checkPoolUpgrade(obj: unknown, versions: readonly VersionInput[], now: number): PoolUpgradeCheck {
  const pool = readPool(obj);

  if (!pool.selector) {
    return {};
  }
  const resolution = resolveSelector(pool.selector, versionsForPool(versions, pool.namespace), now);
  const chosen = resolution.chosen;

  return chosen && chosen.name !== pool.pin ? { resolution, upgrade: chosen } : { resolution };
}
