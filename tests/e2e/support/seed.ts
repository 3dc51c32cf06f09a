// What a spec needs, created through the APIs every Rancher has (Steve's /v1 as the admin, in its
// own session) under names unique to the run, and deleted after each test, also when it fails
// (issue 32). Specs that seed this way run on a real Rancher too; the emulator's control endpoints
// (support/emulator.ts) stay for what no real Rancher can do, in tests tagged @emulator.
//
// Channels are of type `json`: their file and changelogs are put on the specs' file host
// (file-server.ts, started by global-setup.ts) and the Elemental operator syncs them as it syncs any
// channel (rancher/elemental-operator controllers/managedosversionchannel_controller.go: a new
// channel, or a new generation of its spec, is synced at once). Version names get the channel's
// run-unique tag as a suffix, so two runs (or two tests) never share a ManagedOSVersion.

import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'fs';
import { join } from 'path';
import { APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test';
import { records, requestApi, SessionApi, steveUrl } from './api';
import { ChannelEntry } from './emulator';
import { TEST_NAMESPACE } from './env';
import { loginWith } from './login';
import { CHANNEL_TYPE, POOL_TYPE, VERSION_TYPE } from './names';
import { nodeLabelProblems } from '../../../pkg/os-upgrades/domain/node-labels';

const FIXTURES = join(__dirname, '../../fixtures');
const CHANNEL_LABEL = 'elemental.cattle.io/channel';
const CHANGELOG_URL_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';
const SETTING_TYPE = 'management.cattle.io.setting';
const ORIGINS_SETTING = 'os-upgrades-changelog-origins';
const SYNC_TIMEOUT_MS = 90_000;

/** This worker's part of every name it creates (E2E_RUN_ID to choose it). */
export const RUN_ID = (process.env.E2E_RUN_ID || Math.random().toString(36).slice(2, 7)).toLowerCase();
let counter = 0;

/** `base` with a suffix unique to this run and test, e.g. `e2e-pool-k3x9a4` (a valid object name). */
export function uniqueName(base: string): string {
  counter += 1;

  return `${ base.slice(0, 40).replace(/-+$/, '') }-${ RUN_ID }${ counter }`;
}

/** The entries of a fixture channel file (tests/fixtures/<elemental|synthetic>/channels/<name>.json). */
export function fixtureEntries(fixture: string): ChannelEntry[] {
  const file = ['elemental', 'synthetic'].map((dir) => join(FIXTURES, dir, 'channels', `${ fixture }.json`)).find(existsSync);

  if (!file) {
    throw new Error(`no fixture channel ${ fixture }`);
  }

  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The entries of a fixture channel whose images a host can boot and rejoin: a host booting an image
 * whose populated node label is over 63 characters never rejoins (domain rule "Node labels of an
 * image"; the base fixture's 2.2.0-3.12), so a spec that rolls nodes out publishes only these.
 */
export function rollableEntries(fixture: string): ChannelEntry[] {
  return fixtureEntries(fixture).filter((entry) => !nodeLabelProblems(String(entry.spec.metadata?.upgradeImage ?? '')).length);
}

/** A fixture's changelog file of a version (`updates.log` or `packages`), if it has one. */
export function fixtureFile(version: string, kind: 'updates.log' | 'packages'): string | undefined {
  const folder = kind === 'updates.log' ? 'changelogs' : 'packages';
  const file = ['synthetic', 'elemental'].map((dir) => join(FIXTURES, dir, folder, `${ version }.${ kind }`)).find(existsSync);

  return file ? readFileSync(file, 'utf8') : undefined;
}

function filesDir(): string {
  const dir = process.env.E2E_FILES_DIR;

  if (!dir) {
    throw new Error('E2E_FILES_DIR is not set: the specs\' file host starts in tests/e2e/support/global-setup.ts');
  }

  return dir;
}

/** The browser's address of the file host, and the operator's (E2E_FILES_CLUSTER_URL where it differs). */
export function filesUrl(forCluster = false): string {
  const url = (forCluster && process.env.E2E_FILES_CLUSTER_URL) || process.env.E2E_FILES_URL;

  if (!url) {
    throw new Error('E2E_FILES_URL is not set: the specs\' file host starts in tests/e2e/support/global-setup.ts');
  }

  return url.replace(/\/$/, '');
}

export interface ChannelOptions {
  /** A fixture channel file whose entries are published (default: `entries`). */
  fixture?: string;
  entries?: ChannelEntry[];
  /** The channel's name before its unique suffix (default: the fixture's, or `e2e-channel`). */
  name?: string;
  /** Extra channel annotations (e.g. os-upgrades.cattle.io/withdrawn). */
  annotations?: Record<string, string>;
  /** Changelog and package files by the entry's fixture name, on top of the fixtures' own. */
  files?: Record<string, { log?: string; packages?: string }>;
  namespace?: string;
}

/** A channel a spec published: its name, and its versions' names by their fixture names. */
export class SeededChannel {
  private revision = 0;

  constructor(readonly name: string, readonly namespace: string, readonly tag: string) {}

  /** The ManagedOSVersion published for the fixture entry `fixtureName`. */
  version(fixtureName: string): string {
    return `${ fixtureName }-${ this.tag }`;
  }

  /** The channel's file on the file host, and the URI the operator is given (a new one per publish). */
  get folder(): string {
    return join(filesDir(), this.name);
  }

  nextUri(): string {
    this.revision += 1;

    return `${ filesUrl(true) }/${ this.name }/channel.json?rev=${ this.revision }`;
  }
}

interface Created {
  type: string;
  namespace?: string;
  name: string;
}

export class Seed {
  private readonly created: Created[] = [];
  private readonly restores: (() => Promise<void>)[] = [];
  private session?: { api: SessionApi; context: APIRequestContext };

  /** Opens a session of the admin's own (never the page's) for one test. */
  async begin(baseURL: string): Promise<void> {
    const context = await playwrightRequest.newContext({ baseURL, ignoreHTTPSErrors: true });
    const api = requestApi(context);

    await loginWith(api, 'admin');
    this.session = { api, context };
  }

  /** The admin's API session of the running test. */
  get api(): SessionApi {
    if (!this.session) {
      throw new Error('the seed is used outside a test (call useSeed() at the top of the spec)');
    }

    return this.session.api;
  }

  /** Creates `object` of the Steve type and deletes it after the test. */
  async create(type: string, object: Record<string, unknown>): Promise<Record<string, unknown>> {
    const metadata = object.metadata as { name: string; namespace?: string };
    const answer = await this.api.post(steveUrl(type, metadata.namespace), { type, ...object });

    expect(answer.status, `create ${ type } ${ metadata.name }: ${ JSON.stringify(answer.body) }`).toBe(201);
    this.track(type, metadata.name, metadata.namespace);

    return answer.body;
  }

  // `namespace` below: '' for a cluster-scoped object (a setting); an explicit undefined would mean TEST_NAMESPACE.

  /** Deletes the object after the test (one a spec created through the page, say). */
  track(type: string, name: string, namespace = TEST_NAMESPACE): void {
    this.created.push({
      type, namespace, name
    });
  }

  /** The stored object, or undefined (404). */
  async get(type: string, name: string, namespace = TEST_NAMESPACE): Promise<Record<string, unknown> | undefined> {
    const answer = await this.api.get(steveUrl(type, namespace, name));

    if (answer.status === 404) {
      return undefined;
    }
    expect(answer.status, `read ${ type } ${ name }`).toBe(200);

    return answer.body;
  }

  /** The stored objects of a type (in a namespace), with Steve's query (e.g. `labelSelector=…`). */
  async list(type: string, namespace?: string, query = ''): Promise<Record<string, unknown>[]> {
    const answer = await this.api.get(`${ steveUrl(type, namespace) }${ query ? `?${ query }` : '' }`);

    expect(answer.status, `list ${ type }`).toBe(200);

    return records(answer.body.data);
  }

  /**
   * Reads the object, lets `change` edit it and writes it back, again after a 409 (at most three
   * times: right after a pool is created the operator's controllers write it twice in a row).
   */
  async update(type: string, name: string, change: (object: Record<string, unknown>) => void, namespace = TEST_NAMESPACE): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const object = await this.get(type, name, namespace);

      expect(object, `${ type } ${ name } is stored`).toBeTruthy();
      change(object as Record<string, unknown>);
      const answer = await this.api.put(steveUrl(type, namespace, name), object as Record<string, unknown>);

      if (answer.status !== 409 || attempt >= 2) {
        expect(answer.status, `update ${ type } ${ name }: ${ JSON.stringify(answer.body) }`).toBe(200);

        return answer.body;
      }
    }
  }

  /** The Fleet clusters of the namespace the specs write in, by name. */
  async clusters(namespace = TEST_NAMESPACE): Promise<string[]> {
    return (await this.list('fleet.cattle.io.cluster', namespace)).map((c) => (c.metadata as { name: string }).name).sort();
  }

  /**
   * Publishes a channel of type json on the file host (its entries renamed with the channel's tag,
   * the fixtures' changelogs and package lists beside them) and waits until the operator synced
   * every version.
   */
  async channel(options: ChannelOptions): Promise<SeededChannel> {
    const namespace = options.namespace ?? TEST_NAMESPACE;
    const name = uniqueName(options.name ?? options.fixture ?? 'e2e-channel');
    const channel = new SeededChannel(name, namespace, name.slice(name.lastIndexOf('-') + 1));
    const entries = options.entries ?? fixtureEntries(options.fixture ?? '');

    await this.allowOrigin(new URL(filesUrl()).origin);
    this.writeChannelFile(channel, entries, options.files);
    await this.create(CHANNEL_TYPE, {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersionChannel',
      metadata:   {
        name,
        namespace,
        annotations: { [CHANGELOG_URL_ANNOTATION]: `${ filesUrl() }/${ name }/{name}.updates.log`, ...options.annotations },
      },
      spec: {
        type: 'json', enabled: true, syncInterval: '1h', options: { uri: channel.nextUri() }
      },
    });
    await this.waitForVersions(channel, entries.map((e) => channel.version(e.metadata.name)));

    return channel;
  }

  /** Publishes new entries (by fixture name) on a seeded channel and waits for the operator's sync. */
  async publish(channel: SeededChannel, entries: ChannelEntry[], files?: ChannelOptions['files']): Promise<void> {
    this.writeChannelFile(channel, entries, files);
    await this.resync(channel);
    await this.waitForVersions(channel, entries.map((e) => channel.version(e.metadata.name)));
  }

  /** Replaces the channel's file with `text` as it is (a broken one, say) and has the operator sync it; does not wait. */
  async publishText(channel: SeededChannel, text: string): Promise<void> {
    writeFileSync(join(channel.folder, 'channel.json'), text);
    await this.resync(channel);
  }

  /** A new URI is a new generation of the channel's spec: the operator syncs it at once. */
  private async resync(channel: SeededChannel): Promise<void> {
    await this.update(CHANNEL_TYPE, channel.name, (object) => {
      ((object.spec as Record<string, unknown>).options as Record<string, unknown>).uri = channel.nextUri();
    }, channel.namespace);
  }

  /** The channel's ManagedOSVersions as stored. */
  async versions(channel: SeededChannel): Promise<Record<string, unknown>[]> {
    return this.list(VERSION_TYPE, channel.namespace, `labelSelector=${ encodeURIComponent(`${ CHANNEL_LABEL }=${ channel.name }`) }`);
  }

  /** Creates a pool (ManagedOSImage) `name` (made unique) with `spec`; returns its name. */
  async pool(name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}, namespace = TEST_NAMESPACE): Promise<string> {
    const unique = uniqueName(name);

    await this.create(POOL_TYPE, {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   {
        name: unique, namespace, annotations
      },
      spec,
    });

    return unique;
  }

  /** Deletes what the test created, newest first; then restores the origins setting and ends the session. */
  async cleanup(): Promise<void> {
    const problems: string[] = [];

    if (!this.session) {
      return;
    }
    for (const { type, namespace, name } of this.created.reverse()) {
      const answer = await this.api.delete(steveUrl(type, namespace, name)).catch((e: Error) => ({ status: 0, body: { message: e.message } }));

      if (answer.status >= 300 && answer.status !== 404) {
        problems.push(`${ type } ${ name }: ${ answer.status }`);
      }
    }
    this.created.length = 0;
    for (const restore of this.restores.splice(0).reverse()) {
      await restore().catch((e: Error) => problems.push(`restore: ${ e.message }`));
    }
    await this.session?.context.dispose();
    this.session = undefined;
    if (problems.length) {
      throw new Error(`cleanup could not delete ${ problems.join(', ') }`);
    }
  }

  private writeChannelFile(channel: SeededChannel, entries: ChannelEntry[], files: ChannelOptions['files'] = {}): void {
    mkdirSync(channel.folder, { recursive: true });
    for (const entry of entries) {
      const original = entry.metadata.name;
      const log = files[original]?.log ?? fixtureFile(original, 'updates.log');
      const packages = files[original]?.packages ?? fixtureFile(original, 'packages');

      if (log !== undefined) {
        writeFileSync(join(channel.folder, `${ channel.version(original) }.updates.log`), log);
      }
      if (packages !== undefined) {
        writeFileSync(join(channel.folder, `${ channel.version(original) }.packages`), packages);
      }
    }
    const renamed = entries.map((entry) => ({ ...entry, metadata: { ...entry.metadata, name: channel.version(entry.metadata.name) } }));

    writeFileSync(join(channel.folder, 'channel.json'), JSON.stringify(renamed));
  }

  private async waitForVersions(channel: SeededChannel, names: string[]): Promise<void> {
    await expect.poll(async() => {
      const stored = new Set((await this.versions(channel)).map((v) => (v.metadata as { name: string }).name));

      return names.filter((name) => !stored.has(name));
    }, {
      message: `the operator synced channel ${ channel.name }`, timeout: SYNC_TIMEOUT_MS, intervals: [250, 500, 1000]
    }).toEqual([]);
  }

  /**
   * The page fetches changelogs from another host only when an administrator allowed its origin
   * (setting os-upgrades-changelog-origins, api/changelog-url.ts): `origin` is added for the test
   * and taken out again after it (the setting deleted if the test created it), leaving whatever
   * else the test or anyone changed in the setting.
   */
  async allowOrigin(origin: string): Promise<void> {
    const before = await readOriginsSetting(this);

    if (splitOrigins(before).includes(origin)) {
      return;
    }
    await writeOriginsSetting(this, [...splitOrigins(before), origin].join(','));
    this.restores.push(async() => {
      const now = splitOrigins(await readOriginsSetting(this)).filter((o) => o !== origin);

      if (before === undefined && !now.length) {
        await this.api.delete(steveUrl(SETTING_TYPE, undefined, ORIGINS_SETTING));
      } else {
        await writeOriginsSetting(this, now.join(','));
      }
    });
  }
}

// The setting is cluster-scoped: Seed.get/update default to the test namespace, so these address it directly.
/** The allowed changelog origins as stored (the setting's value), undefined when there is no setting. */
export async function readOriginsSetting(seed: Seed): Promise<string | undefined> {
  const answer = await seed.api.get(steveUrl(SETTING_TYPE, undefined, ORIGINS_SETTING));

  expect([200, 404], `read setting ${ ORIGINS_SETTING }`).toContain(answer.status);

  return answer.status === 200 ? String(answer.body.value ?? '') : undefined;
}

/** Stores the allowed changelog origins (creating the setting if needed). */
export async function writeOriginsSetting(seed: Seed, value: string): Promise<void> {
  const url = steveUrl(SETTING_TYPE, undefined, ORIGINS_SETTING);
  const current = await seed.api.get(url);
  const answer = current.status === 404 ? await seed.api.post(steveUrl(SETTING_TYPE), {
    type: SETTING_TYPE, metadata: { name: ORIGINS_SETTING }, value
  }) : await seed.api.put(url, { ...current.body, value });

  expect(answer.status, `write setting ${ ORIGINS_SETTING }: ${ JSON.stringify(answer.body) }`).toBeLessThan(300);
}

function splitOrigins(value: string | undefined): string[] {
  return (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);
}

/**
 * For a spec whose tests create what they need: `const seed = useSeed()` at its top; the seed's
 * admin session opens before each test, and everything it created is deleted after it, whether the
 * test passed or not.
 */
export function useSeed(): Seed {
  const seed = new Seed();

  test.beforeEach(async({ baseURL }) => {
    await seed.begin(String(baseURL));
  });
  test.afterEach(async() => {
    await seed.cleanup();
  });

  return seed;
}
