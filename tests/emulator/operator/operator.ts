// A simulated Elemental operator, channel side: what ManagedOSVersionChannelReconciler does
// (rancher/elemental-operator controllers/managedosversionchannel_controller.go), without the
// syncer pod: the channel file is read straight from the emulator's served files.

import { ApiError } from '../kube/errors';
import { ServedFiles } from '../data/files';
import {
  JsonObject, asObject, asString, clone, isObject, jsonEqual
} from '../core/json';
import { nowTimestamp } from '../kube/objects';
import { ControllerApi } from '../kube/controller-api';
import { parseLabelSelector } from '../kube/labels';
import { ResourceType } from '../kube/resource-types';
import { KubeObject, StoreEvent } from '../kube/store';
import { conditionsOf, setCondition } from '../kube/conditions';

export const CHANNEL_LABEL = 'elemental.cattle.io/channel';
export const LAST_SYNC_ANNOTATION = 'elemental.cattle.io/channel-last-sync';
export const NO_LONGER_IN_SYNC_ANNOTATION = 'elemental.cattle.io/channel-no-longer-in-sync';
const MAX_CONSECUTIVE_FAILURES = 4;
const STATUS_CONFLICT_RETRIES = 5;
const STATUS_CONFLICT_WAIT_MS = 200;
const VERSION_SPEC_FIELDS = ['version', 'type', 'minVersion', 'metadata', 'upgradeContainer'];

/** Where the emulator serves a channel's file: the channel's spec.options.uri points here. */
export const CHANNEL_FILE_PATH = '/__emulator/channel-files/';

/**
 * The syncer pod's phases, as long as they take on a real cluster: Pending while the channel image
 * is pulled and its init container copies the channel file, then Running while the display
 * container prints it. Kubernetes decides these, not the operator: the figures are typical, not
 * read from code (docs/emulator.md). The operator reconciles on each phase change (its
 * filterChannelEvents predicate) and, while the pod runs, every pollingTime (20 s) besides, which
 * changes nothing here since no phase change is ever missed.
 */
export const SYNC_POD_PENDING_MS = 12000;
export const SYNC_POD_RUNNING_MS = 3000;

export interface OperatorOptions {
  /** Multiplies every duration of a sync (pod phases, poll, retries): 1 is real time, 0.05 twenty times faster. */
  timeScale: number;
  /** First retry delay after a failed sync; doubles per attempt (the controller's rate limiter, baseRateTime 4 s). */
  retryBaseMs: number;
}

/** The status as the operator writes it: failedSynchronizationAttempts is `omitempty`, so 0 is left out. */
function withAttempts(status: JsonObject, attempts: number): JsonObject {
  const out = { ...status };

  if (attempts > 0) {
    out.failedSynchronizationAttempts = attempts;
  } else {
    delete out.failedSynchronizationAttempts;
  }

  return out;
}

export interface SyncResult {
  channel: string;
  namespace: string;
  ok: boolean;
  created: string[];
  /** Versions the file still lists (each is patched with the new sync time). */
  updated: string[];
  /** Of those, the ones whose spec changed. */
  changed: string[];
  deprecated: string[];
  deleted: string[];
  error?: string;
}

/** Go's time.ParseDuration for the forms channels use (`1h`, `30m`, `1h30m`, `90s`, `500ms`). */
export function parseGoDuration(text: string): number | undefined {
  const units: Record<string, number> = {
    ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000
  };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;

  if (!text || text === '0') {
    return text === '0' ? 0 : undefined;
  }
  while ((match = re.exec(text)) !== null) {
    total += Number(match[1]) * units[match[2]];
    consumed = re.lastIndex;
  }

  return consumed === text.length ? total : undefined;
}

export function channelFileName(uri: string): string | undefined {
  const index = uri.indexOf(CHANNEL_FILE_PATH);

  if (index < 0) {
    return undefined;
  }
  const rest = uri.slice(index + CHANNEL_FILE_PATH.length).split('?')[0];

  return rest.endsWith('.json') ? decodeURIComponent(rest.slice(0, -5)) : undefined;
}

class SyncFailure extends Error {}

export class ChannelOperator {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<SyncResult | undefined>>();
  private readonly queued = new Map<string, Promise<SyncResult | undefined>>();
  private readonly lastSync = new Map<string, string>();
  private unsubscribe?: () => void;

  constructor(
    private readonly api: ControllerApi,
    private readonly files: ServedFiles,
    private readonly options: OperatorOptions,
  ) {}

  private get channelType(): ResourceType {
    return this.api.types.require('elemental.cattle.io.managedosversionchannel');
  }

  private get versionType(): ResourceType {
    return this.api.types.require('elemental.cattle.io.managedosversion');
  }

  /** Reacts to new channels and spec changes, as the controller's watch does. */
  start(): void {
    this.unsubscribe = this.api.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  private onEvent(event: StoreEvent): void {
    if (event.type !== this.channelType.id) {
      return;
    }
    const { namespace, name } = event.object.metadata;
    const key = `${ namespace }/${ name }`;

    if (event.action === 'remove') {
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);

      return;
    }
    const syncedGeneration = asObject(event.object.status).syncedGeneration;

    if (event.action === 'create' || syncedGeneration !== event.object.metadata.generation) {
      this.sync(namespace ?? '', name).catch(() => undefined);
    }
  }

  /**
   * Brings every channel to a finished sync now (used by the seed, at start and on reset): the
   * seed is a state in which those syncs happened long ago, so their pods take no time here.
   */
  async syncAll(): Promise<SyncResult[]> {
    const results: SyncResult[] = [];

    for (const channel of await this.api.list(this.channelType)) {
      const result = await this.sync(channel.metadata.namespace ?? '', channel.metadata.name, false, true);

      if (result) {
        results.push(result);
      }
    }

    return results;
  }

  /** One reconcile of a channel: validates the spec, syncs the file, writes the status. */
  sync(namespace: string, name: string, retry = false, seeding = false): Promise<SyncResult | undefined> {
    const key = `${ namespace }/${ name }`;
    const queued = this.queued.get(key);

    // A reconcile that has not started yet will see the latest state: callers share it.
    if (queued) {
      return queued;
    }
    const previous = this.running.get(key) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => {
      this.queued.delete(key);

      return this.reconcile(namespace, name, retry, seeding);
    });

    this.queued.set(key, next);
    this.running.set(key, next);
    next.finally(() => {
      if (this.running.get(key) === next) {
        this.running.delete(key);
      }
    }).catch(() => undefined);

    return next;
  }

  private async reconcile(namespace: string, name: string, retry: boolean, seeding: boolean): Promise<SyncResult | undefined> {
    const channel = await this.api.find(this.channelType, namespace, name);

    if (!channel) {
      return undefined;
    }
    const key = `${ namespace }/${ name }`;
    const spec = asObject(channel.spec);
    const result: SyncResult = {
      channel: name, namespace, ok: false, created: [], updated: [], changed: [], deprecated: [], deleted: []
    };

    clearTimeout(this.timers.get(key));

    const invalidConfig = this.checkSpec(spec);

    if (invalidConfig) {
      await this.writeStatus(channel, (status) => ({
        ...status,
        conditions: setCondition(conditionsOf(status), {
          type: 'Ready', reason: 'InvalidConfiguration', status: 'False', message: invalidConfig
        }),
      }));

      return { ...result, error: invalidConfig };
    }

    if (spec.enabled === false) {
      for (const version of await this.ownedVersions(channel)) {
        await this.deprecate(channel, version, result);
      }
      await this.writeStatus(channel, (status) => ({
        ...status,
        conditions: setCondition(conditionsOf(status), {
          type: 'Ready', reason: 'ChannelDisabled', status: 'True', message: 'Channel is disabled'
        }),
      }));

      return { ...result, ok: true };
    }

    // rancher/elemental-operator controllers/managedosversionchannel_controller.go, reconcile():
    // a new generation, the interval reached or an explicit sync resets the failure count; a
    // retry after a failure keeps it. createSyncerPod writes lastSyncedTime (so the interval is not
    // hit again while the pod runs) and Ready=False Synchronizing "started synchronization pod".
    const previousAttempts = retry ? Number(asObject(channel.status).failedSynchronizationAttempts) || 0 : 0;

    await this.writeStatus(channel, (status) => withAttempts({
      ...status,
      syncedGeneration: channel.metadata.generation,
      lastSyncedTime:   nowTimestamp(),
      conditions:       setCondition(conditionsOf(status), {
        type: 'Ready', reason: 'Synchronizing', status: 'False', message: 'started synchronization pod'
      }),
    }, previousAttempts));
    const scale = seeding ? 0 : this.options.timeScale;

    await delay(SYNC_POD_PENDING_MS * scale);
    // handleSyncPod, pod Pending/Running: "ongoing channel synchronization", requeued every
    // pollingTime until the pod's phase changes to Succeeded (which reconciles at once).
    await this.writeStatus(channel, (status) => ({
      ...status,
      conditions: setCondition(conditionsOf(status), {
        type: 'Ready', reason: 'Synchronizing', status: 'False', message: 'ongoing channel synchronization'
      }),
    }));
    await delay(SYNC_POD_RUNNING_MS * scale);

    try {
      const text = await this.readChannelFile(spec);
      const syncTimestamp = await this.nextSyncTimestamp(key);

      // handleSyncPod, pod Succeeded: versions created or patched, then Ready=True.
      await this.createManagedOSVersions(channel, text, syncTimestamp, result);
      await this.writeStatus(channel, (status) => withAttempts({
        ...status,
        lastSyncedTime: syncTimestamp,
        conditions:     setCondition(conditionsOf(status), {
          type: 'Ready', reason: 'Synchronized', status: 'True', message: 'successfully loaded channel data'
        }),
      }, 0));
      result.ok = true;
      this.schedule(key, namespace, name, parseGoDuration(asString(spec.syncInterval) ?? '') ?? 3600000);
    } catch (e) {
      // handleFailedSync: Ready=False FailedToSync, one more failed attempt, retried by the
      // controller's rate limiter until more than maxConscutiveFailures (4), then at the interval.
      result.error = e instanceof Error ? e.message : String(e);
      const updated = await this.writeStatus(channel, (status) => withAttempts({
        ...status,
        lastSyncedTime: nowTimestamp(),
        conditions:     setCondition(conditionsOf(status), {
          type: 'Ready', reason: 'FailedToSync', status: 'False', message: 'failed channel synchronization'
        }),
      }, (Number(asObject(status).failedSynchronizationAttempts) || 0) + 1));
      const attempts = Number(asObject(updated?.status).failedSynchronizationAttempts) || 0;

      if (attempts <= MAX_CONSECUTIVE_FAILURES) {
        this.schedule(key, namespace, name, this.options.retryBaseMs * this.options.timeScale * 2 ** (attempts - 1), true);
      } else {
        this.schedule(key, namespace, name, parseGoDuration(asString(spec.syncInterval) ?? '') ?? 3600000);
      }
    }

    return result;
  }

  /**
   * The sync time, RFC 3339 to the second as the operator writes it. A real sync takes longer than a
   * second (it runs a pod); here two syncs of a channel could share a second, which would hide the
   * versions the second sync dropped, so the later one waits for the next second.
   */
  private async nextSyncTimestamp(key: string): Promise<string> {
    let timestamp = nowTimestamp();

    if (timestamp === this.lastSync.get(key)) {
      await delay(1005 - (Date.now() % 1000));
      timestamp = nowTimestamp();
    }
    this.lastSync.set(key, timestamp);

    return timestamp;
  }

  private checkSpec(spec: JsonObject): string | undefined {
    const type = asString(spec.type) ?? '';

    if (!type) {
      return 'spec.Type can\'t be empty';
    }
    if (parseGoDuration(asString(spec.syncInterval) ?? '') === undefined) {
      return 'spec.SyncInterval is not parseable by time.ParseDuration';
    }
    if (type !== 'json' && type !== 'custom') {
      return 'spec.Type is not supported';
    }

    return undefined;
  }

  private schedule(key: string, namespace: string, name: string, ms: number, retry = false): void {
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(() => {
      this.sync(namespace, name, retry).catch(() => undefined);
    }, Math.min(ms, 2 ** 31 - 1));

    timer.unref();
    this.timers.set(key, timer);
  }

  /** What the syncer pod would print: the channel file (json type) or the image's channel (custom type). */
  private async readChannelFile(spec: JsonObject): Promise<string> {
    const options = asObject(spec.options);
    const uri = asString(options.uri) ?? '';
    const own = channelFileName(uri);

    if (own !== undefined) {
      const text = this.files.channelFile(own);

      if (text === undefined) {
        throw new SyncFailure(`channel file ${ own } not found`);
      }

      return text;
    }
    if (asString(spec.type) === 'custom') {
      const image = asString(options.image) ?? '';
      const name = image.split('/').pop()?.split(':')[0] ?? '';
      const text = this.files.channelFile(name);

      if (text === undefined) {
        throw new SyncFailure(`no channel data for image ${ image }`);
      }

      return text;
    }
    if (!/^https?:\/\//.test(uri)) {
      throw new SyncFailure(`unsupported channel URI ${ uri }`);
    }
    const response = await fetch(uri, { signal: AbortSignal.timeout(10000) });

    if (!response.ok) {
      throw new SyncFailure(`fetching ${ uri }: ${ response.status }`);
    }

    return response.text();
  }

  private ownedVersions(channel: KubeObject): Promise<KubeObject[]> {
    return this.api.list(this.versionType, {
      namespace:     channel.metadata.namespace,
      labelSelector: parseLabelSelector(`${ CHANNEL_LABEL }=${ channel.metadata.name }`),
    });
  }

  private async createManagedOSVersions(channel: KubeObject, text: string, syncTimestamp: string, result: SyncResult): Promise<void> {
    let entries: unknown;

    try {
      entries = JSON.parse(text);
    } catch (e) {
      throw new SyncFailure(`Failed unmarshalling managedOSVersions: ${ e instanceof Error ? e.message : String(e) }`);
    }
    if (!Array.isArray(entries) || !entries.every((e) => isObject(e) || e === null)) {
      throw new SyncFailure('Failed unmarshalling managedOSVersions: json: cannot unmarshal into Go value of type []v1beta1.ManagedOSVersion');
    }
    const channelSpec = asObject(channel.spec);
    const current = new Map((await this.ownedVersions(channel)).map((v) => [v.metadata.name, v]));
    const errors: string[] = [];

    for (const entry of entries.map((e) => asObject(e))) {
      const name = asString(asObject(entry.metadata).name) ?? '';
      const spec = versionSpec(entry.spec, channelSpec);
      const labels = { [CHANNEL_LABEL]: channel.metadata.name };
      const annotations = { [LAST_SYNC_ANNOTATION]: syncTimestamp };
      const existing = current.get(name);

      try {
        if (existing) {
          const latest = await this.api.find(this.versionType, existing.metadata.namespace, name) ?? existing;

          await this.api.update(this.versionType, latest.metadata.namespace, name, {
            ...latest,
            metadata: {
              ...latest.metadata, labels, annotations
            },
            spec
          });
          existing.metadata.annotations = annotations;
          result.updated.push(name);
          if (!jsonEqual(latest.spec, spec)) {
            result.changed.push(name);
          }
        } else {
          await this.api.create(this.versionType, channel.metadata.namespace, {
            apiVersion: 'elemental.cattle.io/v1beta1',
            kind:       'ManagedOSVersion',
            metadata:   {
              name,
              namespace:       channel.metadata.namespace,
              labels,
              annotations,
              ownerReferences: [{
                apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: channel.metadata.name, uid: channel.metadata.uid, controller: true
              }],
            },
            spec,
          });
          result.created.push(name);
        }
      } catch (e) {
        errors.push(e instanceof ApiError ? e.message : String(e));
      }
    }
    if (errors.length) {
      throw new SyncFailure(errors.join('; '));
    }
    for (const version of current.values()) {
      if (version.metadata.annotations?.[LAST_SYNC_ANNOTATION] !== syncTimestamp) {
        await this.deprecate(channel, version, result);
      }
    }
  }

  /** Flags a version the channel no longer lists; deletes it when the channel asks for that. */
  private async deprecate(channel: KubeObject, version: KubeObject, result: SyncResult): Promise<void> {
    const latest = await this.api.find(this.versionType, version.metadata.namespace, version.metadata.name);

    if (!latest) {
      return;
    }
    if (latest.metadata.annotations?.[NO_LONGER_IN_SYNC_ANNOTATION] !== 'true') {
      latest.metadata.annotations = { ...latest.metadata.annotations, [NO_LONGER_IN_SYNC_ANNOTATION]: 'true' };
      await this.api.update(this.versionType, latest.metadata.namespace, latest.metadata.name, latest);
      result.deprecated.push(latest.metadata.name);
    }
    if (asObject(channel.spec).deleteNoLongerInSyncVersions === true) {
      await this.api.delete(this.versionType, latest.metadata.namespace, latest.metadata.name);
      result.deleted.push(latest.metadata.name);
    }
  }

  /**
   * Status writes go through the status subresource, on the latest object. On a real API server
   * (`--backend real-stack`) the cache can be a change behind (a spec edited meanwhile): a 409 is
   * tried again on the cache's next state, as the operator's reconcile would be requeued.
   */
  private async writeStatus(channel: KubeObject, change: (status: JsonObject) => JsonObject): Promise<KubeObject | undefined> {
    for (let attempt = 0; ; attempt++) {
      const latest = await this.api.find(this.channelType, channel.metadata.namespace, channel.metadata.name);

      if (!latest) {
        return undefined;
      }
      try {
        return await this.api.update(this.channelType, latest.metadata.namespace, latest.metadata.name, { ...latest, status: change(clone(asObject(latest.status))) }, 'status');
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 409 || attempt >= STATUS_CONFLICT_RETRIES) {
          throw e;
        }
        await delay(STATUS_CONFLICT_WAIT_MS);
      }
    }
  }
}

/** The spec the operator gives a version: the entry's known spec fields, the channel's upgrade container and registry. */
export function versionSpec(entrySpec: unknown, channelSpec: JsonObject): JsonObject {
  const source = asObject(entrySpec);
  const spec: JsonObject = {};

  for (const field of VERSION_SPEC_FIELDS) {
    if (source[field] !== undefined && source[field] !== null && source[field] !== '') {
      spec[field] = clone(source[field]);
    }
  }
  if (isObject(channelSpec.upgradeContainer)) {
    spec.upgradeContainer = clone(channelSpec.upgradeContainer);
  }
  const registry = asString(channelSpec.registry) ?? '';

  if (registry) {
    const field = spec.type === 'container' ? 'upgradeImage' : spec.type === 'iso' ? 'uri' : '';

    if (!field) {
      throw new SyncFailure(`unexpected ManagedOSVersion type ${ String(spec.type) }`);
    }
    const metadata = asObject(spec.metadata);
    const value = asString(metadata[field]) ?? '';
    const separator = !registry.endsWith('/') && !value.startsWith('/') ? '/' : '';

    spec.metadata = { ...metadata, [field]: `${ registry }${ separator }${ value }` };
  }

  return spec;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
