// Generated Fleet clusters and ManagedOSImages (rancher/fleet fleet.cattle.io Cluster, rancher/elemental-operator ManagedOSImage) for the scale options.
// Generated Fleet clusters and workload pools for scale work (`--scale-clusters`, `--scale-pools`),
// as seed objects: they are created like the fixtures' seed/*.yaml (Emulator.seed), after the
// channels are synced, so every pool names a version that exists.

import { JsonObject } from '../core/json';
import { GeneratedChannel } from './scale-channel';

const NAMESPACE = 'fleet-default';
const SITES = ['berlin', 'munich', 'lyon', 'milan', 'madrid', 'porto', 'vienna', 'prague', 'oslo', 'riga'];
/** The extension's stored selector (pkg/os-upgrades/domain/pool.ts reads it). */
const SELECTOR_ANNOTATION = 'os-upgrades.cattle.io/image-selector';

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function scaleClusterName(index: number): string {
  return `scale-cluster-${ pad(index + 1, 3) }`;
}

function siteOf(index: number): string {
  return SITES[index % SITES.length];
}

/** `count` Fleet clusters, ten sites, production and staging, each with a ready status like the seed's. */
export function scaleClusters(count: number): JsonObject[] {
  const clusters: JsonObject[] = [];

  for (let i = 0; i < count; i++) {
    const name = scaleClusterName(i);

    clusters.push({
      apiVersion: 'fleet.cattle.io/v1alpha1',
      kind:       'Cluster',
      metadata:   {
        name,
        namespace: NAMESPACE,
        labels:    {
          env: i % 3 === 0 ? 'staging' : 'production', site: siteOf(i), role: 'scale', 'scale-index': String(i + 1)
        },
      },
      spec:   { kubeConfigSecret: `${ name }-kubeconfig` },
      status: { display: { readyBundles: '4/4', readyNodes: '3/3' }, summary: { desiredReady: 4, ready: 4 } },
    });
  }

  return clusters;
}

/** Pools run the current releases: the last this-many generated channels (two releases of four flavours). */
export const ACTIVE_CHANNELS = 8;

/**
 * `count` ManagedOSImages over the newest ACTIVE_CHANNELS generated channels (the older ones are
 * history no pool runs, as on a Rancher that keeps every release): pool i uses active channel
 * i mod ACTIVE_CHANNELS, pinned to one of its versions, targeting one cluster by name or a site by
 * selector (when there are clusters); every other one is stored with an image selector, as the
 * extension writes it.
 */
export function scalePools(count: number, channels: GeneratedChannel[], clusterCount: number): JsonObject[] {
  const pools: JsonObject[] = [];
  const active = channels.slice(-ACTIVE_CHANNELS);

  if (!active.length) {
    return pools;
  }
  for (let i = 0; i < count; i++) {
    const channel = active[i % active.length];
    const entries = channel.entries;
    // Newest first; pin somewhere in the newer half, so most pools have an upgrade available.
    const pinned = entries[(i * 7) % Math.max(1, Math.ceil(entries.length / 2))];
    const annotations: Record<string, string> = {};

    if (i % 2 === 0) {
      annotations[SELECTOR_ANNOTATION] = JSON.stringify({ channel: channel.name, version: '~2.2' });
    }
    let clusterTargets: JsonObject[] | undefined;

    if (clusterCount > 0) {
      clusterTargets = i % 4 === 3 ? [{ clusterSelector: { matchLabels: { site: siteOf(i), role: 'scale' } } }] : [{ clusterName: scaleClusterName(i % clusterCount) }];
    }
    pools.push({
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   {
        name: `scale-pool-${ pad(i + 1, 3) }`, namespace: NAMESPACE, ...(Object.keys(annotations).length ? { annotations } : {})
      },
      spec: {
        managedOSVersionName: pinned.metadata.name, concurrency: 1 + (i % 3), ...(clusterTargets ? { clusterTargets } : {})
      },
    });
  }

  return pools;
}
