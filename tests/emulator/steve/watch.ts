// Steve's subscribe websocket (/v1/subscribe) in the message forms the shell's
// plugins/steve/subscribe.js consumes: the client sends `{ resourceType, resourceVersion?, namespace?,
// id?, selector?, mode?, stop? }`; the server answers resource.start, then resource.create /
// resource.change / resource.remove (or debounced resource.changes in that mode), resource.error
// ("too old resource version" for a revision older than the kept history), resource.stop, and a
// ping every 30 s. /v3/subscribe (Norman) only pings: the emulator has no Norman objects that change.

import { IncomingMessage } from 'http';
import { Duplex } from 'stream';
import { WebSocket, WebSocketServer } from 'ws';
import { JsonObject, asObject, asString } from '../core/json';
import { LabelSelector, matchesLabels, parseLabelSelector } from '../kube/labels';
import { ResourceType } from '../kube/resource-types';
import { KubeObject, ObjectStore, StoreEvent } from '../kube/store';
import { steveId, toSteve } from './steve-format';
import { Actor } from '../rancher/users';
import { requestLog } from '../core/request-log';
import { COUNTS_DEBOUNCE_MS, changesCount } from './counts';

export interface WatchEnvironment {
  store: ObjectStore;
  /** Stored types by Steve name, or undefined for a name that is no stored type. */
  storedType(name: string): ResourceType | undefined;
  /** Types Steve can watch that are not stored objects (schema, count, userpreference…). */
  isVirtualType(name: string): boolean;
  /** The `count` object, of every type or of those given (steve/counts.ts). */
  counts(base: string, types?: string[]): JsonObject;
  serverVersion: string;
  pingMs: number;
  /** Steve's SQL cache is on (the ui-sql-cache feature): a watch without a revision starts from now. */
  sqlCache: boolean;
}

/** resource.changes debounce when the client names none (rancher/steve's default rate, 5 s). */
export const DEFAULT_DEBOUNCE_MS = 5000;

interface Subscription {
  resourceType: string;
  namespace?: string;
  id?: string;
  selector?: string;
  mode?: string;
  debounceMs?: number;
}

interface ActiveWatch extends Subscription {
  type?: ResourceType;
  labelSelector: LabelSelector;
  pending?: NodeJS.Timeout;
  /** The debouncer's state (resource.changes and count watches): the first change is notified at once, later ones held. */
  notifiedOnce?: boolean;
  /** The revision of the last change seen (debouncer.go `latestRV`). */
  changedAt?: number;
  /** A count watch's state (steve/counts.ts): when it started, the types changed since its last count. */
  count?: { startedAt: number; changed: Set<string> };
}

function keyOf(sub: Subscription): string {
  return `${ sub.resourceType }/${ sub.namespace ?? '' }/${ sub.id ?? '' }/${ sub.selector ?? '' }/${ sub.mode ?? '' }`;
}

/**
 * The data of an event that carries no object (resource.start, resource.changes): rancher/apiserver
 * pkg/subscribe/convert.go MarshallObject converts the empty object with the request's schema, the
 * websocket's own type `subscribe` (the shell reads the message's resourceType, not this).
 */
const NO_OBJECT: JsonObject = { type: 'subscribe', links: {} };

function header(sub: Subscription): JsonObject {
  const out: JsonObject = { resourceType: sub.resourceType };

  for (const key of ['namespace', 'id', 'selector', 'mode'] as const) {
    if (sub[key]) {
      out[key] = sub[key];
    }
  }

  return out;
}

/** What a subscription needs of its websocket (a `ws` WebSocket, or one end of a split socket: real-stack/subscribe-split.ts). */
export interface SubscriberSocket {
  readonly readyState: number;
  send(text: string): void;
  on(event: 'message', listener: (raw: { toString(): string }) => void): unknown;
  on(event: 'close' | 'error', listener: () => void): unknown;
}

export class SteveSubscription {
  private readonly watches = new Map<string, ActiveWatch>();
  private readonly unsubscribe: () => void;
  private readonly ping: NodeJS.Timeout;

  constructor(private readonly ws: SubscriberSocket, private readonly env: WatchEnvironment, private readonly actor: Actor, private readonly base: string) {
    this.unsubscribe = env.store.subscribe((event) => this.onStoreEvent(event));
    this.ping = setInterval(() => this.send({ name: 'ping', data: { version: env.serverVersion } }), env.pingMs);
    ws.on('message', (raw) => this.onMessage(raw.toString()));
    ws.on('close', () => this.close());
    ws.on('error', () => this.close());
  }

  private close(): void {
    this.unsubscribe();
    clearInterval(this.ping);
    for (const watch of this.watches.values()) {
      clearTimeout(watch.pending);
    }
    this.watches.clear();
  }

  private send(message: JsonObject): void {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
    }
  }

  private onMessage(text: string): void {
    let parsed: unknown;

    try {
      parsed = JSON.parse(text);
    } catch (e) {
      this.send({ name: 'resource.error', data: { error: `invalid character in message: ${ e instanceof Error ? e.message : String(e) }` } });

      return;
    }
    const msg = asObject(parsed);

    requestLog.subscribe(`${ new URL(this.base).pathname.replace(/\/$/, '') }/v1/subscribe`, msg);
    const sub: Subscription = { resourceType: asString(msg.resourceType) ?? '' };

    for (const key of ['namespace', 'id', 'selector', 'mode'] as const) {
      const value = asString(msg[key]);

      if (value) {
        sub[key] = value;
      }
    }
    if (typeof msg.debounceMs === 'number') {
      sub.debounceMs = msg.debounceMs;
    }

    if (msg.stop === true) {
      this.stop(sub);
    } else if (!this.watches.has(keyOf(sub))) {
      this.start(sub, asString(msg.resourceVersion));
    }
  }

  private stop(sub: Subscription): void {
    const watch = this.watches.get(keyOf(sub));

    if (watch) {
      clearTimeout(watch.pending);
      this.watches.delete(keyOf(sub));
      // rancher/apiserver pkg/subscribe/convert.go MarshallObject: the stop a client asked for carries the empty object too.
      this.send({
        name: 'resource.stop', ...header(sub), data: NO_OBJECT
      });
    }
  }

  private fail(sub: Subscription, error: string): void {
    this.send({
      name: 'resource.error', ...header(sub), data: { error }
    });
    this.send({
      name: 'resource.stop', ...header(sub), data: NO_OBJECT
    });
  }

  private tooOld(sub: Subscription, revision: number): void {
    if (!this.env.sqlCache) {
      // Steve proxies the Kubernetes watch, whose 410 Gone says this (k8s.io/apiserver storage/cacher).
      this.fail(sub, `too old resource version: ${ revision } (${ this.env.store.oldestRevision })`);

      return;
    }
    // The SQL cache's watch starts, then finds no event of that revision in its log
    // (rancher/steve pkg/sqlcache/informer/listoption_indexer.go Watch, ErrTooOld); the error comes on
    // the started watch's channel (rancher/apiserver pkg/subscribe/watcher.go stream).
    this.send({
      name: 'resource.start', ...header(sub), data: NO_OBJECT
    });
    this.fail(sub, 'resourceversion too old');
  }

  /**
   * Whether a watch can start from `revision`: with the SQL cache only from an event of that type
   * (so not from another type's list revision); without it from any revision Kubernetes still keeps.
   */
  private resumable(type: string, revision: number): boolean {
    return this.env.sqlCache ? this.env.store.holdsRevision(type, revision) : revision >= this.env.store.oldestRevision;
  }

  private start(sub: Subscription, resourceVersion: string | undefined): void {
    const type = this.env.storedType(sub.resourceType);

    if (!type && !this.env.isVirtualType(sub.resourceType)) {
      this.fail(sub, `failed to find schema ${ sub.resourceType }`);

      return;
    }
    let labelSelector: LabelSelector = [];

    try {
      labelSelector = parseLabelSelector(sub.selector);
    } catch (e) {
      this.fail(sub, e instanceof Error ? e.message : String(e));

      return;
    }
    const revision = resourceVersion !== undefined && /^\d+$/.test(resourceVersion) ? Number(resourceVersion) : undefined;

    if (type && revision !== undefined && revision > 0 && !this.resumable(type.id, revision)) {
      this.tooOld(sub, revision);

      return;
    }
    const watch: ActiveWatch = {
      ...sub, type, labelSelector
    };

    if (sub.resourceType === 'count') {
      watch.count = { startedAt: Date.now(), changed: new Set() };
    }
    this.watches.set(keyOf(sub), watch);
    this.send({
      name: 'resource.start', ...header(sub), data: NO_OBJECT
    });

    if (!type) {
      return;
    }
    if (revision !== undefined && revision > 0) {
      for (const event of this.env.store.eventsSince(type.id, revision)) {
        this.deliver(watch, event.action, event.object, event.revision);
      }
    } else if (!this.env.sqlCache) {
      // Without the SQL cache Steve proxies a Kubernetes watch (rancher/steve pkg/stores/proxy
      // proxy_store.go listAndWatch); one without a resourceVersion starts with every current object.
      for (const object of this.env.store.list(type.id)) {
        this.deliver(watch, 'create', object, this.env.store.revision);
      }
    }
    // With the SQL cache (rancher/steve pkg/stores/sqlproxy, the informer's Watch) a watch without
    // a revision starts from now: no initial events. The shell's findAll on a type it already holds
    // sends exactly that (dashboard-store/actions.js, revision ''), so changes made while it was
    // not watching are not replayed.
  }

  private matches(watch: ActiveWatch, object: KubeObject): boolean {
    if (watch.namespace && object.metadata.namespace !== watch.namespace) {
      return false;
    }
    // An id is `<namespace>/<name>` or, beside the subscription's namespace, the name alone
    // (rancher/steve pkg/stores/sqlproxy/proxy_store.go watch; recorded: browser-requests, the
    // operator's Metadata watched by namespace and name).
    if (watch.id && steveId(object) !== watch.id && (watch.id.includes('/') || object.metadata.name !== watch.id)) {
      return false;
    }

    return matchesLabels(watch.labelSelector, object.metadata.labels);
  }

  private deliver(watch: ActiveWatch, action: StoreEvent['action'], object: KubeObject, revision: number): void {
    if (!watch.type || !this.matches(watch, object)) {
      return;
    }
    if (watch.mode === 'resource.changes') {
      this.notifyChanges(watch, revision);

      return;
    }
    this.send({
      name: `resource.${ action }`, ...header(watch), revision: String(revision), data: toSteve(watch.type, object, this.base, this.actor, { ownedBy: (uid) => this.env.store.sharedOwnedBy(uid) })
    });
  }

  /**
   * rancher/apiserver pkg/subscribe/debouncer.go: the first change is notified at once; after it a
   * change starts a timer of debounceMs and the ones during it only move the latest revision (that of
   * the type's last event).
   */
  private notifyChanges(watch: ActiveWatch, revision: number): void {
    watch.changedAt = revision;
    const notify = () => this.send({
      name: 'resource.changes', ...header(watch), revision: String(watch.changedAt), data: NO_OBJECT
    });

    if (!watch.notifiedOnce) {
      watch.notifiedOnce = true;
      notify();
    } else if (!watch.pending) {
      watch.pending = setTimeout(() => {
        watch.pending = undefined;
        notify();
      }, watch.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    }
  }

  private onStoreEvent(event: StoreEvent): void {
    for (const watch of this.watches.values()) {
      if (watch.type?.id === event.type) {
        this.deliver(watch, event.action, event.object, event.revision);
      }
    }
    const countWatches = [...this.watches.values()].filter((watch) => watch.count);

    if (countWatches.length && changesCount(event)) {
      countWatches.forEach((watch) => this.countChanged(watch, event.type));
    }
  }

  /** rancher/steve pkg/resources/counts/buffer.go: the first count at once, later ones merged on a 5 s ticker from the watch's start. */
  private countChanged(watch: ActiveWatch, type: string): void {
    const count = watch.count as NonNullable<ActiveWatch['count']>;
    const sendChanged = () => {
      watch.pending = undefined;
      this.send({
        name: 'resource.change', ...header(watch), revision: String(this.env.store.revision), data: this.env.counts(this.base, [...count.changed])
      });
      count.changed.clear();
    };

    count.changed.add(type);
    if (!watch.notifiedOnce) {
      watch.notifiedOnce = true;
      sendChanged();
    } else if (!watch.pending) {
      watch.pending = setTimeout(sendChanged, COUNTS_DEBOUNCE_MS - ((Date.now() - count.startedAt) % COUNTS_DEBOUNCE_MS));
    }
  }
}

export interface SocketAuth {
  actor: Actor;
  base: string;
}

/** Accepts subscribe upgrades, keeps the sockets so a control endpoint can drop them all. */
export class WatchHub {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();

  constructor(private readonly env: WatchEnvironment) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, auth: SocketAuth): void {
    this.server.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      if (path === '/v1/subscribe') {
        new SteveSubscription(ws, this.env, auth.actor, auth.base); // eslint-disable-line no-new
      } else {
        const ping = setInterval(() => {
          if (ws.readyState === WebSocket.OPEN) {
            ws.send(JSON.stringify({ name: 'ping', data: {} }));
          }
        }, this.env.pingMs);

        ws.on('close', () => clearInterval(ping));
      }
    });
  }

  /** Accepts an upgrade and keeps its socket (for dropAll), handing it to `onSocket`. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, onSocket: (ws: WebSocket) => void): void {
    this.server.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      onSocket(ws);
    });
  }

  /** The `count` object as the emulator's count watch would send it now. */
  counts(base: string): JsonObject {
    return this.env.counts(base);
  }

  /** The emulator's Steve subscription on a socket (or one end of a split one). */
  serve(end: SubscriberSocket, auth: SocketAuth): void {
    new SteveSubscription(end, this.env, auth.actor, auth.base); // eslint-disable-line no-new
  }

  /** Drops every socket without a close handshake, as a network failure would. */
  dropAll(): number {
    const count = this.sockets.size;

    for (const ws of this.sockets) {
      ws.terminate();
    }
    this.sockets.clear();

    return count;
  }

  count(): number {
    return this.sockets.size;
  }

  close(): void {
    this.dropAll();
    this.server.close();
  }
}

export function isSubscribePath(path: string): boolean {
  return path === '/v1/subscribe' || path === '/v3/subscribe';
}
