// Test-only control endpoints: no real system has them (a real Rancher, rancher/rancher pkg/ui/routes.go, answers 404 there; see --no-control).
// Control endpoints for tests, under /__emulator/ (documented in docs/emulator.md). They need no
// login: only tests and developers talk to them.

import { Emulator } from './emulator';
import { FaultSpec } from './faults';
import { applyFailures } from '../fleet/fleet-partitions';
import { parseElementalInstall } from '../operator/elemental-install';
import {
  RequestContext, jsonBody, sendJson, sendNotFound, sendText
} from './http';
import { asObject, asString } from './json';
import { CHANNEL_FILE_PATH } from '../operator/operator';
import { channelObject } from '../rancher/seed';
import { SYSTEM_ACTOR } from '../rancher/users';
import { WatchHub } from '../steve/watch';

export const CONTROL_PREFIX = '/__emulator';

export class ControlApi {
  constructor(private readonly emulator: Emulator, private readonly hub: WatchHub) {}

  async handle(ctx: RequestContext): Promise<void> {
    try {
      await this.route(ctx);
    } catch (e) {
      sendJson(ctx, 400, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async route(ctx: RequestContext): Promise<void> {
    const em = this.emulator;
    const path = ctx.path.slice(CONTROL_PREFIX.length) || '/';
    const method = ctx.method;
    let match: RegExpExecArray | null;

    if (ctx.path.startsWith(CHANNEL_FILE_PATH) && method === 'GET') {
      const name = decodeURIComponent(ctx.path.slice(CHANNEL_FILE_PATH.length).replace(/\.json$/, ''));
      const text = em.files.channelFile(name);

      return text === undefined ? sendNotFound(ctx) : sendText(ctx, 200, text, 'application/json');
    }
    if (path === '/' || path === '/health') {
      return sendJson(ctx, 200, {
        ok: true, revision: em.store.revision, sessions: em.sessions.count(), websockets: this.hub.count()
      });
    }
    if (path === '/state' && method === 'GET') {
      const type = ctx.url.searchParams.get('type');
      const objects = em.store.dump();

      return sendJson(ctx, 200, {
        revision:   em.store.revision,
        objects:    type ? { [type]: objects[type] ?? [] } : objects,
        faults:     em.faults.list(),
        sessions:   em.sessions.count(),
        websockets: this.hub.count(),
      });
    }
    if (path === '/reset' && method === 'POST') {
      await em.reset();

      return sendJson(ctx, 200, { ok: true, revision: em.store.revision });
    }
    if ((match = /^\/channels\/([^/]+)$/.exec(path)) && (method === 'PUT' || method === 'POST')) {
      return this.publishChannel(ctx, decodeURIComponent(match[1]));
    }
    if ((match = /^\/channels\/([^/]+)\/sync$/.exec(path)) && method === 'POST') {
      const namespace = ctx.url.searchParams.get('namespace') ?? 'fleet-default';
      const result = await em.operator.sync(namespace, decodeURIComponent(match[1]));

      return result ? sendJson(ctx, 200, result) : sendJson(ctx, 404, { error: `no channel ${ namespace }/${ match[1] }` });
    }
    if ((match = /^\/(changelogs|packages)\/([^/]+)$/.exec(path)) && (method === 'PUT' || method === 'POST')) {
      em.files.setFile(match[1] === 'changelogs' ? 'changelog' : 'packages', decodeURIComponent(match[2]), ctx.body?.toString('utf8') ?? '');

      return sendJson(ctx, 200, { ok: true });
    }
    if (path === '/elemental' && (method === 'PUT' || method === 'POST')) {
      await em.setElemental(parseElementalInstall(asString(asObject(jsonBody(ctx)).version)));

      return sendJson(ctx, 200, em.elemental);
    }
    if (path === '/changelog-service' && (method === 'PUT' || method === 'POST')) {
      const body = asObject(jsonBody(ctx));
      const mode = asString(body.mode);

      if (mode !== 'operator' && mode !== 'pr891' && mode !== 'none') {
        return sendJson(ctx, 400, { error: 'mode must be operator, pr891 or none' });
      }
      await em.setChangelogMode(mode, typeof body.podStartMs === 'number' ? body.podStartMs : undefined, typeof body.cleanupScale === 'number' ? body.cleanupScale : 1);

      return sendJson(ctx, 200, { ok: true, mode });
    }
    if (path === '/faults') {
      if (method === 'GET') {
        return sendJson(ctx, 200, em.faults.list());
      }
      if (method === 'POST') {
        return sendJson(ctx, 201, em.faults.add(asObject(jsonBody(ctx)) as unknown as FaultSpec));
      }
      if (method === 'DELETE') {
        em.faults.clear();

        return sendJson(ctx, 200, { ok: true });
      }
    }
    if ((match = /^\/faults\/(\d+)$/.exec(path)) && method === 'DELETE') {
      return sendJson(ctx, 200, { removed: em.faults.remove(Number(match[1])) });
    }
    if (path === '/nodes' && method === 'GET') {
      return sendJson(ctx, 200, em.nodes.report());
    }
    if ((path === '/nodes/fail' || path === '/nodes/boot') && method === 'POST') {
      return this.changeNode(ctx, path === '/nodes/fail');
    }
    if (path === '/suc/settings' && method === 'POST') {
      // The system-upgrade-controller's SYSTEM_UPGRADE_JOB_TTL_SECONDS_AFTER_FINISH and
      // SYSTEM_UPGRADE_JOB_ACTIVE_DEADLINE_SECONDS (pkg/upgrade/job/job.go); a reset restores 900 and 600.
      const body = asObject(jsonBody(ctx));
      const seconds = (value: unknown, fallback: number) => (typeof value === 'number' && value >= 0 ? value : fallback);

      em.suc.times = { ttlSeconds: seconds(body.jobTtlSeconds, em.suc.times.ttlSeconds), deadlineSeconds: seconds(body.jobDeadlineSeconds, em.suc.times.deadlineSeconds) };

      return sendJson(ctx, 200, em.suc.times);
    }
    if (path === '/clusters/connection' && method === 'POST') {
      const body = asObject(jsonBody(ctx));
      const cluster = asString(body.cluster) ?? '';
      const id = em.downstream.setConnected(cluster, body.connected !== false);

      return id ? sendJson(ctx, 200, {
        cluster, id, connected: body.connected !== false
      }) : sendJson(ctx, 404, { error: `no cluster ${ cluster }` });
    }
    if (path === '/fleet/apply-failure' && method === 'POST') {
      // A Fleet agent that cannot apply the bundle on one cluster (fleet-partitions.ts): its partition halts the rollout.
      const body = asObject(jsonBody(ctx));
      const cluster = `${ asString(body.namespace) ?? 'fleet-default' }/${ asString(body.cluster) ?? '' }`;

      if (body.fails === false) {
        applyFailures.delete(cluster);
      } else {
        applyFailures.set(cluster, asString(body.message) || 'error while running post render on files: the agent could not apply the bundle');
      }

      return sendJson(ctx, 200, { cluster, fails: applyFailures.has(cluster) });
    }
    if (path === '/websockets/drop' && method === 'POST') {
      return sendJson(ctx, 200, { dropped: this.hub.dropAll() + em.downstream.dropWebsockets() });
    }
    if (path === '/sessions/expire' && method === 'POST') {
      return sendJson(ctx, 200, { expired: em.sessions.expire(ctx.url.searchParams.get('user') ?? undefined) });
    }

    return sendJson(ctx, 404, { error: `no control endpoint ${ method } ${ ctx.path }` });
  }

  /**
   * `fail`: the node's next upgrade job fails with `message` (a job already past its script
   * step is not affected), `times` jobs in a row (0: every one); with `reason: DeadlineExceeded`
   * the next job hangs, printing `message`, until its active deadline. `boot`: the node boots in
   * active (`active: true`) or passive mode (reported only: suc-upgrade stopped checking it in
   * rancher/elemental 93c22785).
   */
  private changeNode(ctx: RequestContext, fail: boolean): void {
    const body = asObject(jsonBody(ctx));
    const cluster = asString(body.cluster) ?? '';
    const name = asString(body.node) ?? '';
    const node = this.emulator.nodes.find(cluster, name);

    if (!node) {
      return sendJson(ctx, 404, { error: `no node ${ name } in cluster ${ cluster }` });
    }
    if (fail && body.reason === 'DeadlineExceeded') {
      node.hangNext = asString(body.message) || 'elemental upgrade: still pulling the image';
    } else if (fail) {
      node.failNext = asString(body.message) || 'upgrade job failed';
      // `times`: how many jobs in a row fail (0: every job, so the node cycles failed → upgrading → failed).
      node.failTimes = body.times === 0 ? Infinity : typeof body.times === 'number' && body.times > 0 ? body.times : 1;
    } else {
      node.active = body.active !== false;
    }

    return sendJson(ctx, 200, this.emulator.nodes.report().find((n) => n.cluster === node.cluster && n.node === node.name));
  }

  /** Replaces a channel's file (creating the channel if needed) and syncs it now. */
  private async publishChannel(ctx: RequestContext, name: string): Promise<void> {
    const em = this.emulator;
    const namespace = ctx.url.searchParams.get('namespace') ?? 'fleet-default';
    const text = ctx.body?.toString('utf8') ?? '';
    const channelType = em.types.require('elemental.cattle.io.managedosversionchannel');

    em.files.publishChannel(name, text);
    if (!em.api.find(channelType, namespace, name)) {
      const object = channelObject(name, em.config.origin);

      object.metadata = { ...asObject(object.metadata), namespace };
      em.api.create(channelType, namespace, object, SYSTEM_ACTOR);
    }
    if (ctx.url.searchParams.get('sync') === 'false') {
      return sendJson(ctx, 200, { ok: true });
    }
    const result = await em.operator.sync(namespace, name);
    const channel = em.api.find(channelType, namespace, name);

    return sendJson(ctx, 200, {
      ...result, status: asObject(channel?.status), resourceVersion: asString(channel?.metadata.resourceVersion)
    });
  }
}
