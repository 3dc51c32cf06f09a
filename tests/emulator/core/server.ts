// The HTTP server and its routes, as rancher/rancher routes them (pkg/multiclustermanager/routes.go, pkg/ui/routes.go).
// The HTTP server: routes each request to the right API, applies injected faults, upgrades the
// subscribe websockets, and serves the dashboard build and extensions when asked to.

import http from 'http';
import { Duplex } from 'stream';
import { CONTROL_PREFIX, ControlApi } from './control';
import { Emulator } from './emulator';
import { applyFault, loseAnswer } from './faults';
import {
  RequestContext, contextOf, readBody, sendJson, sendNotFound
} from './http';
import type { RancherVersion } from '../rancher/rancher-version';
import { DOWNSTREAM_PREFIX, isDownstreamSubscribePath } from '../rancher/downstream';
import { KubeApi } from '../kube/kube-api';
import { NormanApi } from '../rancher/norman';
import { CHANNEL_FILE_PATH } from '../operator/operator';
import { CHANGELOG_FILES_PATH, serveChangelogFile } from '../data/changelog-files';
import { kubeVersion, rancherVersion, uiPlugins } from '../rancher/rancher';
import { RANCHER_VERSION } from '../rancher/seed';
import { DashboardUi, PluginShelf, sendNoOperatorPage } from '../rancher/static';
import { SteveApi, isVirtualType } from '../steve/steve';
import { userActor } from '../rancher/users';
import { WatchHub, isSubscribePath } from '../steve/watch';
import type { RealStackRoutes } from '../real-stack/real-stack-routes';
import { requestLog } from './request-log';

export interface ServerOptions {
  ui?: DashboardUi;
  plugins?: PluginShelf;
  pingMs: number;
  /** Log every request whose answer is 4xx/5xx (handy when booting a dashboard against it). */
  logErrors: boolean;
  /** False: the control endpoints and channel files under /__emulator/ answer 404 (real Rancher mode). */
  control: boolean;
  /** The Rancher minor imitated (rancher-version.ts); Rancher 2.15 when not given. */
  rancher?: RancherVersion;
  /** `--backend real-stack`: the Steve and Kubernetes requests the real stack answers. */
  realStack?: RealStackRoutes;
}

const API_PREFIXES = ['/v1/', '/v3/', '/api/', '/apis/', '/v1-public/', '/v3-public/', '/elemental/', '/k8s/', '/meta/'];

export class EmulatorServer {
  readonly server: http.Server;
  readonly hub: WatchHub;
  private readonly steve: SteveApi;
  private readonly kube: KubeApi;
  private readonly norman: NormanApi;
  private readonly control: ControlApi;

  constructor(readonly emulator: Emulator, private readonly options: ServerOptions) {
    this.steve = new SteveApi(emulator);
    this.kube = new KubeApi(emulator);
    this.norman = new NormanApi(emulator);
    this.hub = new WatchHub({
      store:         emulator.store,
      storedType:    (name) => emulator.types.fromSteveName(name),
      isVirtualType,
      counts:        (base) => this.steve.counts(base),
      serverVersion: options.rancher?.serverVersion ?? RANCHER_VERSION,
      pingMs:        options.pingMs,
      sqlCache:      emulator.config.sqlCache,
    });
    this.control = new ControlApi(emulator, this.hub);
    this.server = http.createServer(this.onRequest);
    this.server.on('upgrade', this.onUpgrade);
  }

  /** The request handler, also used by the TLS listener (https.ts). */
  readonly onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    this.handle(contextOf(req, res)).catch(() => res.destroy());
  };

  readonly onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => this.upgrade(req, socket, head);

  listen(port: number, host = '0.0.0.0'): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
  }

  close(): Promise<void> {
    this.hub.close();
    this.emulator.downstream.close();

    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(ctx: RequestContext): Promise<void> {
    try {
      if (this.options.logErrors) {
        ctx.res.on('finish', () => {
          if (ctx.res.statusCode >= 400) {
            process.stderr.write(`[emulator] ${ ctx.method } ${ ctx.url.pathname }${ ctx.url.search } -> ${ ctx.res.statusCode }\n`);
          }
        });
      }
      requestLog.request(ctx.method, `${ ctx.url.pathname }${ ctx.url.search }`);
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        ctx.body = await readBody(ctx.req);
      }
      if (!ctx.path.startsWith(CONTROL_PREFIX)) {
        const fault = this.emulator.faults.take(ctx.method, ctx.path);

        if (fault?.afterApply !== undefined) {
          loseAnswer(ctx, fault);
        } else if (fault && await applyFault(ctx, fault)) {
          return;
        }
      }
      await this.route(ctx);
    } catch (e) {
      if (!ctx.res.headersSent) {
        sendJson(ctx, 500, {
          type: 'error', status: 500, code: 'ServerError', message: e instanceof Error ? e.message : String(e)
        });
      } else {
        ctx.res.destroy();
      }
    }
  }

  private async route(ctx: RequestContext): Promise<void> {
    const path = ctx.path;
    const auth = this.emulator.sessions.resolve(ctx);

    if (path.startsWith(CONTROL_PREFIX) || path.startsWith(CHANNEL_FILE_PATH)) {
      return this.options.control ? this.control.handle(ctx) : sendNotFound(ctx);
    }
    if (path === '/rancherversion') {
      return rancherVersion(ctx, this.options.rancher?.serverVersion ?? RANCHER_VERSION);
    }
    if (path === '/version') {
      return kubeVersion(ctx);
    }
    // Rancher 2.12 serves no /v1-public (rancher-version.ts): those paths fall through as there.
    const v1Public = this.options.rancher?.v1Public !== false;

    if ((path === '/v1-public/authproviders' && v1Public) || path === '/v3-public/authProviders' || path === '/v3-public/authproviders') {
      return this.norman.authProviders(ctx);
    }
    if (((path === '/v1-public/login' && v1Public) || path === '/v3-public/localProviders/local' || path === '/v3-public/localproviders/local') && ctx.method === 'POST') {
      return this.norman.login(ctx);
    }
    if (path === '/v1/uiplugins' || path.startsWith('/v1/uiplugins/')) {
      return uiPlugins(ctx, this.options.plugins?.list() ?? []);
    }
    if (path === '/v1/logout' && ctx.method === 'POST') {
      return this.norman.logout(ctx, auth.session);
    }
    if (path.startsWith('/elemental/')) {
      // The operator's chart registers an APIService with pathPrefixes ['/elemental/']
      // (elemental-operator .obs/chartfile/elemental-operator-helm/templates/apiservice.yaml);
      // Rancher proxies those paths to the operator without looking at the session, so the
      // operator answers logged-out callers too. Without an operator, nothing claims the path and
      // Rancher's UI answers it: index.html with 200.
      if (this.emulator.changelogs.options.mode === 'none') {
        return this.options.ui ? this.options.ui.serveIndex(ctx) : sendNoOperatorPage(ctx);
      }

      return this.emulator.changelogs.handle(ctx);
    }
    if (path.startsWith(CHANGELOG_FILES_PATH)) {
      return serveChangelogFile(ctx, this.emulator.files);
    }
    if (this.options.realStack && (API_PREFIXES.some((p) => path.startsWith(p)) || path === '/api')) {
      ctx.res.setHeader('X-Api-Cattle-Auth', auth.session ? 'true' : 'false');
      if (await this.options.realStack.handle(ctx, auth.user, (c) => this.steve.handle(c, auth.user))) {
        return;
      }
    }
    if (path === '/v1' || path.startsWith('/v1/') || path === '/v3' || path.startsWith('/v3/') || path.startsWith('/api/') || path.startsWith('/apis/')) {
      ctx.res.setHeader('X-Api-Cattle-Auth', auth.session ? 'true' : 'false');
      if (path.startsWith('/v1')) {
        return this.steve.handle(ctx, auth.user);
      }
      if (path.startsWith('/v3')) {
        return this.norman.handle(ctx, auth.user, auth.session);
      }

      return this.kube.handle(ctx, auth.user);
    }
    if (path.startsWith(DOWNSTREAM_PREFIX)) {
      ctx.res.setHeader('X-Api-Cattle-Auth', auth.session ? 'true' : 'false');

      return this.emulator.downstream.handle(ctx, auth.user);
    }
    if (this.options.ui && !API_PREFIXES.some((p) => path.startsWith(p))) {
      return this.options.ui.serve(ctx);
    }
    if (path === '/') {
      return sendJson(ctx, 200, { emulator: 'os-upgrades Rancher API emulator', control: `${ CONTROL_PREFIX }/health` });
    }
    sendNotFound(ctx);
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const ctx = contextOf(req, new http.ServerResponse(req));

    const realStack = this.options.realStack?.handlesUpgrade(ctx.path) ? this.options.realStack : undefined;

    if (!realStack && !isSubscribePath(ctx.path) && !isDownstreamSubscribePath(ctx.path)) {
      socket.destroy();

      return;
    }
    const auth = this.emulator.sessions.resolve(ctx);

    if (!auth.session) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"type":"error","code":"Unauthorized","message":"must authenticate","status":401}');
      socket.destroy();

      return;
    }
    if (realStack && auth.user) {
      realStack.upgrade(req, socket, head, ctx, auth.user, this.hub);

      return;
    }
    if (isDownstreamSubscribePath(ctx.path)) {
      this.emulator.downstream.upgrade(req, socket, head, ctx.path, auth.user, ctx.base);

      return;
    }
    this.hub.upgrade(req, socket, head, ctx.path, { actor: userActor(auth.user), base: ctx.base });
  }
}
