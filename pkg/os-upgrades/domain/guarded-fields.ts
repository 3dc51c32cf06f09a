// The spec fields that decide what runs on the nodes, as the operator builds the Plan from them
// (rancher/elemental-operator controllers/managedosimage_controller.go newFleetBundleResources):
// - managedOSVersionName: the version whose metadata (upgradeImage) and upgradeContainer are used;
// - osImage: wins over the version's image (getImageVersion);
// - upgradeContainer: replaces the version's container whole; its image, command, args and envs
//   (FORCE among them) are the job the nodes run;
// - prepare: a container the system-upgrade-controller runs on each node before the upgrade;
// - cloudConfig: written into the Plan's secret and onto every node by suc-upgrade
//   (rancher/elemental framework/files/usr/sbin/suc-upgrade: config() copies it to /oem/90_operator.yaml).
// Only Approve, Roll back and an approved promotion change them (rule "What runs on the nodes" of domain/README.md).
import type { KubeObject } from './types';
import { specOf } from './pool-object';

export const GUARDED_SPEC_FIELDS: readonly string[] = ['managedOSVersionName', 'osImage', 'upgradeContainer', 'prepare', 'cloudConfig'];

/** A value's text with its map keys sorted, so a reordered YAML map is the same value; null is absent, as in Go. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${ value.map(canonical).join(',') }]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

    return `{${ entries.map(([key, v]) => `${ JSON.stringify(key) }:${ canonical(v) }`).join(',') }}`;
  }

  return value === undefined || value === null ? 'undefined' : JSON.stringify(value);
}

/** The path of the first guarded field that differs between two pools (`spec.upgradeContainer.image`), or undefined. */
export function guardedChange(before: KubeObject | undefined, after: KubeObject | undefined): string | undefined {
  const old = specOf(before);
  const now = specOf(after);

  for (const field of GUARDED_SPEC_FIELDS) {
    if (canonical(old[field]) === canonical(now[field])) {
      continue;
    }
    const a = old[field];
    const b = now[field];

    if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      const key = keys.find((k) => canonical((a as Record<string, unknown>)[k]) !== canonical((b as Record<string, unknown>)[k]));

      return key ? `spec.${ field }.${ key }` : `spec.${ field }`;
    }

    return `spec.${ field }`;
  }

  return undefined;
}
