// A small client for the emulator's control endpoints (/__emulator/…, see docs/emulator.md).
// Exported names are used by other specs: keep them stable.

import { APIRequestContext, request as playwrightRequest, test } from '@playwright/test';
import type { FaultSpec } from '../../emulator/core/faults';
import type { SyncResult } from '../../emulator/operator/operator';
import { onEmulator } from './env';
import { onceMoreAfterReset } from './api';

// The control endpoints' types are the emulator's own (tests/emulator/core/faults.ts, operator/operator.ts).
export type { FaultSpec, SyncResult };

/** What publishing a channel answers (tests/emulator/core/control.ts): the sync, and the channel's status after it. */
export type PublishResult = SyncResult & { status?: Record<string, unknown>; resourceVersion?: string };

/** A channel file entry (see tests/fixtures/elemental/channels/*.json). */
export interface ChannelEntry {
  metadata: { name: string };
  spec: {
    version: string;
    type: 'container' | 'iso';
    metadata: Record<string, unknown>;
  };
}

/** The tag of a test that needs the emulator's control endpoints: scripts/test runs those on the emulator. */
export const EMULATOR_TAG = '@emulator';

/**
 * Skips the calling test unless the specs run against the emulator, saying which control it needs
 * (`why`, e.g. "fault injection": the real Rancher mode's summary counts skips by it). The test must
 * carry EMULATOR_TAG (`test('…', { tag: EMULATOR_TAG }, …)` or on its describe), which is how the
 * test command finds the tests to run with the control endpoints.
 */
export function requireEmulator(why = 'the emulator\'s control endpoints'): void {
  if (!test.info().tags.includes(EMULATOR_TAG)) {
    throw new Error(`"${ test.info().title }" needs ${ why }: tag it ${ EMULATOR_TAG }`);
  }
  test.skip(!onEmulator(), `needs ${ why }`);
}

export interface NodeReport {
  cluster: string;
  node: string;
  image: string;
  tag: string;
  active: boolean;
  state: 'idle' | 'cordoned' | 'draining' | 'upgrading' | 'rebooting' | 'failed';
  /** The Node's spec.unschedulable: set by a cordoning Job, cleared only when such a Job completes there. */
  unschedulable: boolean;
  message: string;
  /** Why the node's kubelet does not start since its last boot (GET /__emulator/nodes), unset while it runs. */
  kubeletStopped?: string;
}

export class EmulatorControl {
  private constructor(private readonly api: APIRequestContext) {}

  static async connect(baseURL?: string): Promise<EmulatorControl> {
    const port = process.env.E2E_EMULATOR_PORT || '8990';

    return new EmulatorControl(await playwrightRequest.newContext({ baseURL: baseURL || `http://localhost:${ port }` }));
  }

  async dispose(): Promise<void> {
    await this.api.dispose();
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: string | object): Promise<T> {
    const response = await onceMoreAfterReset(() => this.api.fetch(`/__emulator${ path }`, {
      method,
      data,
      headers: typeof data === 'string' ? { 'content-type': 'text/plain' } : undefined,
    }));
    const text = await response.text();

    if (!response.ok()) {
      throw new Error(`${ method } /__emulator${ path } answered ${ response.status() }: ${ text }`);
    }

    return (text ? JSON.parse(text) : {}) as T;
  }

  /** Back to the seed (objects, files, faults, preferences); sessions stay valid. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  /** Installs another Elemental operator, `none` for a Rancher without it, and seeds again (a reset goes back to the start option). */
  async setElemental(version: string): Promise<void> {
    await this.call('PUT', '/elemental', { version });
  }

  /** Replaces a channel's file (creating the channel if needed) and syncs it; returns what the operator did. */
  async publishChannel(name: string, entries: ChannelEntry[] | string, namespace = 'fleet-default'): Promise<PublishResult> {
    const body = typeof entries === 'string' ? entries : JSON.stringify(entries);

    return this.call('PUT', `/channels/${ encodeURIComponent(name) }?namespace=${ encodeURIComponent(namespace) }`, body);
  }

  async syncChannel(name: string, namespace = 'fleet-default'): Promise<SyncResult> {
    return this.call('POST', `/channels/${ encodeURIComponent(name) }/sync?namespace=${ encodeURIComponent(namespace) }`);
  }

  /** Serves `text` as the update log (or package list) of a version. */
  async setChangelog(versionName: string, text: string): Promise<void> {
    await this.call('PUT', `/changelogs/${ encodeURIComponent(versionName) }`, text);
  }

  async setPackages(versionName: string, text: string): Promise<void> {
    await this.call('PUT', `/packages/${ encodeURIComponent(versionName) }`, text);
  }

  /**
   * What /elemental/changelog is: today's operator (`operator`, 400 "unknwon api") or the
   * ManagedOSChangelog protocol of elemental-operator PR #891 (`pr891`). Seeds again; a reset
   * goes back to the emulator's start option.
   */
  async setChangelogService(mode: 'operator' | 'pr891' | 'none', podStartMs?: number): Promise<void> {
    await this.call('PUT', '/changelog-service', { mode, podStartMs });
  }

  async addFault(fault: FaultSpec): Promise<{ id: number }> {
    return this.call('POST', '/faults', fault);
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/faults');
  }

  /** Drops every subscribe websocket without a close handshake; returns how many. */
  async dropWebsockets(): Promise<number> {
    return (await this.call<{ dropped: number }>('POST', '/websockets/drop')).dropped;
  }

  /** Expires every session (or one user's): the next API call with it answers 401. */
  async expireSessions(username?: string): Promise<number> {
    return (await this.call<{ expired: number }>('POST', `/sessions/expire${ username ? `?user=${ encodeURIComponent(username) }` : '' }`)).expired;
  }

  /** Every emulated node: what it runs (IMAGE_REPO, IMAGE_TAG), its boot mode and job state. */
  async nodes(): Promise<NodeReport[]> {
    return this.call('GET', '/nodes');
  }

  /** The node's next upgrade job fails with `message`; `times` jobs in a row (0: every job). */
  async failNode(cluster: string, node: string, message: string, times = 1): Promise<void> {
    await this.call('POST', '/nodes/fail', {
      cluster, node, message, times
    });
  }

  /** The system-upgrade-controller's Job TTL and deadline in seconds (before the emulator's time scale). */
  async setJobTimes(times: { jobTtlSeconds?: number; jobDeadlineSeconds?: number }): Promise<void> {
    await this.call('POST', '/suc/settings', times);
  }

  /** Disconnects (false) or reconnects (true) a Fleet cluster's agent: its /k8s/clusters/<id> answers 500. */
  async setClusterConnected(cluster: string, connected: boolean): Promise<void> {
    await this.call('POST', '/clusters/connection', { cluster, connected });
  }

  /** A Fleet cluster's agent fails to apply bundles (true) or applies them again (false): its rollout stage halts. */
  async setApplyFailure(cluster: string, fails: boolean, message?: string, namespace = 'fleet-default'): Promise<void> {
    await this.call('POST', '/fleet/apply-failure', {
      cluster, namespace, fails, message
    });
  }

  /** The stored objects (of one Steve type, or all), for assertions. */
  async objects(type: string): Promise<Record<string, unknown>[]> {
    const state = await this.call<{ objects: Record<string, Record<string, unknown>[]> }>('GET', `/state?type=${ encodeURIComponent(type) }`);

    return state.objects[type] ?? [];
  }

  /** The stored object of a Steve type named `name` (the first in any namespace), or undefined. */
  async object(type: string, name: string): Promise<Record<string, unknown> | undefined> {
    return (await this.objects(type)).find((object) => (object.metadata as { name?: string } | undefined)?.name === name);
  }
}

/**
 * For a spec file whose tests each start from the emulator's seed: connects once, resets before
 * every test (skipping it away from the emulator), disconnects at the end. Call it before the
 * spec's own hooks, so a login happens after the reset.
 */
export function useEmulator(why?: string): { readonly control: EmulatorControl } {
  const handle = {} as { control: EmulatorControl };

  test.beforeAll(async() => {
    handle.control = await EmulatorControl.connect();
  });
  test.afterAll(async() => {
    await handle.control?.dispose();
  });
  test.beforeEach(async() => {
    requireEmulator(why);
    await handle.control.reset();
  });
  // A fault left by a test would answer the next spec's requests, which may not reset the emulator.
  test.afterEach(async() => {
    if (onEmulator()) {
      await handle.control?.clearFaults();
    }
  });

  return handle;
}
