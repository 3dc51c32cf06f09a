// Which Elemental operator this Rancher runs, as its API shows it. Without the operator there are
// no elemental.cattle.io CRDs, so Steve lists no schema for them (rancher/steve pkg/schema: schemas
// come from discovery; a person without any right on a type gets no schema either, so "missing"
// also covers "not readable by you"). The operator's version is the `spec.appVersion` of the
// Metadata its chart installs (rancher/elemental-operator .obs/chartfile/elemental-operator-helm/
// templates/metadata.yaml, from v1.6.2), the record rancher/elemental-ui reads too
// (pkg/elemental/utils/feature-versioning.ts).
import type { Reason } from './types';
import { isRecord } from './text';

/** The types every page needs. */
export const OPERATOR_TYPES = [
  'elemental.cattle.io.managedosversionchannel',
  'elemental.cattle.io.managedosversion',
  'elemental.cattle.io.managedosimage',
] as const;

/** The chart's Metadata: its type and `<namespace>/<release name>`. */
export const OPERATOR_METADATA = { type: 'elemental.cattle.io.metadata', id: 'cattle-elemental-system/elemental-operator' } as const;

/** The charts to install, CRDs first (the Elemental docs' quickstart; Chart.yaml auto-installs the CRDs). */
export const OPERATOR_CHARTS = ['elemental-operator-crds', 'elemental-operator'] as const;

/** The oldest operator the extension supports: the first with the Metadata record. */
export const OLDEST_SUPPORTED_OPERATOR = '1.6.2';

export type OperatorPresence =
  | { kind: 'ready' }
  /** Types without a schema; `mayInstall`: this person may install apps (create a catalog App). */
  | { kind: 'missing'; types: string[]; mayInstall: boolean };

export function operatorPresence(schemaIds: readonly string[], mayInstall: boolean): OperatorPresence {
  const known = new Set(schemaIds);
  const types = OPERATOR_TYPES.filter((type) => !known.has(type));

  return types.length ? {
    kind: 'missing', types, mayInstall
  } : { kind: 'ready' };
}

/** `spec.appVersion` of the Metadata (a leading `v` dropped), when it is a version. */
export function operatorVersion(metadata: unknown): string | undefined {
  const spec = isRecord(metadata) && isRecord(metadata.spec) ? metadata.spec : {};
  const text = typeof spec.appVersion === 'string' ? spec.appVersion.trim().replace(/^v/, '') : '';

  return /^\d+\.\d+\.\d+([-+].*)?$/.test(text) ? text : undefined;
}

/** Compares the numeric x.y.z only (a pre-release counts as its release). */
export function versionAtLeast(version: string, minimum: string): boolean {
  const parts = (text: string) => text.split(/[-+]/)[0].split('.').map((n) => Number(n) || 0);
  const a = parts(version);
  const b = parts(minimum);

  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) {
      return (a[i] ?? 0) > (b[i] ?? 0);
    }
  }

  return true;
}

export type OperatorFeatureId = 'channelEnabled' | 'changelogExtraction';

export interface OperatorFeature {
  id: OperatorFeatureId;
  available: boolean;
  /** Why it is (not) there, for the sources page. */
  reason: Reason;
}

/**
 * The features that depend on the operator. A channel's `enabled` field is in its CRD from v1.7.0
 * (api/v1beta1/managedosversionchannel_types.go, PR #800); an unknown version is not gated, as the
 * extension cannot tell. Changelog extraction needs the ManagedOSChangelog CRD (PR #891's operator).
 */
export function operatorFeatures(version: string | undefined, changelogServed: boolean): OperatorFeature[] {
  const enabled = version === undefined || versionAtLeast(version, '1.7.0');

  return [
    {
      id:        'channelEnabled',
      available: enabled,
      reason:    {
        key:    version === undefined ? 'osUpgrades.operator.feature.versionUnknown' : enabled ? 'osUpgrades.operator.feature.since' : 'osUpgrades.operator.feature.needs',
        values: { minimum: '1.7.0', version },
      },
    },
    {
      id:        'changelogExtraction',
      available: changelogServed,
      reason:    { key: changelogServed ? 'osUpgrades.operator.feature.changelogServed' : 'osUpgrades.operator.feature.changelogMissing' },
    },
  ];
}

export function featureAvailable(features: readonly OperatorFeature[], id: OperatorFeatureId): boolean {
  return features.find((feature) => feature.id === id)?.available ?? true;
}
