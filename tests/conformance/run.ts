// Runs a scenario against a Steve (real or emulated) and returns its exchanges, normalised: the
// one runner of the recorder and the replay, so both send exactly the same requests.
import { WebSocket } from 'ws';
import { Credentials, send } from './client';
import { kept, normalise } from './normalise';
import {
  Exchange, RequestExchange, RequestStep, Scenario, WatchExchange, WatchStep
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
}

async function request(target: Target, step: RequestStep, state: RunState): Promise<RequestExchange> {
  if (step.settleMs) {
    await wait(step.settleMs * (target.waitScale ?? 1));
  }
  const answer = await send(target.base, target.credentials, step.request);
  const revision = (answer.body as { revision?: unknown } | null)?.revision;

  if (step.compare === 'list' && typeof revision === 'string') {
    state.lastRevision = revision;
  }

  return {
    request: step.request, compare: step.compare, response: { status: answer.status, body: kept(step.compare, normalise(answer.body, target.base)) }
  };
}

function eventOf(raw: string): string | undefined {
  const message = JSON.parse(raw) as { name?: string; id?: string; data?: { id?: string; type?: string; error?: string } };

  if (!message.name || message.name === 'ping') {
    return undefined;
  }
  if (message.data?.error) {
    return `${ message.name } ${ message.data.error }`;
  }

  return `${ message.name } ${ message.data?.id ?? message.id ?? message.data?.type ?? '' }`.trim();
}

async function watch(target: Target, step: WatchStep, state: RunState): Promise<{ watch: WatchExchange; during: RequestExchange[] }> {
  const url = `${ target.base.replace(/^http/, 'ws') }/v1/subscribe`;
  const socket = new WebSocket(url, { headers: target.credentials[step.watch.user] });
  const events: string[] = [];

  socket.on('message', (data) => {
    const event = eventOf(data.toString());

    if (event && !events.includes(event)) {
      events.push(event);
    }
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  for (const message of step.watch.subscribe) {
    const revision = step.watch.atLastRevision ? { resourceVersion: state.lastRevision } : {};

    socket.send(JSON.stringify({ ...message, ...revision }));
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
  const state: RunState = {};

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
