// The state of a ManagedOSChangelog (elemental-operator PR #891, draft: api/v1beta1
// managedoschangelog_types.go, controllers/managedoschangelog_controller.go) as a person reads it.

import type { KubeObject } from './types';
import { ELEMENTAL_API_VERSION } from './keys';

export const CHANGELOG_RESOURCE_TYPE = 'elemental.cattle.io.managedoschangelog';

/**
 * starting: the worker pod is being created or starting (WorkerPodReady False, WorkerPodInitializing);
 * ready: every condition True and status.changelogURL set (the operator serves the file);
 * expired: cleanupAfterMinutes elapsed (WorkerPodReady True, reason WorkerPodDeadline, no URL);
 * failed: Ready False (whatever the reason: the controller sets it False only on a failure,
 * RegistrationNotFound, PodCreationFailure, ServiceCreationFailure), the worker pod failed, or
 * state Failed.
 */
export type ChangelogResourceStage = 'starting' | 'ready' | 'expired' | 'failed';

export interface ChangelogResourceState {
  stage: ChangelogResourceStage;
  /** status.changelogURL: the folder that serves `<osVersion>.updates.log`. */
  url: string;
  /** The first message of a condition that is not True, for a failure. */
  message: string;
}

// api/v1beta1/condition_consts.go of PR #891 (head f970d67); SetOwnerFailureReason's value
// is "RegistrationNotFound".
const FAILURE_REASONS = new Set([
  'WorkerPodCompletionFailure', 'PodCreationFailure', 'ServiceCreationFailure', 'RegistrationNotFound',
]);

interface Condition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

function conditionsOf(object: KubeObject): Condition[] {
  const status = object.status as { conditions?: unknown } | undefined;

  return Array.isArray(status?.conditions) ? status.conditions.filter((c): c is Condition => !!c && typeof c === 'object') : [];
}

export function changelogResourceState(object: KubeObject): ChangelogResourceState {
  const status = (object.status ?? {}) as { changelogURL?: unknown; state?: unknown };
  const url = typeof status.changelogURL === 'string' ? status.changelogURL.trim() : '';
  const conditions = conditionsOf(object);
  const notTrue = conditions.filter((c) => c.status !== 'True');
  const failures = notTrue.filter((c) => (c.type === 'Ready' && c.status === 'False') || (typeof c.reason === 'string' && FAILURE_REASONS.has(c.reason)));
  const shown = failures[0] ?? notTrue[0];
  const message = typeof shown?.message === 'string' ? shown.message : '';
  const failed = status.state === 'Failed' || failures.length > 0;

  if (failed) {
    return {
      stage: 'failed', url, message
    };
  }
  const podReady = conditions.find((c) => c.type === 'WorkerPodReady');

  if (podReady?.status === 'True' && podReady.reason === 'WorkerPodDeadline') {
    return {
      stage: 'expired', url: '', message
    };
  }
  if (conditions.length > 0 && notTrue.length === 0 && url) {
    return {
      stage: 'ready', url, message
    };
  }

  return {
    stage: 'starting', url, message
  };
}

/** The update log's URL inside the folder that status.changelogURL names. */
export function changelogResourceFileUrl(folderUrl: string, osVersion: string): string {
  const folder = folderUrl.endsWith('/') ? folderUrl : `${ folderUrl }/`;

  return `${ folder }${ encodeURIComponent(osVersion) }.updates.log`;
}

/** The one ManagedOSChangelog of a version among the listed ones (the oldest if, against the rule, there are more). */
export function changelogResourceFor(objects: readonly KubeObject[], namespace: string, osVersion: string): KubeObject | undefined {
  const matching = objects.filter((object) => {
    const metadata = (object.metadata ?? {}) as { namespace?: unknown };
    const spec = (object.spec ?? {}) as { osVersion?: unknown };

    return metadata.namespace === namespace && spec.osVersion === osVersion;
  });
  const created = (object: KubeObject) => String(((object.metadata ?? {}) as { creationTimestamp?: unknown }).creationTimestamp ?? '');

  return matching.sort((a, b) => created(a).localeCompare(created(b)))[0];
}

/** FNV-1a over UTF-16 code units, 32 bits, as 8 hex digits: a short fingerprint of the version's exact name. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;

  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }

  return hash.toString(16).padStart(8, '0');
}

const NAME_PART_MAX = 63 - 9;

/**
 * The name of a version's ManagedOSChangelog. The operator names its worker pod and Service after
 * the object, and a Service name is a DNS-1035 label (a letter first, no dots, 63 at most), so a
 * version's own name (`base-v2.3.0-6.1-os`) cannot be used. The readable part keeps the version's
 * letters and digits; the fingerprint of the exact name keeps versions that read alike apart.
 */
export function changelogResourceName(osVersion: string): string {
  let part = osVersion.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '');

  if (!/^[a-z]/.test(part)) {
    part = `changelog-${ part }`;
  }
  part = part.slice(0, NAME_PART_MAX).replace(/-+$/, '');

  return `${ part }-${ fingerprint(osVersion) }`;
}

/**
 * The object the UI creates for a person's click, the operator's default lifetime. Its name is
 * fixed per version, so the server itself refuses a second one.
 */
export function newChangelogResource(channel: { name: string; namespace: string }, osVersion: string): KubeObject {
  const metadata = { name: changelogResourceName(osVersion), namespace: channel.namespace };

  return {
    type:       CHANGELOG_RESOURCE_TYPE,
    apiVersion: ELEMENTAL_API_VERSION,
    kind:       'ManagedOSChangelog',
    metadata,
    spec:       {
      channelRef: { name: channel.name, namespace: channel.namespace }, osVersion, cleanupAfterMinutes: 60,
    },
  };
}
