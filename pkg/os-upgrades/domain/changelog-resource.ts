// The state of a ManagedOSChangelog (elemental-operator PR #891, draft: api/v1beta1
// managedoschangelog_types.go, controllers/managedoschangelog_controller.go) as a person reads it.

import type { KubeObject } from './types';

export const CHANGELOG_RESOURCE_TYPE = 'elemental.cattle.io.managedoschangelog';

/**
 * starting: the worker pod is being created or starting (WorkerPodReady False, WorkerPodInitializing);
 * ready: every condition True and status.changelogURL set (the operator serves the file);
 * expired: cleanupAfterMinutes elapsed (WorkerPodReady True, reason WorkerPodDeadline, no URL);
 * failed: the pod, the service or the owner could not be set up, or state Failed.
 */
export type ChangelogResourceStage = 'starting' | 'ready' | 'expired' | 'failed';

export interface ChangelogResourceState {
  stage: ChangelogResourceStage;
  /** status.changelogURL: the folder that serves `<osVersion>.updates.log`. */
  url: string;
  /** The first message of a condition that is not True, for a failure. */
  message: string;
}

const FAILURE_REASONS = new Set([
  'WorkerPodCompletionFailure', 'PodCreationFailure', 'ServiceCreationFailure', 'SetOwnerFailure',
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
  const message = typeof notTrue[0]?.message === 'string' ? notTrue[0].message : '';
  const failed = status.state === 'Failed' || notTrue.some((c) => typeof c.reason === 'string' && FAILURE_REASONS.has(c.reason));

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

const DNS_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/**
 * The object the UI creates for a person's click, the operator's default lifetime. Named after
 * the version where the name is a valid object name, so the server itself refuses a second one.
 */
export function newChangelogResource(channel: { name: string; namespace: string }, osVersion: string): KubeObject {
  const metadata = DNS_NAME.test(osVersion) ? { name: osVersion, namespace: channel.namespace } : { generateName: 'os-upgrades-', namespace: channel.namespace };

  return {
    type:       CHANGELOG_RESOURCE_TYPE,
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSChangelog',
    metadata,
    spec:       {
      channelRef: { name: channel.name, namespace: channel.namespace }, osVersion, cleanupAfterMinutes: 60,
    },
  };
}
