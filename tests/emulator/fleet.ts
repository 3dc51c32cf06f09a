// A simulated Elemental operator, image side, with Fleet behind it: a ManagedOSImage write makes
// the operator create/update the Fleet bundle `mos-<name>` and copy the bundle's conditions into
// the image's status (controllers/managedosimage_controller.go). Fleet's rollout is simulated: the
// Ready condition goes WaitApplied → NotReady(n) … → Ready over a few seconds, one step per cluster.

import { conditionsOf, setCondition } from './conditions';
import {
  JsonObject, asObject, asString, clone, isObject
} from './json';
import { matchesLabels, selectorFromObject } from './labels';
import { ObjectApi } from './objects';
import { ResourceType } from './resource-types';
import { KubeObject, StoreEvent } from './store';
import { SYSTEM_ACTOR } from './users';

export interface FleetOptions {
  /** Time between two rollout steps. */
  stepMs: number;
}

export class FleetSimulator {
  private readonly handled = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout[]>();
  private unsubscribe?: () => void;

  constructor(private readonly api: ObjectApi, private readonly options: FleetOptions) {}

  private type(id: string): ResourceType {
    return this.api.types.require(id);
  }

  start(): void {
    this.unsubscribe = this.api.store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
    for (const key of [...this.timers.keys()]) {
      this.cancel(key);
    }
    this.handled.clear();
  }

  private onEvent(event: StoreEvent): void {
    if (event.type !== 'elemental.cattle.io.managedosimage') {
      return;
    }
    const { namespace, name, generation } = event.object.metadata;
    const key = `${ namespace }/${ name }`;

    if (event.action === 'remove') {
      this.cancel(key);
      this.handled.delete(key);

      return;
    }
    if (this.handled.get(key) !== generation) {
      this.handled.set(key, generation ?? 0);
      setTimeout(() => this.rollout(namespace ?? '', name, false), 0);
    }
  }

  /** Brings an image straight to its final state (seeded pools start settled). */
  settle(namespace: string, name: string): void {
    const image = this.api.find(this.type('elemental.cattle.io.managedosimage'), namespace, name);

    if (image) {
      this.handled.set(`${ namespace }/${ name }`, image.metadata.generation ?? 0);
      this.rollout(namespace, name, true);
    }
  }

  private cancel(key: string): void {
    for (const timer of this.timers.get(key) ?? []) {
      clearTimeout(timer);
    }
    this.timers.delete(key);
  }

  private rollout(namespace: string, name: string, instant: boolean): void {
    const key = `${ namespace }/${ name }`;
    const image = this.api.find(this.type('elemental.cattle.io.managedosimage'), namespace, name);

    this.cancel(key);
    if (!image || !this.operatorAccepts(image)) {
      return;
    }
    const clusters = this.targetClusters(image).map((c) => `Cluster ${ c.metadata.namespace }/${ c.metadata.name }`);

    this.writeBundle(image, clusters.length, 0, clusters);
    this.writeStatus(image, true, ['WaitApplied', clusters]);

    const steps: [string, string[]][] = [];

    for (let done = 0; done < clusters.length; done++) {
      steps.push(['NotReady', clusters.slice(done)]);
    }
    if (instant) {
      this.finish(image, clusters.length, clusters);

      return;
    }
    const timers = steps.map((step, i) => setTimeout(() => {
      this.writeStatus(image, false, step);
      this.writeBundle(image, clusters.length, i, clusters);
    }, this.options.stepMs * (i + 1)));

    timers.push(setTimeout(() => this.finish(image, clusters.length, clusters), this.options.stepMs * (steps.length + 1)));
    for (const timer of timers) {
      timer.unref();
    }
    this.timers.set(key, timers);
  }

  private finish(image: KubeObject, total: number, clusters: string[]): void {
    this.writeStatus(image, false, undefined);
    this.writeBundle(image, total, total, clusters);
  }

  /** The operator's own refusals: it logs an error and leaves the status as it is. */
  private operatorAccepts(image: KubeObject): boolean {
    const spec = asObject(image.spec);
    const targets = Array.isArray(spec.clusterTargets) ? spec.clusterTargets : [];

    if (image.metadata.namespace === 'fleet-local' && targets.length) {
      log(`ManagedOSImage ${ image.metadata.namespace }/${ image.metadata.name }: spec.targets should be empty if in the fleet-local namespace`);

      return false;
    }
    const versionName = asString(spec.managedOSVersionName);

    if (versionName && !this.api.find(this.type('elemental.cattle.io.managedosversion'), image.metadata.namespace, versionName)) {
      log(`ManagedOSImage ${ image.metadata.namespace }/${ image.metadata.name }: failed to get managedOSVersion: managedosversions.elemental.cattle.io "${ versionName }" not found`);

      return false;
    }
    if (!versionName && !asString(spec.osImage)) {
      log(`ManagedOSImage ${ image.metadata.namespace }/${ image.metadata.name }: no managedOSVersionName nor osImage`);

      return false;
    }

    return true;
  }

  /** The Fleet clusters a ManagedOSImage's clusterTargets select (fleet-local always means `local`). */
  targetClusters(image: KubeObject): KubeObject[] {
    const namespace = image.metadata.namespace;
    const clusters = this.api.list(this.type('fleet.cattle.io.cluster'), { namespace }).items;

    if (namespace === 'fleet-local') {
      return clusters.filter((c) => c.metadata.name === 'local');
    }
    const groups = this.api.list(this.type('fleet.cattle.io.clustergroup'), { namespace }).items;
    const spec = asObject(image.spec);
    const targets = (Array.isArray(spec.clusterTargets) ? spec.clusterTargets : []).filter(isObject);

    return clusters.filter((cluster) => targets.some((target) => this.targetMatches(target, cluster, groups)));
  }

  private targetMatches(target: JsonObject, cluster: KubeObject, groups: KubeObject[]): boolean {
    const labels = cluster.metadata.labels;

    if (asString(target.clusterName) && target.clusterName !== cluster.metadata.name) {
      return false;
    }
    if (isObject(target.clusterSelector) && !matchesLabels(selectorFromObject(target.clusterSelector), labels)) {
      return false;
    }
    const groupName = asString(target.clusterGroup);

    if (groupName) {
      const group = groups.find((g) => g.metadata.name === groupName);

      if (!group || !matchesLabels(selectorFromObject(asObject(group.spec).selector), labels)) {
        return false;
      }
    }
    if (isObject(target.clusterGroupSelector)) {
      const selector = selectorFromObject(target.clusterGroupSelector);
      const matching = groups.filter((g) => matchesLabels(selector, g.metadata.labels));

      if (!matching.some((g) => matchesLabels(selectorFromObject(asObject(g.spec).selector), labels))) {
        return false;
      }
    }

    return !!(asString(target.clusterName) || isObject(target.clusterSelector) || groupName || isObject(target.clusterGroupSelector));
  }

  /** Copies the bundle's Ready condition into the image's status, as updateManagedOSImageStatus does. */
  private writeStatus(image: KubeObject, created: boolean, notReady: [string, string[]] | undefined): void {
    const type = this.type('elemental.cattle.io.managedosimage');
    const latest = this.api.find(type, image.metadata.namespace, image.metadata.name);

    if (!latest) {
      return;
    }
    let conditions = conditionsOf(latest.status);

    if (created) {
      conditions = setCondition(conditions, {
        type: 'FleetBundleCreation', reason: 'FleetBundleCreateSuccess', status: 'True', message: ''
      });
    }
    conditions = setCondition(conditions, {
      type:    'Ready',
      // Fleet's bundle conditions carry no reason; the operator fills in "UnknownReason".
      reason:  'UnknownReason',
      status:  notReady ? 'False' : 'True',
      message: notReady ? `${ notReady[0] }(${ notReady[1].length }) [${ notReady[1].join(', ') }]` : '',
    });
    this.api.update(type, latest.metadata.namespace, latest.metadata.name, { ...latest, status: { ...asObject(latest.status), conditions } }, SYSTEM_ACTOR, 'status');
  }

  private writeBundle(image: KubeObject, desired: number, ready: number, clusters: string[]): void {
    const type = this.type('fleet.cattle.io.bundle');
    const name = `mos-${ image.metadata.name }`.slice(0, 63);
    const spec = asObject(image.spec);
    const bundleSpec = {
      targets:         image.metadata.namespace === 'fleet-local' ? [{ clusterName: 'local' }] : clone(spec.clusterTargets ?? []),
      rolloutStrategy: clone(spec.clusterRolloutStrategy ?? {}),
      resources:       [{ name: `plan-os-upgrader-${ image.metadata.name }.yaml`, content: JSON.stringify({ image: spec.osImage ?? spec.managedOSVersionName }) }],
    };
    const status = {
      summary:    { desiredReady: desired, ready },
      conditions: [{
        type: 'Ready', status: ready >= desired ? 'True' : 'False', message: ready >= desired ? '' : `NotReady(${ desired - ready }) [${ clusters.slice(ready).join(', ') }]`
      }],
    };
    const existing = this.api.find(type, image.metadata.namespace, name);

    if (!existing) {
      this.api.create(type, image.metadata.namespace, {
        metadata: {
          name,
          ownerReferences: [{
            apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', name: image.metadata.name, uid: image.metadata.uid, controller: true
          }],
        },
        spec: bundleSpec,
      }, SYSTEM_ACTOR);
    } else {
      this.api.update(type, existing.metadata.namespace, name, { ...existing, spec: bundleSpec }, SYSTEM_ACTOR);
    }
    const latest = this.api.find(type, image.metadata.namespace, name);

    if (latest) {
      this.api.update(type, latest.metadata.namespace, name, { ...latest, status }, SYSTEM_ACTOR, 'status');
    }
  }
}

function log(message: string): void {
  process.stderr.write(`[emulator] elemental-operator: ${ message }\n`);
}
