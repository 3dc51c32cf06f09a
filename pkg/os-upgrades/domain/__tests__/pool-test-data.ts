import type { OSVersion } from '..';
import { SELECTOR_ANNOTATION } from '..';

export const NOW = 1760000000;
const HOUR = 3600;

/** A container version of channel `stable` in fleet-default, `ageHours` old. */
export function version(name: string, v: string, ageHours: number, extra: Partial<OSVersion> = {}): OSVersion {
  return {
    name,
    namespace:   'fleet-default',
    channel:     'stable',
    version:     v,
    type:        'container',
    created:     NOW - ageHours * HOUR,
    displayName: `OS ${ v }`,
    image:       `registry.example/os:${ v }`,
    platforms:   ['linux/x86_64'],
    inSync:      true,
    ...extra,
  };
}

export const OLD = version('os-v2.2.0-1', 'v2.2.0-1', 100);
export const MID = version('os-v2.2.0-2', 'v2.2.0-2', 50);
export const NEW = version('os-v2.2.1-1', 'v2.2.1-1', 1);
export const VERSIONS = [OLD, MID, NEW];

export interface PoolOptions {
  name?: string;
  pin?: string;
  selector?: string;
  annotations?: Record<string, string>;
  spec?: Record<string, unknown>;
  status?: unknown;
  resourceVersion?: string;
}

export function poolObject(options: PoolOptions = {}): Record<string, unknown> {
  const annotations: Record<string, string> = { ...(options.annotations ?? {}) };

  if (options.selector !== undefined) {
    annotations[SELECTOR_ANNOTATION] = options.selector;
  }

  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name: options.name ?? 'edge', namespace: 'fleet-default', resourceVersion: options.resourceVersion ?? '10', annotations
    },
    spec: {
      managedOSVersionName: options.pin ?? OLD.name,
      clusterTargets:       [{ clusterName: 'edge-1' }],
      concurrency:          1,
      cordon:               true,
      drain:                null,
      ...(options.spec ?? {}),
    },
    ...(options.status === undefined ? {} : { status: options.status }),
  };
}
