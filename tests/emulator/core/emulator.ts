// The emulated Rancher: API server semantics (kubernetes apiserver), Steve (rancher/steve), the Elemental operator (rancher/elemental-operator controllers/) and Fleet (rancher/fleet).
// The emulated Rancher: the object store and its API semantics, sessions, served files, the
// simulated operator and Fleet, faults and sockets. Seeding and resetting live here.

import { ChangelogMode, ChangelogService, DEFAULT_POD_START_MS } from '../operator/changelog-service';
import { attachCrdSchemas } from '../kube/crds';
import { Faults } from './faults';
import { FleetSimulator } from '../fleet/fleet';
import { IMAGE_RETRY_BASE_MS, ImageOperator } from '../operator/image-operator';
import { DownstreamClusters } from '../rancher/downstream';
import { NodeRegistry } from '../suc/nodes';
import { SystemUpgradeControllers } from '../suc/suc';
import { VersionFinalizer } from '../operator/version-finalizer';
import { ServedFiles } from '../data/files';
import { DEFAULT_OPERATOR_VERSION, ElementalInstall, channelSchemaFor, metadataObject } from '../operator/elemental-install';
import { FixtureData } from '../data/fixtures';
import { JsonObject, asObject, asString, clone } from './json';
import { ObjectApi } from '../kube/objects';
import { ControllerApi, LocalControllerApi } from '../kube/controller-api';
import { KubeEndpoint, RemoteControllerApi } from '../real-stack/remote-api';
import { ChannelOperator } from '../operator/operator';
import { ELEMENTAL_GROUP, ResourceType, TypeRegistry, builtinTypes } from '../kube/resource-types';
import { GeneratedChannel } from '../data/scale-channel';
import { baseObjects, channelObject } from '../rancher/seed';
import { Sessions } from '../rancher/sessions';
import { ObjectStore } from '../kube/store';
import { SYSTEM_ACTOR } from '../rancher/users';

export interface EmulatorConfig {
  fixtures: FixtureData;
  generated: GeneratedChannel[];
  /** The emulator's own origin, for the channels' spec.options.uri. */
  origin: string;
  /** Multiplies the channel sync's durations (1: real time). */
  timeScale: number;
  /** The ui-sql-cache feature (watches without a revision start from now). */
  sqlCache: boolean;
  retryBaseMs: number;
  /** The ManagedOSImage controller's first retry (default IMAGE_RETRY_BASE_MS, controller-runtime's 5 ms). */
  imageRetryBaseMs?: number;
  rolloutStepMs: number;
  /** For the downstream clusters' watches. */
  pingMs?: number;
  serverVersion?: string;
  /** What /elemental/changelog answers: today's operator (400) or the PR #891 protocol. */
  changelogMode?: ChangelogMode;
  /** pr891: how long a worker pod takes to start (default 4000). */
  changelogPodStartMs?: number;
  /** The Elemental operator installed (--elemental), by default the newest release. */
  elemental?: ElementalInstall;
  /**
   * `--backend real-stack`: the channel operator is a client of this real API server (it lists and
   * watches its channels and versions there and writes them there) instead of the emulator's store.
   */
  remoteKube?: KubeEndpoint;
}

export class Emulator {
  readonly store = new ObjectStore();
  readonly types: TypeRegistry;
  readonly api: ObjectApi;
  readonly sessions = new Sessions();
  readonly files: ServedFiles;
  readonly operator: ChannelOperator;
  /** The real API server's cache the channel operator reads (`--backend real-stack`), if any. */
  readonly remote?: RemoteControllerApi;
  readonly fleet: FleetSimulator;
  readonly imageOperator: ImageOperator;
  readonly versionFinalizer: VersionFinalizer;
  /** The machines of the Fleet clusters (never in the API: GET /__emulator/nodes). */
  readonly nodes = new NodeRegistry();
  readonly suc: SystemUpgradeControllers;
  /** What each downstream cluster's API shows of its nodes, Plans and Jobs (/k8s/clusters/<id>/v1). */
  readonly downstream: DownstreamClusters;
  readonly changelogs: ChangelogService;
  readonly faults = new Faults();
  /** userId → the preferences the dashboard stored. */
  readonly preferences = new Map<string, JsonObject>();
  /** The operator now installed (a control endpoint may change it). */
  elemental: ElementalInstall;
  /** The newest operator's channel schema, before an older version's is cut from it. */
  private readonly fullChannelSchema: JsonObject;

  constructor(readonly config: EmulatorConfig) {
    const types = builtinTypes();

    attachCrdSchemas(types);
    this.types = new TypeRegistry(types);
    this.fullChannelSchema = this.types.require('elemental.cattle.io.managedosversionchannel').openApiSchema ?? {};
    this.elemental = config.elemental ?? { installed: true, version: DEFAULT_OPERATOR_VERSION };
    this.applyElemental();
    this.api = new ObjectApi(this.store, this.types);
    this.suc = new SystemUpgradeControllers(this.nodes, { timeScale: config.timeScale });
    this.files = new ServedFiles(config.fixtures, config.generated);
    let operatorApi: ControllerApi = new LocalControllerApi(this.api);

    if (config.remoteKube) {
      this.remote = new RemoteControllerApi(config.remoteKube, this.types, [
        this.types.require('elemental.cattle.io.managedosversionchannel'), this.types.require('elemental.cattle.io.managedosversion'),
        this.types.require('elemental.cattle.io.managedosimage'), this.types.require('fleet.cattle.io.bundle'),
      ]);
      operatorApi = this.remote;
    }
    this.operator = new ChannelOperator(operatorApi, this.files, { timeScale: config.timeScale, retryBaseMs: config.retryBaseMs });
    this.fleet = new FleetSimulator(this.api, { stepMs: config.rolloutStepMs }, this.nodes, this.suc);
    this.imageOperator = new ImageOperator(operatorApi, { retryBaseMs: config.imageRetryBaseMs ?? IMAGE_RETRY_BASE_MS });
    this.versionFinalizer = new VersionFinalizer(operatorApi);
    this.downstream = new DownstreamClusters({
      api: this.api, nodes: this.nodes, suc: this.suc
    }, config.pingMs ?? 30000, config.serverVersion ?? '', config.sqlCache);
    this.changelogs = new ChangelogService(this.api, this.types, this.files, {
      mode: config.changelogMode ?? 'operator', podStartMs: config.changelogPodStartMs ?? DEFAULT_POD_START_MS, origin: config.origin
    });
  }

  /** Switches the changelog protocol (a control endpoint) and seeds again, as a new install would. */
  async setChangelogMode(mode: ChangelogMode, podStartMs = this.config.changelogPodStartMs ?? DEFAULT_POD_START_MS, cleanupScale = 1): Promise<void> {
    this.changelogs.options = {
      ...this.changelogs.options, mode, podStartMs
    };
    this.changelogs.cleanupScale = cleanupScale;
    await this.reseed();
  }

  /** Installs another operator (or none; a control endpoint) and seeds again, as a new install would. */
  async setElemental(install: ElementalInstall): Promise<void> {
    this.elemental = install;
    this.applyElemental();
    await this.reseed();
  }

  /** Without the operator its CRDs are not served; an older one's channel CRD lacks newer fields. */
  private applyElemental(): void {
    if (this.elemental.installed) {
      this.types.unservedGroups.delete(ELEMENTAL_GROUP);
    } else {
      this.types.unservedGroups.add(ELEMENTAL_GROUP);
    }
    this.types.require('elemental.cattle.io.managedosversionchannel').openApiSchema = channelSchemaFor(this.elemental, this.fullChannelSchema);
  }

  /** Creates the seed: base objects, one channel per channel file (synced), then the fixture seed objects. */
  async seed(): Promise<void> {
    for (const { type, object, status } of baseObjects({ sqlCache: this.config.sqlCache, serverVersion: this.config.serverVersion })) {
      this.createSeedObject(this.types.require(type), object, status);
    }
    const metadata = metadataObject(this.elemental);

    if (metadata) {
      this.applySeedObject(metadata);
    }
    if (this.remote && metadata) {
      // What the operator's chart installs on the stack (the Metadata record of its release,
      // elemental-operator .obs/chartfile/elemental-operator-helm/templates/metadata.yaml) in its namespace.
      await this.remote.ensure(this.types.require('namespace'), { metadata: { name: asString(asObject(metadata.metadata).namespace) } });
      await this.remote.ensure(this.types.require('elemental.cattle.io.metadata'), metadata);
    }
    const seedChannels = this.config.fixtures.seed.filter((o) => o.kind === 'ManagedOSVersionChannel');
    const seedChannelNames = new Set(seedChannels.map((o) => asString(asObject(o.metadata).name)));

    for (const name of this.files.channelNames()) {
      if (!seedChannelNames.has(name)) {
        this.createSeedObject(this.types.require('elemental.cattle.io.managedosversionchannel'), channelObject(name, this.config.origin, this.changelogs.options.mode === 'pr891'));
      }
    }
    for (const object of seedChannels) {
      this.applySeedObject(object);
    }
    // On the real stack the operator's channels are the stack's: a channel synced before is not synced again at start.
    if (!this.remote) {
      await this.operator.syncAll();
    }
    for (const object of this.config.fixtures.seed.filter((o) => o.kind !== 'ManagedOSVersionChannel')) {
      this.applySeedObject(object);
    }
    this.fleet.seedNodes();
    for (const image of this.api.list(this.types.require('elemental.cattle.io.managedosimage')).items) {
      if (!asObject(image.status).conditions) {
        await this.settlePool(image.metadata.namespace ?? '', image.metadata.name);
      }
    }
  }

  /** A seeded pool starts rolled out: the operator's reconcile, Fleet and SUC done at once, its nodes on its image. */
  private async settlePool(namespace: string, name: string): Promise<void> {
    if (await this.imageOperator.reconcile(namespace, name) !== undefined) {
      return;
    }
    const bundle = this.api.list(this.types.require('fleet.cattle.io.bundle'), { namespace }).items
      .find((b) => (b.metadata.ownerReferences ?? []).some((o) => o.kind === 'ManagedOSImage' && o.name === name));

    if (bundle) {
      this.fleet.settle(namespace, bundle.metadata.name);
      await this.imageOperator.reconcile(namespace, name);
    }
    const pin = asString(asObject(this.api.find(this.types.require('elemental.cattle.io.managedosimage'), namespace, name)?.spec).managedOSVersionName);

    if (pin) {
      await this.versionFinalizer.reconcile(namespace, pin);
    }
  }

  async start(): Promise<void> {
    await this.seed();
    await this.remote?.start();
    this.operator.start();
    this.imageOperator.start();
    this.versionFinalizer.start();
    this.fleet.start();
    this.downstream.start();
    this.downstream.syncAll();
    this.changelogs.start();
  }

  stop(): void {
    this.remote?.stop();
    this.operator.stop();
    this.imageOperator.stop();
    this.versionFinalizer.stop();
    this.fleet.stop();
    this.downstream.stop();
    this.changelogs.stop();
  }

  /** Back to the seed: every object is removed (watchers see the removals) and seeded again. Sessions stay. */
  async reset(): Promise<void> {
    this.changelogs.options = {
      ...this.changelogs.options, mode: this.config.changelogMode ?? 'operator', podStartMs: this.config.changelogPodStartMs ?? DEFAULT_POD_START_MS
    };
    this.changelogs.cleanupScale = 1;
    this.elemental = this.config.elemental ?? { installed: true, version: DEFAULT_OPERATOR_VERSION };
    this.applyElemental();
    await this.reseed();
  }

  private async reseed(): Promise<void> {
    this.stop();
    for (const typeId of this.store.typeIds()) {
      for (const object of this.store.list(typeId)) {
        this.store.delete(typeId, object.metadata.namespace, object.metadata.name);
      }
    }
    this.files.reset();
    this.faults.clear();
    this.suc.clear();
    this.nodes.clear();
    this.preferences.clear();
    this.changelogs.applyMode();
    await this.start();
    this.downstream.reset();
  }

  /** A seed object by its apiVersion and kind; its status (if any) is written through the status subresource. */
  applySeedObject(object: JsonObject): void {
    const apiVersion = asString(object.apiVersion) ?? '';
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const type = this.types.all().find((t) => t.group === group && t.kind === object.kind && (!version || t.version === version));

    if (!type) {
      throw new Error(`seed object of unknown type ${ apiVersion } ${ String(object.kind) }`);
    }
    const { status, ...rest } = clone(object);

    this.createSeedObject(type, rest, status === undefined ? undefined : asObject(status));
  }

  private createSeedObject(type: ResourceType, object: JsonObject, status?: JsonObject): void {
    const namespace = type.namespaced ? asString(asObject(object.metadata).namespace) ?? 'fleet-default' : undefined;
    const created = this.api.create(type, namespace, object, SYSTEM_ACTOR);

    if (status !== undefined) {
      if (type.statusSubresource) {
        this.api.update(type, namespace, created.metadata.name, { ...created, status }, SYSTEM_ACTOR, 'status');
      } else {
        this.api.update(type, namespace, created.metadata.name, { ...created, ...status }, SYSTEM_ACTOR);
      }
    }
  }
}
