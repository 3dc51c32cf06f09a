import type { OSVersion, Reason } from './types';
import { compareNewestFirst } from './channel';
import { OperatorState, operatorState, PendingWrite } from './operator-state';
import { PoolView, readPool, versionsForPool } from './pool';
import { resolveSelector, Resolution } from './selector';
import { describeNodeSelector, describeTarget, targetsOf } from './cluster-targets';
import { poolId, specOf } from './pool-object';
import { Rollout, rolloutOf } from './rollout';
import { ImageDrift, imageDrift } from './approved-image';

/** One line of the Workload pools table, derived from the live object; never stored. */
export interface PoolRow {
  id: string;
  name: string;
  namespace: string;
  pool: PoolView;
  /** The live object from the store (for the approve dialog). */
  object: unknown;
  targets: Reason[];
  nodeSelector: string;
  /** The pinned version, when it still exists. */
  pinned?: OSVersion;
  /** A pin is set but no version of that name exists in the pool's namespace. */
  pinMissing: boolean;
  /** The pinned version exists but its channel no longer lists it. */
  pinOutOfSync: boolean;
  /** The pinned version is being deleted (the operator's finalizer keeps it while pinned). */
  pinTerminating: boolean;
  /** What the operator made of the pin: refused, still showing the status from before a write, or current. */
  operator: OperatorState;
  /** What the stored selector picks now (undefined without a usable selector or without a match). */
  candidate?: OSVersion;
  /** The selector picks another image than the pin, newer by rule "Channel order" (or the pin is gone). */
  upgradeAvailable: boolean;
  rollout: Rollout;
  canRollBack: boolean;
  /** The pin now names another image than the one approved (approved-image.ts). */
  imageDrift?: ImageDrift;
}

/**
 * Resolves selectors for many pools at once: versions are split by namespace once, and pools
 * with the same selector in the same namespace share one resolution.
 */
export class PoolResolver {
  private byNamespace = new Map<string, OSVersion[]>();
  private byName = new Map<string, OSVersion>();
  private resolutions = new Map<string, Resolution>();

  constructor(private readonly versions: readonly OSVersion[], private readonly now: number) {
    for (const version of versions) {
      this.byName.set(`${ version.namespace }/${ version.name }`, version);
    }
  }

  /** versionsForPool, once per namespace. */
  versionsIn(namespace: string): OSVersion[] {
    let list = this.byNamespace.get(namespace);

    if (!list) {
      list = versionsForPool(this.versions, namespace);
      this.byNamespace.set(namespace, list);
    }

    return list;
  }

  find(namespace: string, name: string): OSVersion | undefined {
    return this.byName.get(`${ namespace }/${ name }`) ?? this.byName.get(`/${ name }`);
  }

  resolve(pool: PoolView): Resolution | undefined {
    if (!pool.selector || pool.selectorText === undefined) {
      return undefined;
    }
    const key = `${ pool.namespace }\n${ pool.selectorText }`;
    let resolution = this.resolutions.get(key);

    if (!resolution) {
      resolution = resolveSelector(pool.selector, this.versionsIn(pool.namespace), this.now);
      this.resolutions.set(key, resolution);
    }

    return resolution;
  }
}

export function toPoolRow(obj: unknown, resolver: PoolResolver, pending?: PendingWrite): PoolRow {
  const pool = readPool(obj);
  const pinned = pool.pin ? resolver.find(pool.namespace, pool.pin) : undefined;
  const candidate = resolver.resolve(pool)?.chosen;
  const drift = imageDrift(obj, pinned);

  return {
    id:               poolId(obj),
    name:             pool.name,
    namespace:        pool.namespace,
    pool,
    object:           obj,
    targets:          targetsOf(obj).map(describeTarget),
    nodeSelector:     describeNodeSelector(specOf(obj).nodeSelector),
    pinned,
    pinMissing:       !!pool.pin && !pinned,
    pinOutOfSync:     !!pinned && !pinned.inSync,
    pinTerminating:   !!pinned?.terminating,
    operator:         operatorState(obj, resolver.versionsIn(pool.namespace), pending),
    candidate,
    upgradeAvailable: candidate !== undefined && candidate.name !== pool.pin && (!pinned || compareNewestFirst(candidate, pinned) < 0),
    rollout:          rolloutOf(obj),
    canRollBack:      !!pool.previousVersion && pool.previousVersion !== pool.pin,
    ...(drift ? { imageDrift: drift } : {}),
  };
}

/** `pending`: by pool id, what the extension wrote last (see operatorState). */
export function toPoolRows(objects: readonly unknown[], versions: readonly OSVersion[], now: number, pending: Record<string, PendingWrite> = {}): PoolRow[] {
  const resolver = new PoolResolver(versions, now);

  return objects.map((obj) => toPoolRow(obj, resolver, pending[poolId(obj)]));
}
