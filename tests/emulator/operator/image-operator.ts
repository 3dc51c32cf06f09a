// A simulated Elemental operator, image side: what ManagedOSImageReconciler does
// (rancher/elemental-operator controllers/managedosimage_controller.go). A ManagedOSImage write
// makes it build the Fleet bundle `mos-<name>` holding the upgrade Plan (newFleetBundleResources),
// label the image with the pinned version, and copy the bundle's conditions into the image's
// status as they are at that moment, before Fleet reacted. It never sets observedGeneration. A
// reconcile that fails (missing version, a version that is not a container…) changes no status and
// is retried with back-off, like controller-runtime's rate limiter; versions are not watched.

import { createHash } from 'crypto';
import { conditionsOf, setCondition } from '../kube/conditions';
import {
  JsonObject, asObject, asString, clone, isObject
} from '../core/json';
import { ControllerApi } from '../kube/controller-api';
import { ResourceType } from '../kube/resource-types';
import { KubeObject, StoreEvent } from '../kube/store';
import { safeConcatName } from '../kube/wrangler-name';

export const VERSION_NAME_LABEL = 'elemental.cattle.io/managed-os-version-name';
const IMAGE = 'elemental.cattle.io.managedosimage';
const VERSION = 'elemental.cattle.io.managedosversion';
const BUNDLE = 'fleet.cattle.io.bundle';

/**
 * The ManagedOSImage controller sets no rate limiter, so it has controller-runtime's default
 * (workqueue.DefaultTypedControllerRateLimiter: per item 5 ms doubling to 1000 s; its overall
 * 10 per second bucket never binds for one pool). The channel controller's 4 s is its own.
 */
export const IMAGE_RETRY_BASE_MS = 5;
const MAX_RETRY_MS = 1000 * 1000;

export interface ImageOperatorOptions {
  /** First retry after a failed reconcile (IMAGE_RETRY_BASE_MS); doubles per failure. */
  retryBaseMs: number;
}

class ReconcileError extends Error {}

/** getImageVersion: the image without tag, and the tag (`latest` when none). */
export function imageAndVersion(baseImage: string): { image: string; version: string } {
  const parts = baseImage.split('/');
  const registry = parts.length > 1 ? parts.shift() as string : '';
  const [image, version] = parts.join('/').split(/:(.*)/s, 2);

  return { image: registry ? `${ registry }/${ image }` : image, version: version || 'latest' };
}

/** metadataEnv: each metadata entry as METADATA_<KEY>, the JSON of non-strings with quotes trimmed. */
function metadataEnv(metadata: JsonObject): JsonObject[] {
  return Object.entries(metadata).map(([key, value]) => ({ name: `METADATA_${ key }`.toUpperCase(), value: (typeof value === 'string' ? value : JSON.stringify(value)).replace(/^"+|"+$/g, '') }));
}

/** The objects newFleetBundleResources puts in the bundle; the Plan last. */
export function bundleObjects(image: KubeObject, version: KubeObject | undefined): JsonObject[] {
  const spec = asObject(image.spec);
  const versionSpec = asObject(version?.spec);
  let baseImage = asString(spec.osImage) ?? '';

  if (!baseImage && version) {
    // ContainerImage(): the type is compared case-insensitively (api/v1beta1 managedosversion_types.go).
    if ((asString(versionSpec.type) ?? '').toLowerCase() !== 'container') {
      throw new ReconcileError(`failed to create fleet bundle resources: ManagedOsVersion ${ version.metadata.name } is not of a container type: ${ asString(versionSpec.type) ?? '' }`);
    }
    baseImage = asString(asObject(versionSpec.metadata).upgradeImage) ?? '';
  }
  const { image: imageName, version: tag } = imageAndVersion(baseImage);
  // The pool's upgradeContainer, when set, is used INSTEAD of the version's (not merged).
  const container: JsonObject = clone(isObject(spec.upgradeContainer) ? spec.upgradeContainer : isObject(versionSpec.upgradeContainer) ? versionSpec.upgradeContainer : {});

  if (!asString(container.image)) {
    container.image = imageName;
  }
  if (!Array.isArray(container.command) || !container.command.length) {
    container.command = ['/usr/sbin/suc-upgrade'];
  }
  // METADATA_* envs win over envs of the same name; the result is sorted by name. (SUC's
  // ContainerSpec names the field `envs`: pkg/apis/upgrade.cattle.io/v1, and the CRD says so.)
  const env = metadataEnv(version ? asObject(versionSpec.metadata) : {});
  const names = new Set(env.map((e) => e.name));

  for (const entry of Array.isArray(container.envs) ? container.envs.filter(isObject) : []) {
    if (!names.has(entry.name as string)) {
      env.push(entry);
    }
  }
  env.sort((a, b) => String(a.name).localeCompare(String(b.name)));
  container.envs = env;

  const uniqueName = safeConcatName('os-upgrader', image.metadata.name).replace(/[^a-zA-Z0-9- ]+/g, '-').replace(/^-|-$/g, '');
  const cloudConfig = isObject(spec.cloudConfig) && Object.keys(spec.cloudConfig).length ? `#cloud-config\n${ JSON.stringify(spec.cloudConfig) }` : '';
  const meta = (name: string, namespace?: string) => (namespace ? { name, namespace } : { name });

  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind:       'ClusterRole',
      metadata:   meta(uniqueName),
      rules:      [{
        verbs: ['update', 'get', 'list', 'watch', 'patch'], apiGroups: [''], resources: ['nodes']
      }, {
        verbs: ['list'], apiGroups: [''], resources: ['pods']
      }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind:       'ClusterRoleBinding',
      metadata:   meta(uniqueName),
      subjects:   [{
        kind: 'ServiceAccount', name: uniqueName, namespace: 'cattle-system'
      }],
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: uniqueName
      },
    },
    {
      apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(uniqueName, 'cattle-system')
    },
    {
      apiVersion: 'v1', kind: 'Secret', metadata: meta(uniqueName, 'cattle-system'), data: { 'cloud-config': Buffer.from(cloudConfig).toString('base64') }
    },
    {
      apiVersion: 'upgrade.cattle.io/v1',
      kind:       'Plan',
      metadata:   meta(uniqueName, 'cattle-system'),
      spec:       {
        concurrency:        typeof spec.concurrency === 'number' ? spec.concurrency : 1,
        version:            tag,
        tolerations:        [{ operator: 'Exists' }],
        serviceAccountName: uniqueName,
        nodeSelector:       isObject(spec.nodeSelector) ? clone(spec.nodeSelector) : {},
        // cordon defaults to true.
        cordon:             typeof spec.cordon === 'boolean' ? spec.cordon : true,
        ...(isObject(spec.drain) ? { drain: clone(spec.drain) } : {}),
        ...(isObject(spec.prepare) ? { prepare: clone(spec.prepare) } : {}),
        secrets:            [{ name: uniqueName, path: '/run/data' }],
        upgrade:            container,
      },
    },
  ];
}

/** objToFleetBundleResources: each object as JSON, named by kind, namespace, name and digest. */
export function toBundleResources(objects: JsonObject[]): JsonObject[] {
  return objects.map((object) => {
    const content = JSON.stringify(object);
    const metadata = asObject(object.metadata);
    const digest = createHash('sha256').update(content).digest('hex').slice(0, 12);
    const nameParts = [String(object.kind), asString(metadata.namespace) ?? '', String(metadata.name), digest].filter(Boolean);

    return { name: `${ safeConcatName(...nameParts) }.yaml`, content };
  });
}

export class ImageOperator {
  private readonly queued = new Set<string>();
  private readonly retries = new Map<string, { attempts: number; timer: NodeJS.Timeout }>();
  private unsubscribe?: () => void;

  constructor(private readonly api: ControllerApi, private readonly options: ImageOperatorOptions) {}

  private type(id: string): ResourceType {
    return this.api.types.require(id);
  }

  start(): void {
    this.unsubscribe = this.api.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
    for (const retry of this.retries.values()) {
      clearTimeout(retry.timer);
    }
    this.retries.clear();
    this.queued.clear();
  }

  /** For(&ManagedOSImage{}) and Owns(&fleetv1.Bundle{}). */
  private onEvent(event: StoreEvent): void {
    const { namespace = '', name } = event.object.metadata;

    if (event.type === IMAGE) {
      if (event.action === 'remove') {
        this.clearRetry(`${ namespace }/${ name }`);
      } else {
        this.enqueue(namespace, name);
      }
    } else if (event.type === BUNDLE && event.action !== 'remove') {
      const owner = (event.object.metadata.ownerReferences ?? []).find((o) => o.kind === 'ManagedOSImage' && o.controller);

      if (owner) {
        this.enqueue(namespace, owner.name);
      }
    }
  }

  private enqueue(namespace: string, name: string): void {
    const key = `${ namespace }/${ name }`;

    if (this.queued.has(key)) {
      return;
    }
    this.queued.add(key);
    setImmediate(() => {
      this.queued.delete(key);
      // A write refused (a 409 on the real API server's newer object) ends the reconcile with an
      // error: controller-runtime requeues it with the same back-off as a failed reconcile.
      this.reconcile(namespace, name).catch((e) => {
        log(`ManagedOSImage ${ key }: ${ e instanceof Error ? e.message : String(e) }`);
        this.retry(namespace, name);
      });
    });
  }

  private clearRetry(key: string): void {
    clearTimeout(this.retries.get(key)?.timer);
    this.retries.delete(key);
  }

  /** One Reconcile: returns the error it ended with, if any. */
  async reconcile(namespace: string, name: string): Promise<string | undefined> {
    const key = `${ namespace }/${ name }`;
    const image = await this.api.find(this.type(IMAGE), namespace, name);

    if (!image) {
      this.clearRetry(key);

      return undefined;
    }
    const labels = { ...image.metadata.labels };
    let conditions = conditionsOf(image.status);
    let error: string | undefined;

    try {
      const spec = asObject(image.spec);
      const targets = Array.isArray(spec.clusterTargets) ? spec.clusterTargets : [];

      if (namespace === 'fleet-local' && targets.length) {
        throw new ReconcileError('spec.targets should be empty if in the fleet-local namespace');
      }
      const versionName = asString(spec.managedOSVersionName) ?? '';
      let version: KubeObject | undefined;

      if (versionName) {
        version = await this.api.find(this.type(VERSION), namespace, versionName);
        if (!version) {
          throw new ReconcileError(`failed to create fleet bundle resources: failed to get managedOSVersion: managedosversions.elemental.cattle.io "${ versionName }" not found`);
        }
        labels[VERSION_NAME_LABEL] = versionName;
      }
      if (!versionName && !asString(spec.osImage)) {
        // Emulator only: the real operator goes on with an empty image (docs/emulator.md).
        throw new ReconcileError('no managedOSVersionName nor osImage');
      }
      const resources = toBundleResources(bundleObjects(image, version));

      conditions = await this.writeBundle(image, resources, conditions);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    // The object is patched (labels) even when the reconcile failed, then the status.
    const latest = await this.api.find(this.type(IMAGE), namespace, name);

    if (latest) {
      const labelled = JSON.stringify(latest.metadata.labels ?? {}) === JSON.stringify(labels) ? latest : await this.api.update(this.type(IMAGE), namespace, name, { ...latest, metadata: { ...latest.metadata, labels } });

      if (JSON.stringify(conditionsOf(labelled.status)) !== JSON.stringify(conditions)) {
        await this.api.update(this.type(IMAGE), namespace, name, { ...labelled, status: { ...asObject(labelled.status), conditions } }, 'status');
      }
    }
    if (error) {
      log(`ManagedOSImage ${ key }: error reconciling managed OS image object: ${ error }`);
      this.retry(namespace, name);
    } else {
      this.clearRetry(key);
    }

    return error;
  }

  private retry(namespace: string, name: string): void {
    const key = `${ namespace }/${ name }`;
    const attempts = (this.retries.get(key)?.attempts ?? 0) + 1;

    clearTimeout(this.retries.get(key)?.timer);
    const timer = setTimeout(() => this.enqueue(namespace, name), Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_MS));

    timer.unref();
    this.retries.set(key, { attempts, timer });
  }

  /** createFleetBundle / updateFleetBundle, then updateManagedOSImageStatus (the bundle's conditions as they are now). */
  private async writeBundle(image: KubeObject, resources: JsonObject[], conditions: JsonObject[]): Promise<JsonObject[]> {
    const type = this.type(BUNDLE);
    const name = safeConcatName('mos', image.metadata.name);
    const namespace = image.metadata.namespace ?? '';
    const spec = asObject(image.spec);
    const bundleSpec = {
      resources,
      rolloutStrategy: clone(spec.clusterRolloutStrategy ?? {}),
      targets:         namespace === 'fleet-local' ? [{ clusterName: 'local' }] : clone(spec.clusterTargets ?? []),
    };
    const created = conditions.some((c) => c.type === 'FleetBundleCreation' && c.status === 'True');
    const existing = await this.api.find(type, namespace, name);
    let out = conditions;

    if (created) {
      if (!existing) {
        throw new ReconcileError(`updating Bundle from ManagedOSImage: getting bundle '${ namespace }/${ name }': bundles.fleet.cattle.io "${ name }" not found`);
      }
      await this.api.update(type, namespace, name, { ...existing, spec: bundleSpec });
    } else {
      if (!existing) {
        await this.api.create(type, namespace, {
          metadata: {
            name,
            ownerReferences: [{
              apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', name: image.metadata.name, uid: image.metadata.uid, controller: true
            }],
          },
          spec: bundleSpec,
        });
      }
      out = setCondition(out, {
        type: 'FleetBundleCreation', reason: 'FleetBundleCreateSuccess', status: 'True', message: ''
      });
    }
    const bundle = await this.api.find(type, namespace, name);

    for (const condition of conditionsOf(bundle?.status)) {
      out = setCondition(out, {
        type:    asString(condition.type) || 'UnknownType',
        reason:  asString(condition.reason) || 'UnknownReason',
        status:  (asString(condition.status) || 'Unknown') as 'True' | 'False' | 'Unknown',
        message: asString(condition.message) ?? '',
      });
    }

    return out;
  }
}

function log(message: string): void {
  process.stderr.write(`[emulator] elemental-operator: ${ message }\n`);
}
