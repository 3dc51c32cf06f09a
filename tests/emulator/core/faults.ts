// Faults that tests inject on request paths: latency, a status code, a malformed or oversized body,
// a redirect, a lost answer, for the next N matching requests or until cleared. Emulates no
// program of its own: what it forces is what a network or proxy between the browser and Rancher
// can do; the lost answer after a committed write follows kubernetes/apiserver
// pkg/endpoints/handlers/update.go (stored before it answers), and the injected error body has the
// shape of rancher/apiserver pkg/apierror/apierror.go (type, code, message, status).

import { RequestContext } from './http';

export interface FaultSpec {
  /** `/v1/elemental.cattle.io.managedosimages` (prefix), `*.updates.log` (glob) or `^/v1/.*` (regex). */
  path: string;
  method?: string;
  latencyMs?: number;
  status?: number;
  body?: 'malformed' | 'oversized';
  /** Size of an oversized body, default 16 MiB. */
  bytes?: number;
  /** How many matching requests it applies to; unset = until cleared. */
  times?: number;
  /**
   * Answers a redirect there (`status`, default 302), as a proxy or web server in front of Rancher
   * may (RFC 9110 section 15.4): the browser follows it itself.
   */
  location?: string;
  /**
   * The request is applied as usual, then its answer is lost: `drop` closes the connection
   * without an answer (the browser sees a network error), a number answers that status instead.
   * As a connection reset or a proxy's 502/504 between the browser and Rancher after the API
   * server committed the write: kube-apiserver commits to etcd before it answers
   * (k8s.io/apiserver pkg/endpoints/handlers/update.go), and Rancher's proxy only relays it.
   */
  afterApply?: 'drop' | number;
}

export interface Fault extends FaultSpec {
  id: number;
  hits: number;
}

function matcher(pattern: string): (path: string) => boolean {
  if (pattern.startsWith('^')) {
    const re = new RegExp(pattern);

    return (path) => re.test(path);
  }
  if (pattern.includes('*')) {
    const re = new RegExp(`^${ pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') }$`);

    return (path) => re.test(path);
  }

  return (path) => path.startsWith(pattern);
}

export class Faults {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    if (!spec.path) {
      throw new Error('a fault needs a path');
    }
    const fault: Fault = {
      ...spec, id: this.nextId++, hits: 0
    };

    this.faults.push(fault);

    return fault;
  }

  remove(id: number): boolean {
    const before = this.faults.length;

    this.faults = this.faults.filter((f) => f.id !== id);

    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The fault for this request, counting it as used. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.faults.find((f) => (!f.method || f.method.toUpperCase() === method) && matcher(f.path)(path));

    if (!fault) {
      return undefined;
    }
    fault.hits++;
    if (fault.times !== undefined && fault.hits >= fault.times) {
      this.remove(fault.id);
    }

    return { ...fault };
  }
}

/**
 * For an `afterApply` fault: the request goes on to be applied, and whatever it answers is
 * replaced by a dropped connection or the fault's status.
 */
export function loseAnswer(ctx: RequestContext, fault: Fault): void {
  const { res } = ctx;
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);

  res.writeHead = (() => res) as unknown as typeof res.writeHead;
  res.write = (() => true) as unknown as typeof res.write;
  res.end = (() => {
    if (fault.afterApply === 'drop') {
      // Cut inside the answer: a connection closed before any byte of it is retried by the
      // browser itself for an idempotent PUT (and the retry meets 409), one cut after the
      // headers is a network error for the page.
      writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4096' });
      res.flushHeaders();
      setTimeout(() => res.socket?.destroy(), 50);
    } else {
      const body = JSON.stringify({
        type: 'error', links: {}, code: 'InjectedFault', message: `answer lost after applying ${ ctx.method } ${ ctx.path }`, status: fault.afterApply
      });

      writeHead(Number(fault.afterApply), { 'Content-Type': 'application/json' });
      end(body);
    }

    return res;
  }) as unknown as typeof res.end;
}

/** Applies a fault; returns true when it answered the request itself. */
export async function applyFault(ctx: RequestContext, fault: Fault): Promise<boolean> {
  if (fault.latencyMs) {
    await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
  }
  if (fault.location) {
    ctx.res.writeHead(fault.status ?? 302, { Location: fault.location, 'Content-Length': '0' });
    ctx.res.end();

    return true;
  }
  if (fault.body === 'malformed') {
    ctx.res.writeHead(fault.status ?? 200, { 'Content-Type': 'application/json' });
    ctx.res.end('{"type":"collection","data":[{"id":"broken",');

    return true;
  }
  if (fault.body === 'oversized') {
    const size = fault.bytes ?? 16 * 1024 * 1024;
    const head = '[{"id":"oversized","description":"';
    const tail = '"}]';
    const chunk = 'x'.repeat(64 * 1024);
    let remaining = Math.max(0, size - head.length - tail.length);

    ctx.res.writeHead(fault.status ?? 200, { 'Content-Type': 'application/json', 'Content-Length': String(head.length + remaining + tail.length) });
    ctx.res.write(head);
    while (remaining > 0) {
      const part = remaining >= chunk.length ? chunk : chunk.slice(0, remaining);

      remaining -= part.length;
      if (!ctx.res.write(part)) {
        await new Promise((resolve) => ctx.res.once('drain', resolve));
      }
    }
    ctx.res.end(tail);

    return true;
  }
  if (fault.status) {
    const body = JSON.stringify({
      type: 'error', links: {}, code: 'InjectedFault', message: `fault injected by the emulator on ${ fault.path }`, status: fault.status
    });

    ctx.res.writeHead(fault.status, { 'Content-Type': 'application/json' });
    ctx.res.end(body);

    return true;
  }

  return false;
}
