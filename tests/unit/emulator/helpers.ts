// Builders shared by the emulator's unit tests.

import { Emulator } from '../../emulator/core/emulator';
import { FixtureData, emptyFixtures } from '../../emulator/data/fixtures';
import { JsonObject } from '../../emulator/core/json';
import type { KubeObject } from '../../emulator/kube/store';
import { ApiError } from '../../emulator/kube/errors';
import { ObjectApi } from '../../emulator/kube/objects';
import { TypeRegistry, builtinTypes } from '../../emulator/kube/resource-types';
import { attachCrdSchemas } from '../../emulator/kube/crds';
import { ObjectStore } from '../../emulator/kube/store';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';

export function fixtures(channels: Record<string, unknown[] | string> = {}, seed: JsonObject[] = []): FixtureData {
  const data = emptyFixtures();

  for (const [name, entries] of Object.entries(channels)) {
    data.channels.set(name, typeof entries === 'string' ? entries : JSON.stringify(entries));
  }
  data.seed = seed;

  return data;
}

/** An emulator with the given channel files and seed, seeded; controllers not started unless asked. */
export async function emulatorWith(data: FixtureData, start = false): Promise<Emulator> {
  const emulator = new Emulator({
    fixtures: data, generated: [], origin: 'http://localhost:1', timeScale: 0, sqlCache: true, retryBaseMs: 60000, rolloutStepMs: 20
  });

  if (start) {
    await emulator.start();
  } else {
    await emulator.seed();
  }

  return emulator;
}

export function entry(name: string, version: string, extra: JsonObject = {}): JsonObject {
  return {
    metadata: { name },
    spec:     {
      version,
      type:     'container',
      metadata: {
        upgradeImage: `registry.example.test/os:${ version }`, displayName: 'Test OS', platforms: ['linux/x86_64'], created: 1700000000, ...extra
      },
    },
  };
}

export function annotations(object: KubeObject | undefined): Record<string, string> {
  return object?.metadata.annotations ?? {};
}

export function ready(object: KubeObject | undefined): JsonObject | undefined {
  const conditions = (object?.status as { conditions?: JsonObject[] } | undefined)?.conditions ?? [];

  return conditions.find((c) => c.type === 'Ready');
}

/** Waits until `check()` holds (the emulator's controllers run on timers), failing after `ms`. */
export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;

  while (!check()) {
    if (Date.now() > end) {
      throw new Error('timed out');
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The ApiError `fn` throws (a test fails when it throws none, or something else). */
export function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected an ApiError');
}

/** An object API over an empty store with every built-in and Elemental type, and the namespace fleet-default. */
export function objectApi(): { api: ObjectApi; registry: TypeRegistry } {
  const types = builtinTypes();

  attachCrdSchemas(types);
  const registry = new TypeRegistry(types);
  const api = new ObjectApi(new ObjectStore(), registry);

  api.create(registry.require('namespace'), undefined, { metadata: { name: 'fleet-default' } }, SYSTEM_ACTOR);

  return { api, registry };
}

/** The Fleet cluster c1 (management cluster c-m-one) with `readyNodes` as its agent reports them. */
export function fleetCluster(readyNodes: string): JsonObject {
  return {
    apiVersion: 'fleet.cattle.io/v1alpha1',
    kind:       'Cluster',
    metadata:   {
      name: 'c1', namespace: 'fleet-default', labels: { 'management.cattle.io/cluster-name': 'c-m-one' }
    },
    status: { display: { readyNodes } },
  };
}

/** The pool `pool` on cluster c1, pinned to `version`. */
export function poolOnCluster(version: string): JsonObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   { name: 'pool', namespace: 'fleet-default' },
    spec:       { managedOSVersionName: version, clusterTargets: [{ clusterName: 'c1' }] },
  };
}
