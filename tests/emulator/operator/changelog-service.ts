// What `/elemental/changelog/…` answers, in the two modes the emulator knows (docs/emulator.md):
//
// - `operator` (default): the Elemental operator of current main. Its server routes only
//   `registration` and `seedimage` and answers anything else with Go's http.Error:
//   400 `unknwon api: <api>` as text/plain (rancher/elemental-operator pkg/server/server.go).
// - `pr891`: the draft "Introduce ManagedOSChangelog resource" (elemental-operator PR #891):
//   the ManagedOSChangelog type exists; its controller starts a worker pod that copies
//   `/changelogs/<osVersion>.updates.log` out of the channel image and serves it, and
//   `/elemental/changelog/<osVersion>/<file>` proxies to that pod once every condition is True
//   (controllers/managedoschangelog_controller.go, pkg/server/api_changelog.go).
//   The pod and its Service are both named after the object (fillWorkerPod, reconcileWorkerService
//   → fillBuildImageService(changelog.Name)); a Service name must be a DNS-1035 label
//   (kubernetes pkg/apis/core/validation ValidateServiceName), so an object named like
//   `base-v2.3.0-6.1-os` never gets its Service: Ready False ServiceCreationFailure.

import { changelogResourceType, CHANGELOG_TYPE_ID } from './changelog-crd';
import { conditionsOf, setCondition, Condition } from '../kube/conditions';
import { ServedFiles } from '../data/files';
import { RequestContext, sendText } from '../core/http';
import { JsonObject, asObject, asString, clone } from '../core/json';
import { ObjectApi } from '../kube/objects';
import { TypeRegistry } from '../kube/resource-types';
import { KubeObject, StoreEvent } from '../kube/store';
import { SYSTEM_ACTOR } from '../rancher/users';

/** `none`: no Elemental operator installed (server.ts answers `/elemental/` with the UI's index.html). */
export type ChangelogMode = 'operator' | 'pr891' | 'none';

/** A worker pod pulling a small channel image and starting: seconds, not milliseconds. */
export const DEFAULT_POD_START_MS = 4000;

export interface ChangelogServiceOptions {
  mode: ChangelogMode;
  /** How long the worker pod takes from created to Running (it pulls the channel image first). */
  podStartMs: number;
  /** The emulator's origin, for status.changelogURL while the setting server-url is empty. */
  origin: string;
}

/** apimachinery validation.IsDNS1035Label, the rule for a Service's name. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function serviceNameProblem(name: string): string | undefined {
  if (name.length <= 63 && DNS_1035_LABEL.test(name)) {
    return undefined;
  }
  const why = name.length > 63 ? 'must be no more than 63 characters' : 'a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')';

  return `Service "${ name }" is invalid: metadata.name: Invalid value: "${ name }": ${ why }`;
}

/** Go's http.Error: the text, a newline, text/plain, nosniff. */
function httpError(ctx: RequestContext, status: number, text: string): void {
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  sendText(ctx, status, `${ text }\n`);
}

export class ChangelogService {
  private unsubscribe?: () => void;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Worker pods by `namespace/name`: created → running → succeeded (cleanupAfterMinutes later). */
  private readonly pods = new Map<string, 'pending' | 'running' | 'succeeded'>();
  /** The Services reconcileWorkerService created, by `namespace/name`. */
  private readonly services = new Set<string>();

  constructor(private readonly api: ObjectApi, private readonly types: TypeRegistry, private readonly files: ServedFiles, public options: ChangelogServiceOptions) {
    this.applyMode();
  }

  /** Registers the CRD only in `pr891` mode, as a cluster without PR #891 has no such type. */
  applyMode(): void {
    if (this.options.mode === 'pr891') {
      this.types.add(changelogResourceType());
    } else {
      this.types.remove(CHANGELOG_TYPE_ID);
    }
  }

  start(): void {
    if (this.options.mode !== 'pr891') {
      return;
    }
    this.unsubscribe = this.api.store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
    this.pods.clear();
    this.services.clear();
  }

  /** GET /elemental/changelog/<osVersion>/<file>, logged in or not (Rancher checks no session there). */
  handle(ctx: RequestContext): void {
    const parts = ctx.path.split('/').slice(2).map((part) => decodeURIComponent(part));
    const api = parts[0] ?? '';

    if (this.options.mode !== 'pr891' || api !== 'changelog') {
      return httpError(ctx, 400, `unknwon api: ${ api }`);
    }
    // pkg/server/api_changelog.go: expected {"changelog", <osVersion>[, <file>]}.
    const osVersion = parts[1] ?? '';
    const file = parts.length === 3 ? parts[2] : '';

    if (!osVersion) {
      return httpError(ctx, 404, `unexpected path: [${ parts.join(' ') }]`);
    }
    const type = this.types.require(CHANGELOG_TYPE_ID);
    const changelog = this.api.list(type).items.find((item) => (asString(asObject(item.spec).osVersion) ?? '').split('/').pop() === osVersion);

    if (!changelog) {
      return httpError(ctx, 404, `failed to find changelog with ManagedOSVersion ${ osVersion }`);
    }
    if (conditionsOf(changelog.status).some((c) => c.status !== 'True')) {
      return httpError(ctx, 404, `changelog ${ changelog.metadata.namespace }/${ changelog.metadata.name } is not ready`);
    }
    const key = `${ changelog.metadata.namespace }/${ changelog.metadata.name }`;

    if (this.pods.get(key) !== 'running' || !this.services.has(key)) {
      // After the deadline the service is deleted (reconcileWorkerService).
      return httpError(ctx, 500, `failed to get service for changelog ${ key }: services "${ changelog.metadata.name }" not found`);
    }
    // The pod serves /srv, where the init container copied only <osVersion>.updates.log.
    const text = file === `${ osVersion }.updates.log` ? this.files.file('changelog', osVersion) : undefined;

    if (text === undefined) {
      return httpError(ctx, 404, '404 page not found');
    }
    sendText(ctx, 200, text, 'text/plain; charset=utf-8');
  }

  private onEvent(event: StoreEvent): void {
    if (event.type !== CHANGELOG_TYPE_ID) {
      return;
    }
    const key = `${ event.object.metadata.namespace }/${ event.object.metadata.name }`;

    if (event.action === 'remove') {
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
      this.pods.delete(key);
      this.services.delete(key);

      return;
    }
    if (event.action === 'create') {
      setTimeout(() => this.reconcileNew(event.object), 0);
    }
  }

  private patchStatus(object: KubeObject, change: (status: JsonObject) => JsonObject): void {
    const type = this.types.get(CHANGELOG_TYPE_ID);
    const latest = type && this.api.find(type, object.metadata.namespace, object.metadata.name);

    if (type && latest) {
      this.api.update(type, latest.metadata.namespace, latest.metadata.name, { ...latest, status: change(clone(asObject(latest.status))) }, SYSTEM_ACTOR, 'status');
    }
  }

  private condition(status: JsonObject, condition: Condition): JsonObject {
    return { ...status, conditions: setCondition(conditionsOf(status), condition) };
  }

  /** reconcile(): the Ready condition, the channel's image, the pod, the service. */
  private reconcileNew(object: KubeObject): void {
    const key = `${ object.metadata.namespace }/${ object.metadata.name }`;
    const channelRef = asObject(asObject(object.spec).channelRef);
    const channelType = this.types.require('elemental.cattle.io.managedosversionchannel');
    const channel = this.api.find(channelType, asString(channelRef.namespace) ?? object.metadata.namespace, asString(channelRef.name) ?? '');

    this.patchStatus(object, (status) => this.condition(status, {
      type: 'Ready', status: 'Unknown', reason: 'ResourcesNotCreatedYet', message: ''
    }));
    if (!channel) {
      this.patchStatus(object, (status) => this.condition(status, {
        // condition_consts.go: SetOwnerFailureReason = "RegistrationNotFound".
        type: 'Ready', status: 'False', reason: 'RegistrationNotFound', message: `managedosversionchannels.elemental.cattle.io "${ asString(channelRef.name) ?? '' }" not found`
      }));

      return;
    }
    if (!asString(asObject(asObject(channel.spec).options).image)) {
      this.patchStatus(object, (status) => this.condition(status, {
        type: 'Ready', status: 'False', reason: 'PodCreationFailure', message: 'managedosversionchannel \'image\' option is missing'
      }));

      return;
    }
    this.pods.set(key, 'pending');
    const serviceProblem = serviceNameProblem(object.metadata.name);

    if (!serviceProblem) {
      this.services.add(key);
    }
    // The pod is created first (reconcileWorkerPod), then the Service (reconcileWorkerService).
    this.patchStatus(object, (status) => this.condition(this.condition(status, {
      type: 'WorkerPodReady', status: 'False', reason: 'WorkerPodInitializing', message: 'worker pod started'
    }), serviceProblem ? {
      type: 'Ready', status: 'False', reason: 'ServiceCreationFailure', message: serviceProblem
    } : {
      type: 'Ready', status: 'True', reason: 'ResourcesSuccessfullyCreated', message: 'resources created successfully'
    }));
    this.later(key, this.options.podStartMs, () => this.podRunning(object));
  }

  private later(key: string, ms: number, run: () => void): void {
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(run, Math.min(ms, 2 ** 31 - 1));

    timer.unref();
    this.timers.set(key, timer);
  }

  /** updateStatusFromWorkerPod, PodRunning: the URL on the server-url setting, WorkerPodReady True. */
  private podRunning(object: KubeObject): void {
    const key = `${ object.metadata.namespace }/${ object.metadata.name }`;
    const latest = this.api.find(this.types.require(CHANGELOG_TYPE_ID), object.metadata.namespace, object.metadata.name);

    if (!latest) {
      return;
    }
    const osVersion = asString(asObject(latest.spec).osVersion) ?? '';

    if (this.files.file('changelog', osVersion) === undefined) {
      // The init container's `cp` fails when the image has no such log: the pod fails.
      this.pods.set(key, 'succeeded');
      this.patchStatus(latest, (status) => this.condition(status, {
        type: 'WorkerPodReady', status: 'False', reason: 'WorkerPodCompletionFailure', message: 'worker pod failed'
      }));

      return;
    }
    if (!this.services.has(key)) {
      // updateStatusFromWorkerPod, PodRunning: no Service, so WorkerPodCompletionFailure, and
      // reconcile() reports the returned error as PodCreationFailure.
      const message = `failed to get associated service: services "${ latest.metadata.name }" not found`;

      this.pods.set(key, 'running');
      this.patchStatus(latest, (status) => this.condition(this.condition(status, {
        type: 'Ready', status: 'False', reason: 'PodCreationFailure', message
      }), {
        type: 'WorkerPodReady', status: 'False', reason: 'WorkerPodCompletionFailure', message
      }));

      return;
    }
    this.pods.set(key, 'running');
    this.patchStatus(latest, (status) => ({
      ...this.condition(status, {
        type: 'WorkerPodReady', status: 'True', reason: 'WorkerPodCompletionSuccess', message: 'changelog available'
      }),
      changelogURL: `${ this.serverUrl() }/elemental/changelog/${ osVersion }/`,
    }));
    // The serve container runs with `-t cleanupAfterMinutes*60`, then exits: PodSucceeded.
    const minutes = Number(asObject(latest.spec).cleanupAfterMinutes ?? 60);

    if (minutes > 0) {
      this.later(key, minutes * 60 * 1000 * this.cleanupScale, () => this.podSucceeded(latest));
    }
  }

  /** For tests: how much of a real minute a cleanup minute lasts (1 = real time). */
  cleanupScale = 1;

  /** PodSucceeded: the pod is deleted, the URL cleared, WorkerPodReady True WorkerPodDeadline. */
  private podSucceeded(object: KubeObject): void {
    const key = `${ object.metadata.namespace }/${ object.metadata.name }`;

    this.pods.set(key, 'succeeded');
    this.patchStatus(object, (status) => ({
      ...this.condition(status, {
        type: 'WorkerPodReady', status: 'True', reason: 'WorkerPodDeadline', message: 'worker pod deadline elapsed'
      }),
      changelogURL: '',
    }));
  }

  /** getRancherServerAddress: https:// + the server-url setting without its scheme. */
  private serverUrl(): string {
    const setting = this.api.find(this.types.require('management.cattle.io.setting'), undefined, 'server-url');
    const value = asString(setting?.value) ?? '';

    // Difference (docs/emulator.md): with server-url empty the real controller fails; the
    // emulator, plain HTTP, uses its own origin instead.
    return value ? `https://${ value.replace(/^https:\/\//, '') }` : this.options.origin;
  }
}
