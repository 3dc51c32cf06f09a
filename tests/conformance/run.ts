// Runs a scenario against a Steve (real or emulated) and returns its exchanges, normalised: the
// one runner of the recorder and the replay, so both send exactly the same requests.
import { WebSocket } from 'ws';
import { Credentials, send } from './client';
import { kept, normalise } from './normalise';
import {
  ConformanceRequest, Exchange, NAME_PLACEHOLDER, RequestExchange, RequestStep, Scenario, UID_PLACEHOLDER, WatchExchange, WatchStep
} from './scenario';

export interface Target {
  base: string;
  credentials: Credentials;
  /** Multiplies every wait (settleMs, collectMs, the watch's start): 1 on the real stack; the emulator applies a write at once. */
  waitScale?: number;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunState {
  lastRevision?: string;
  /** The uid of each object by name, from the answers so far (UID_PLACEHOLDER). */
  uids: Map<string, string>;
  /** Names learnt for paths (RequestStep.learn, NAME_PLACEHOLDER). */
  names: Map<string, string>;
}

/** A body with its `{uid:<name>}` (UID_PLACEHOLDER) and `{name:<key>}` (NAME_PLACEHOLDER, such as a resourceVersion read before a PUT) filled in. */
function withLearnt(value: unknown, state: RunState): unknown {
  if (typeof value === 'string') {
    const name = UID_PLACEHOLDER.exec(value)?.[1];

    return name === undefined ? value.replace(NAME_PLACEHOLDER, (placeholder, key: string) => state.names.get(key) ?? placeholder) : state.uids.get(name) ?? value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => withLearnt(v, state));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withLearnt(v, state)]));
  }

  return value;
}

function rememberUid(body: unknown, uids: Map<string, string>): void {
  const metadata = (body as { metadata?: { name?: unknown; uid?: unknown } } | null)?.metadata;

  if (typeof metadata?.name === 'string' && typeof metadata.uid === 'string') {
    uids.set(metadata.name, metadata.uid);
  }
}

/** Sends the step's request, again and again while its `poll` waits for a controller. */
async function answerOf(target: Target, step: RequestStep, state: RunState): Promise<{ status: number; body: unknown }> {
  const path = step.request.path.replace(NAME_PLACEHOLDER, (placeholder, key: string) => encodeURIComponent(state.names.get(key) ?? placeholder));
  const sent: ConformanceRequest = {
    ...step.request, path, body: withLearnt(step.request.body, state)
  };
  const scale = target.waitScale ?? 1;
  const deadline = Date.now() + (step.poll?.withinMs ?? 0) * scale;
  let answer = await send(target.base, target.credentials, sent);

  while (step.poll && !step.poll.until(answer) && Date.now() < deadline) {
    await wait(250 * scale);
    answer = await send(target.base, target.credentials, sent);
  }

  return answer;
}

async function request(target: Target, step: RequestStep, state: RunState): Promise<RequestExchange> {
  if (step.settleMs) {
    await wait(step.settleMs * (target.waitScale ?? 1));
  }
  const answer = await answerOf(target, step, state);

  rememberUid(answer.body, state.uids);
  for (const [key, name] of Object.entries(step.learn?.(answer) ?? {})) {
    state.names.set(key, name);
  }
  const revision = (answer.body as { revision?: unknown } | null)?.revision;

  if (step.compare === 'list' && typeof revision === 'string') {
    state.lastRevision = revision;
  }

  return {
    request: step.request, compare: step.compare, response: { status: answer.status, body: kept(step.compare, normalise(answer.body, target.base)) }
  };
}

function eventOf(raw: string, by: 'id' | 'type'): string | undefined {
  const message = JSON.parse(raw) as { name?: string; id?: string; resourceType?: string; data?: { id?: string; type?: string; error?: string } };

  if (!message.name || message.name === 'ping') {
    return undefined;
  }
  if (message.data?.error) {
    return `${ message.name } ${ message.data.error }`;
  }
  if (by === 'type') {
    return `${ message.name } ${ message.resourceType ?? message.data?.type ?? '' }`.trim();
  }

  return `${ message.name } ${ message.data?.id ?? message.id ?? message.data?.type ?? '' }`.trim();
}

/**
 * A subscribe message with its learnt names in (NAME_PLACEHOLDER), and the latest list's revision when
 * the step asks. A field whose name was not learnt is left out: a list of a type that never changed
 * has the revision '', and api/downstream.ts then watches it without one.
 */
function subscribeMessage(message: Record<string, unknown>, step: WatchStep, state: RunState): Record<string, unknown> {
  const unknown = Symbol('not learnt');
  const learnt = Object.entries(message).map(([key, value]) => [key, typeof value === 'string' ? value.replace(NAME_PLACEHOLDER, (placeholder, name: string) => state.names.get(name) ?? String(unknown)) : value])
    .filter(([, value]) => typeof value !== 'string' || !value.includes(String(unknown)));

  return { ...Object.fromEntries(learnt), ...(step.watch.atLastRevision ? { resourceVersion: state.lastRevision } : {}) };
}

async function watch(target: Target, step: WatchStep, state: RunState): Promise<{ watch: WatchExchange; during: RequestExchange[] }> {
  const url = `${ target.base.replace(/^http/, 'ws') }${ step.watch.path ?? '/v1/subscribe' }`;
  const socket = new WebSocket(url, { headers: target.credentials[step.watch.user] });
  const events: string[] = [];

  socket.on('message', (data) => {
    const event = eventOf(data.toString(), step.watch.eventsBy ?? 'id');

    if (event && !events.includes(event)) {
      events.push(event);
    }
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  for (const message of step.watch.subscribe) {
    socket.send(JSON.stringify(subscribeMessage(message, step, state)));
    if (step.watch.messageGapMs) {
      await wait(step.watch.messageGapMs * (target.waitScale ?? 1));
    }
  }
  await wait(500 * (target.waitScale ?? 1));
  const during: RequestExchange[] = [];

  for (const inner of step.during) {
    during.push(await request(target, inner, state));
  }
  await wait(step.collectMs * (target.waitScale ?? 1));
  socket.close();

  return { watch: { watch: step.watch, events }, during };
}

export async function runScenario(target: Target, scenario: Scenario): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const state: RunState = { uids: new Map(), names: new Map() };

  for (const step of scenario.steps) {
    if ('watch' in step) {
      const result = await watch(target, step, state);

      exchanges.push(...result.during, result.watch);
    } else {
      exchanges.push(await request(target, step, state));
    }
  }

  return exchanges;
}
