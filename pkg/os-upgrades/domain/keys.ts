// Every label, annotation and API version the extension reads or writes, in one place: its own
// (os-upgrades.cattle.io/…) and those of the systems it reads (the Elemental operator, the
// system-upgrade-controller, Kubernetes, Rancher). Each names the file of the system that writes it.

/** The API version of every Elemental object the extension writes (elemental-operator api/v1beta1). */
export const ELEMENTAL_API_VERSION = 'elemental.cattle.io/v1beta1';

// The extension's own annotations on a pool (ManagedOSImage): written only by the pool write rules.
export const SELECTOR_ANNOTATION = 'os-upgrades.cattle.io/image-selector';
export const PREVIOUS_VERSION_ANNOTATION = 'os-upgrades.cattle.io/previous-version';
export const APPROVED_BY_ANNOTATION = 'os-upgrades.cattle.io/approved-by';
export const APPROVED_AT_ANNOTATION = 'os-upgrades.cattle.io/approved-at';
/** The image reference the last approval, roll back or promotion approved (see approved-image.ts). */
export const APPROVED_IMAGE_ANNOTATION = 'os-upgrades.cattle.io/approved-image';
/** The approver's optional comment on the last approval or roll back (removed when the next has none). */
export const APPROVAL_COMMENT_ANNOTATION = 'os-upgrades.cattle.io/approval-comment';
/** Set when this extension added FORCE=true to the pool's upgrade container (see force.ts). */
export const FORCED_ANNOTATION = 'os-upgrades.cattle.io/forced';
/** Set (with FORCED_ANNOTATION) when the extension also created the whole spec.upgradeContainer. */
export const FORCED_CONTAINER_ANNOTATION = 'os-upgrades.cattle.io/forced-upgrade-container';
/** The approval history of a pool or a channel (history.ts). */
export const HISTORY_ANNOTATION = 'os-upgrades.cattle.io/history';
/** A pool's promotion source, `<namespace>/<name>`, and its soak in hours (promotion.ts). */
export const PROMOTE_FROM_ANNOTATION = 'os-upgrades.cattle.io/promote-from';
export const PROMOTE_SOAK_HOURS_ANNOTATION = 'os-upgrades.cattle.io/promote-soak-hours';

// The extension's own annotations on a channel (ManagedOSVersionChannel).
/** The withdrawn images of the channel (withdrawal.ts). */
export const WITHDRAWN_ANNOTATION = 'os-upgrades.cattle.io/withdrawn';
/** A URL template for the updates log, `{name}` = the version's name (api/changelog-url.ts). */
export const CHANGELOG_URL_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';
/** The URL of the channel's package-list tar (package-tar.ts). */
export const PACKAGES_TAR_ANNOTATION = 'os-upgrades.cattle.io/packages-tar-url';

// Written by the Elemental operator.
/**
 * A version's channel (elemental-operator controllers/managedosversionchannel_controller.go,
 * createManagedOSVersions).
 */
export const CHANNEL_LABEL = 'elemental.cattle.io/channel';
/** A version the channel's last sync no longer lists (the same controller). */
export const OUT_OF_SYNC_ANNOTATION = 'elemental.cattle.io/channel-no-longer-in-sync';
/**
 * The label the operator writes on a pool at each pin change, the pinned version's name
 * (elemental-operator controllers/managedosimage_controller.go newFleetBundleResources): a 409
 * caused by it alone is not a change a person made.
 */
export const OPERATOR_VERSION_LABEL = 'elemental.cattle.io/managed-os-version-name';
/** The image tag a node booted, written at every boot (rancher/elemental elemental-populate-node-labels). */
export const ELEMENTAL_TAG_LABEL = 'elemental.cattle.io/tag';

// Written by the system-upgrade-controller (pkg/upgrade/job/job.go New, pkg/upgrade/handle_batch.go).
/** On a node, `<prefix><plan>` = the hash of the plan's last completed job. */
export const PLAN_LABEL_PREFIX = 'plan.upgrade.cattle.io/';
export const JOB_NODE_LABEL = 'upgrade.cattle.io/node';
export const JOB_PLAN_LABEL = 'upgrade.cattle.io/plan';
/** Kubernetes' label on a Job's pods (batch/v1 Job controller). */
export const JOB_NAME_LABEL = 'job-name';

/** Rancher's label on a Fleet cluster naming its management cluster (rancher/rancher fleetcluster.go). */
export const CLUSTER_ID_LABEL = 'management.cattle.io/cluster-name';
