// The routes `--backend real-stack` takes from the emulator (server.ts asks here first): Steve types
// the real stack serves, /api and /apis of its groups, the local cluster's proxy
// /k8s/clusters/local (rancher/rancher pkg/api/steve/proxy/proxy.go RewriteLocalCluster: the same
// API as the management cluster's), any stand-in downstream cluster's proxy (`REAL_STACK_DOWNSTREAM`,
// the cluster ids whose /k8s/clusters/<id> is this same stack), and the split /v1/subscribe.

import { IncomingMessage } from 'http';
import { Duplex } from 'stream';
import { ApiError } from '../kube/errors';
import { RequestContext, sendJson } from '../core/http';
import { checkCsrf } from '../rancher/sessions';
import { User, userActor } from '../rancher/users';
import { WatchHub } from '../steve/watch';
import { RealStackProxy, capture, impersonation, linkHeaders } from './proxy';
import { isRealKubePath, isRealSteveType, steveRoute } from './routing';
import { splitSubscription } from './subscribe-split';

const CLUSTER_PATH = /^\/k8s\/clusters\/([^/]+)(\/.*)?$/;

/**
 * Who a user is in a stand-in downstream cluster: the stack's one API server serves the management
 * cluster and the stand-ins alike, so a user whose rights differ downstream (users.ts
 * `downstreamRules`) is passed there as its own identity `downstream:<id>`, given those rights in
 * tests/real-stack/rbac.yaml. On a real downstream cluster Rancher impersonates the same user id,
 * whose rights there are that cluster's (harness, named in docs/emulator.md).
 */
export function downstreamIdentity(user: User): User {
  return user.downstreamRules ? { ...user, id: `downstream:${ user.id }` } : user;
}

export class RealStackRoutes {
  constructor(readonly proxy: RealStackProxy, private readonly downstreamIds: string[] = []) {}

  /** A cluster id whose proxy goes to the real stack: `local`, or a stand-in downstream cluster. */
  private isStackCluster(id: string): boolean {
    return id === 'local' || this.downstreamIds.includes(id);
  }

  /**
   * Serves the request from the real stack when it is the stack's; false when the emulator answers
   * it. `emulatorSteve` answers /v1 for the merges of schemas and counts.
   */
  async handle(ctx: RequestContext, user: User | undefined, emulatorSteve: (ctx: RequestContext) => Promise<void>): Promise<boolean> {
    if (!user) {
      return false;
    }
    const path = ctx.path;
    const cluster = path.match(CLUSTER_PATH);

    if (cluster && this.isStackCluster(cluster[1])) {
      const rest = cluster[2] ?? '/';
      const prefix = `/k8s/clusters/${ cluster[1] }`;
      const there = cluster[1] === 'local' ? user : downstreamIdentity(user);

      if (rest === '/v1' || rest.startsWith('/v1/')) {
        return this.guarded(ctx, () => this.proxy.steve(ctx, there, rest, prefix));
      }

      return this.guarded(ctx, () => this.proxy.kube(ctx, there, rest));
    }
    if (path.startsWith('/v1/')) {
      const route = steveRoute(path);

      if (route === 'real') {
        return this.guarded(ctx, () => this.proxy.steve(ctx, user));
      }
      if (route === 'merge') {
        return this.guarded(ctx, async() => this.proxy.merged(ctx, user, await capture(ctx, emulatorSteve)));
      }

      return false;
    }
    if (isRealKubePath(path)) {
      return this.guarded(ctx, () => this.proxy.kube(ctx, user));
    }

    return false;
  }

  /** Rancher checks its CSRF cookie before any API (rancher/rancher pkg/auth: the `CSRF` cookie and `X-Api-Csrf` header). */
  private async guarded(ctx: RequestContext, forward: () => Promise<void>): Promise<true> {
    try {
      checkCsrf(ctx);
    } catch (e) {
      const error = e as ApiError;

      sendJson(ctx, error.status, error.toSteve());

      return true;
    }
    await forward();

    return true;
  }

  /** Whether this websocket path is the stack's: /v1/subscribe (split) or a stack cluster's subscribe. */
  handlesUpgrade(path: string): boolean {
    const cluster = path.match(CLUSTER_PATH);

    return path === '/v1/subscribe' || (!!cluster && this.isStackCluster(cluster[1]) && cluster[2] === '/v1/subscribe');
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, ctx: RequestContext, user: User, hub: WatchHub): void {
    const cluster = ctx.path.match(CLUSTER_PATH);
    const prefix = cluster ? `/k8s/clusters/${ cluster[1] }` : '';
    const there = cluster && cluster[1] !== 'local' ? downstreamIdentity(user) : user;
    const upstream = {
      url:     `${ this.proxy.endpoints.steve.replace(/^http/, 'ws') }/v1/subscribe${ ctx.url.search }`,
      headers: { ...impersonation(there), ...linkHeaders(ctx, prefix) },
    };
    // A cluster's subscribe is all the stack's; the management cluster's is split by type.
    const isReal = cluster ? () => true : isRealSteveType;

    hub.accept(req, socket, head, (ws) => splitSubscription(ws, (end) => hub.serve(end, { actor: userActor(user), base: ctx.base }), upstream, isReal, () => hub.counts(ctx.base)));
  }
}
