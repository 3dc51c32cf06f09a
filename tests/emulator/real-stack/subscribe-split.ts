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
import { JsonObject, asObject, asString } from '../core/json';
import { mergeCounts } from './proxy';
import { isRealSteveType } from './routing';
import type { SubscriberSocket } from '../steve/watch';

/** The emulator's half: a socket-like end its SteveSubscription reads and writes. */
class LocalEnd extends EventEmitter implements SubscriberSocket {
  constructor(private readonly client: WebSocket, private readonly rewrite: (text: string) => string) {
    super();
  }

  get readyState(): number {
    return this.client.readyState;
  }

  send(text: string): void {
    this.client.send(this.rewrite(text));
  }
}

/**
 * The `count` watch both answer (rancher/steve pkg/resources/counts: one `count` object with every
 * type's count, sent again on changes): each side's latest counts, and every count change sent to
 * the browser with the other side's counts merged in (the emulator's of its types, real Steve's of
 * the stack's), so the shell's count object never loses either half.
 */
class CountMerge {
  private real?: JsonObject;
  private local?: JsonObject;

  /** `localNow`: the emulator's counts as they are, before its watch sent any. */
  constructor(private readonly localNow?: () => JsonObject) {}

  fromLocal(message: JsonObject): JsonObject {
    this.local = asObject(message.data);

    return this.real ? { ...message, data: mergeCounts(this.local, this.real) } : message;
  }

  fromReal(message: JsonObject): JsonObject {
    this.real = asObject(message.data);
    const local = this.local ?? this.localNow?.();

    return local ? { ...message, data: mergeCounts(local, this.real) } : message;
  }
}

function isCountChange(message: JsonObject): boolean {
  return message.resourceType === 'count' && message.name === 'resource.change';
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
 * subscriptions that go upstream (by default the types the stack serves); `localCounts` gives the
 * emulator's `count` object for a merge before its own count watch sent one.
 */
export function splitSubscription(
  client: WebSocket, serveLocal: (end: SubscriberSocket) => void, upstream: UpstreamTarget,
  isReal: (resourceType: string) => boolean = isRealSteveType, localCounts?: () => JsonObject,
): void {
  const counts = new CountMerge(localCounts);
  // A split socket (the count watch is not the stack's alone): counts come from both sides.
  const splitsCounts = !isReal('count');
  const local = new LocalEnd(client, (text) => {
    const message = safeParse(text);

    return splitsCounts && isCountChange(message) ? JSON.stringify(counts.fromLocal(message)) : text;
  });
  const real = new WebSocket(upstream.url, { headers: upstream.headers, rejectUnauthorized: false });
  const waiting: string[] = [];
  const sendUp = (text: string) => {
    if (real.readyState === WebSocket.OPEN) {
      real.send(text);
    } else {
      waiting.push(text);
    }
  };

  serveLocal(local);
  real.on('open', () => {
    for (const text of waiting.splice(0)) {
      real.send(text);
    }
  });
  real.on('message', (data) => {
    const text = data.toString();
    const message = safeParse(text);

    if (asString(message.name) === 'ping' || client.readyState !== WebSocket.OPEN) {
      return;
    }
    if (splitsCounts && message.resourceType === 'count') {
      // The emulator's own count watch answers start, stop and errors; real Steve's adds its counts.
      if (isCountChange(message)) {
        client.send(JSON.stringify(counts.fromReal(message)));
      }

      return;
    }
    client.send(text);
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
      sendUp(text);
    } else {
      local.emit('message', text);
      if (type === 'count' && splitsCounts) {
        sendUp(text);
      }
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
