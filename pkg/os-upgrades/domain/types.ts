/** A localisable message: an l10n key and the values it interpolates. */
export interface Reason {
  key: string;
  values?: Record<string, unknown>;
}

/** A ManagedOSVersion reduced to what the UI and the rules need (see toOSVersion). */
export interface OSVersion {
  name: string;
  namespace: string;
  /** From label `elemental.cattle.io/channel`; '' when missing. */
  channel: string;
  /** spec.version as published, e.g. `v2.2.0-3.12`; '' when missing. */
  version: string;
  /** `container`, `iso`, or whatever the object says ('' when missing). */
  type: string;
  /** Unix seconds; undefined when missing or not a number. */
  created?: number;
  displayName: string;
  /** spec.metadata.upgradeImage for containers, spec.metadata.uri for isos; '' when missing. */
  image: string;
  platforms: string[];
  /** False when the channel no longer lists this version. */
  inSync: boolean;
  /** spec.metadata.changelogURL when the version names one. */
  changelogURL?: string;
  /**
   * metadata.deletionTimestamp is set: the version is being deleted and only the operator's
   * finalizer keeps it while a pool pins it (elemental-operator
   * controllers/managedosversion_controller.go). Never a candidate.
   */
  terminating?: boolean;
  /** spec.upgradeContainer as the channel wrote it, when there is one (a SUC ContainerSpec). */
  upgradeContainer?: Record<string, unknown>;
}

/** Any JSON-like Kubernetes object, as the API returns it. */
export type KubeObject = Record<string, unknown>;
