// Which Elemental operator the emulated Rancher runs (--elemental none|<version>), from
// rancher/elemental-operator: its charts (.obs/chartfile/elemental-operator-helm, -crds-helm),
// api/v1beta1 and CHANGELOG.md. Without the operator a real Rancher has no elemental.cattle.io
// CRDs: Steve lists no schema for them and answers 404 for the type (rancher/steve
// pkg/schema/collection.go builds the schemas from discovery; pkg/server/handler answers an
// unknown type with 404).

import { JsonObject, asObject } from '../core/json';

/** The emulator's Elemental operator: none, or the version its chart reports. */
export type ElementalInstall = { installed: false } | { installed: true; version: string };

/** The newest operator release in rancher/elemental-operator's tags (v1.9.2). */
export const DEFAULT_OPERATOR_VERSION = '1.9.2';

export const OPERATOR_NAMESPACE = 'cattle-elemental-system';
/** The chart's release name (Chart.yaml annotation catalog.cattle.io/release-name). */
export const OPERATOR_RELEASE = 'elemental-operator';

/** `none`, `1.7` (read as 1.7.0) or `1.7.5`; undefined or '' is the default version. */
export function parseElementalInstall(value: string | undefined): ElementalInstall {
  const text = (value ?? '').trim().replace(/^v/, '');

  if (!text) {
    return { installed: true, version: DEFAULT_OPERATOR_VERSION };
  }
  if (text === 'none') {
    return { installed: false };
  }
  if (!/^\d+\.\d+(\.\d+)?$/.test(text)) {
    throw new Error(`--elemental must be none or a version such as 1.7 or 1.6.2, got "${ value }"`);
  }

  return { installed: true, version: text.split('.').length === 2 ? `${ text }.0` : text };
}

function versionAtLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);

  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) {
      return (a[i] ?? 0) > (b[i] ?? 0);
    }
  }

  return true;
}

/**
 * The Metadata object the operator chart installs (templates/metadata.yaml: named after the
 * release, spec.appVersion the chart's appVersion). The Metadata CRD came with PR #712, first
 * released in v1.6.2 (git tag --contains): an older operator has none.
 */
export function metadataObject(install: ElementalInstall): JsonObject | undefined {
  if (!install.installed || !versionAtLeast(install.version, '1.6.2')) {
    return undefined;
  }

  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'Metadata',
    metadata:   { name: OPERATOR_RELEASE, namespace: OPERATOR_NAMESPACE },
    spec:       { appVersion: install.version, annotations: { 'catalog.cattle.io/release-name': OPERATOR_RELEASE } },
  };
}

/**
 * ManagedOSVersionChannel spec fields an older operator's CRD lacks (the API server prunes them),
 * from api/v1beta1/managedosversionchannel_types.go at each tag: `deleteNoLongerInSyncVersions`
 * (PR #780) from v1.6.3, `enabled` (PR #800) and `registry` (PR #831) from v1.7.0.
 */
const CHANNEL_FIELDS_SINCE: Record<string, string> = {
  deleteNoLongerInSyncVersions: '1.6.3',
  enabled:                      '1.7.0',
  registry:                     '1.7.0',
};

/** The channel CRD's openAPIV3Schema as the given operator installs it. */
export function channelSchemaFor(install: ElementalInstall, full: JsonObject): JsonObject {
  if (!install.installed) {
    return full;
  }
  const spec = asObject(asObject(full.properties).spec);
  const fields = { ...asObject(spec.properties) };

  for (const [field, since] of Object.entries(CHANNEL_FIELDS_SINCE)) {
    if (!versionAtLeast(install.version, since)) {
      delete fields[field];
    }
  }

  return { ...full, properties: { ...asObject(full.properties), spec: { ...spec, properties: fields } } };
}
