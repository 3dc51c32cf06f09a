// /v1/subscribe in `--backend real-stack`: one websocket from the browser for every type
// (rancher/apiserver pkg/subscribe: each message names its resourceType), split in two. A
// subscription of a type the real stack serves goes up an upstream websocket to real Steve, as the
// user (rancher/steve --enable-header-auth; real-stack/proxy.ts); any other (schema, count,
// settings…) to the emulator's own subscription. The answers of both come back on the one socket;
// real Steve's pings are dropped (the emulator's own keep the socket alive). When either end of the
// upstream closes, the browser's socket closes too and the shell subscribes again
// (shell plugins/steve/subscribe.js reconnects).

import { EventEmitter } from 'events';
import { WebSocket } from 'ws';
import { asObject, asString } from '../core/json';
import { isRealSteveType } from './routing';
import type { SubscriberSocket } from '../steve/watch';

/** The emulator's half: a socket-like end its SteveSubscription reads and writes. */
class LocalEnd extends EventEmitter implements SubscriberSocket {
  constructor(private readonly client: WebSocket) {
    super();
  }

  get readyState(): number {
    return this.client.readyState;
  }

  send(text: string): void {
    this.client.send(text);
  }
}

export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

function resourceTypeOf(text: string): string | undefined {
  try {
    return asString(asObject(JSON.parse(text)).resourceType);
  } catch {
    return undefined;
  }
}

/**
 * Joins the browser's socket to a local subscription (`serveLocal` starts the emulator's own on the
 * given end) and to an upstream socket to real Steve, opened at once; `isReal` picks the
 * subscriptions that go upstream (by default the types the stack serves).
 */
export function splitSubscription(client: WebSocket, serveLocal: (end: SubscriberSocket) => void, upstream: UpstreamTarget, isReal: (resourceType: string) => boolean = isRealSteveType): void {
  const local = new LocalEnd(client);
  const real = new WebSocket(upstream.url, { headers: upstream.headers, rejectUnauthorized: false });
  const waiting: string[] = [];

  serveLocal(local);
  real.on('open', () => {
    for (const text of waiting.splice(0)) {
      real.send(text);
    }
  });
  real.on('message', (data) => {
    const text = data.toString();

    if (asString(safeParse(text).name) !== 'ping' && client.readyState === WebSocket.OPEN) {
      client.send(text);
    }
  });
  const closeClient = () => {
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING) {
      client.close(1011, 'upstream subscription closed');
    }
  };

  real.on('close', closeClient);
  real.on('error', closeClient);
  client.on('message', (data) => {
    const text = data.toString();
    const type = resourceTypeOf(text);

    if (type !== undefined && isReal(type)) {
      if (real.readyState === WebSocket.OPEN) {
        real.send(text);
      } else {
        waiting.push(text);
      }
    } else {
      local.emit('message', text);
    }
  });
  client.on('close', () => {
    local.emit('close');
    if (real.readyState === WebSocket.OPEN || real.readyState === WebSocket.CONNECTING) {
      real.terminate();
    }
  });
  client.on('error', () => local.emit('error'));
}

function safeParse(text: string): Record<string, unknown> {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return {};
  }
}
