/**
 * The 500-image compare's first visit as a person's browser makes it: Chromium with no DevTools
 * client watching its network. The bench drives Chromium through Playwright, which turns on
 * DevTools' Network domain in every page, so the browser reports each of the 499 requests to it;
 * here a bare DevTools connection only navigates and evaluates (no domain enabled). Each round is a
 * new browser with an empty profile (nothing cached), logged in, on the channels list, the compare
 * page's code loaded; then the router push to the complete compare is timed in the page as the bench
 * times it, and the CPU each process used meanwhile is read from /proc.
 *
 *   node_modules/.bin/tsx scripts/bench/first-visit-plain.ts --base-url https://localhost:8997 [--rounds 5] [--out file.json]
 *
 * Against an emulator started as scripts/bench/run starts it (20,000 versions). Linux only (/proc).
 */
import { ChildProcess, spawn } from 'child_process';
import {
  mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { loginBody } from '../../tests/e2e/support/login';
import { networkArgs } from './network-args';
import { installProbe, NavTiming, PAGE_NAME_HELPER } from './page-probe';
import { PREVIEW_DELAY_MS } from '../../pkg/os-upgrades/stores/selector-draft';

const ROUTE = '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-scale/compare?old=scale-v2.2.0-7.1-os&new=scale-v2.2.0-7.500-os';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const DEBUG_PORT = 9400;

/** What `--out` writes (scripts/bench/report.ts reads it). */
export interface PlainFirstVisits {
  /** `painted`: the package diff drawn; `complete`: the compare complete (ms from the router push). */
  rounds: { painted: number; complete: number; cpuMs: Record<string, number> }[];
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${ name }`);

  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time in ms of each kind of process: Chromium's by `--type`, the emulator, by /proc. */
function cpuByProcess(): Map<string, number> {
  const ticks = new Map<string, number>();

  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${ pid }/cmdline`, 'utf8').split('\0').join(' ');
      const fields = readFileSync(`/proc/${ pid }/stat`, 'utf8').split(') ')[1].split(' ');
      let kind = '';

      if (command.split(' ')[0].includes('chromium')) {
        kind = /--utility-sub-type=network/.test(command) ? 'network service' : (/--type=(\S+)/.exec(command)?.[1] ?? 'browser');
      } else if (command.includes('emulator/core/main.ts')) {
        kind = 'emulator';
      }
      if (kind) {
        ticks.set(kind, (ticks.get(kind) ?? 0) + Number(fields[11]) + Number(fields[12]));
      }
    } catch {
      // The process ended while being read.
    }
  }

  return new Map([...ticks].map(([kind, t]) => [kind, t * 10]));
}

interface Answer { id: number; result?: unknown; error?: { message: string } }
type Settle = (message: Answer) => void;

/** A DevTools connection that only sends commands: no domain is enabled, so no events come. */
class Commands {
  private next = 0;
  private readonly waiting = new Map<number, Settle>();

  constructor(private readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as Answer;

      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    };
  }

  send<T>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.next;

    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (message) => (message.error ? reject(new Error(`${ method }: ${ message.error.message }`)) : resolve(message.result as T)));
      this.socket.send(JSON.stringify({
        id, method, params, sessionId
      }));
    });
  }
}

interface Evaluated { result: { value?: unknown }; exceptionDetails?: unknown }

async function evaluate(commands: Commands, session: string, expression: string): Promise<unknown> {
  const answer = await commands.send<Evaluated>('Runtime.evaluate', {
    expression, awaitPromise: true, returnByValue: true
  }, session);

  if (answer.exceptionDetails) {
    throw new Error(JSON.stringify(answer.exceptionDetails).slice(0, 400));
  }

  return answer.result.value;
}

async function waitFor(commands: Commands, session: string, expression: string): Promise<void> {
  const end = Date.now() + 120000;

  while (Date.now() < end) {
    if (await evaluate(commands, session, expression).catch(() => false)) {
      return;
    }
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${ expression }`);
}

/** The bench's own probe and measure (scripts/bench/browser.ts): router push → the frame after the compare is complete. */
const INSTALL_PROBE = `${ PAGE_NAME_HELPER }; (${ installProbe.toString() })(${ PREVIEW_DELAY_MS })`;
const VISIT = `window.osUpgradesBench.navigate(${ JSON.stringify(ROUTE) }, 'compare', ['imageCompare', 'packageDiff'], 120000)`;

const LOAD_PAGE_CODE = `(async () => {
  const router = document.querySelector('#app').__vue_app__.config.globalProperties.$router;
  const matched = router.resolve(${ JSON.stringify(ROUTE) }).matched;
  const component = matched[matched.length - 1].components.default;
  if (typeof component === 'function') await component();
  return true;
})()`;

async function round(base: string, args: string[]): Promise<{ painted: number; complete: number; cpu: Map<string, number> }> {
  const profile = mkdtempSync(join(tmpdir(), 'first-visit-plain-'));
  let chromium: ChildProcess | undefined;
  let socket: WebSocket | undefined;

  try {
    chromium = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run',
      `--user-data-dir=${ profile }`, `--remote-debugging-port=${ DEBUG_PORT }`, '--window-size=1400,900', ...args, 'about:blank'], { stdio: 'ignore' });
    let url = '';

    for (let i = 0; i < 100 && !url; i++) {
      url = await fetch(`http://127.0.0.1:${ DEBUG_PORT }/json/version`).then((r) => r.json()).then((v: { webSocketDebuggerUrl: string }) => v.webSocketDebuggerUrl, () => '');
      if (!url) {
        await sleep(100);
      }
    }
    socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket!.onopen = resolve;
      socket!.onerror = reject;
    });
    const commands = new Commands(socket);
    const { targetInfos } = await commands.send<{ targetInfos: { type: string; targetId: string }[] }>('Target.getTargets');
    const page = targetInfos.find((target) => target.type === 'page');
    const { sessionId } = await commands.send<{ sessionId: string }>('Target.attachToTarget', { targetId: page?.targetId, flatten: true });

    await commands.send('Page.navigate', { url: `${ base }/favicon.ico` }, sessionId);
    await waitFor(commands, sessionId, `location.origin === ${ JSON.stringify(new URL(base).origin) }`);
    // The dashboard's login (rancher/dashboard shell/store/auth.js `login`, local provider).
    await evaluate(commands, sessionId, `fetch('/v1-public/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${ JSON.stringify(JSON.stringify(loginBody('admin'))) } }).then((r) => r.status)`);
    await commands.send('Page.navigate', { url: `${ base }/os-upgrades/c/_/channels` }, sessionId);
    await waitFor(commands, sessionId, `!!document.querySelector('[data-testid="channels-table"] [data-testid="channel-link"]') && !document.querySelector('[data-testid="channel-count-loading"]')`);
    await evaluate(commands, sessionId, LOAD_PAGE_CODE);
    await evaluate(commands, sessionId, INSTALL_PROBE);
    await sleep(500);
    const before = cpuByProcess();
    const timing = await evaluate(commands, sessionId, VISIT) as NavTiming;
    const after = cpuByProcess();

    return {
      painted: timing.milestones.packageDiff, complete: timing.ms, cpu: new Map([...after].map(([kind, ms]) => [kind, ms - (before.get(kind) ?? 0)]))
    };
  } finally {
    socket?.close();
    chromium?.kill();
    await sleep(500);
    rmSync(profile, { recursive: true, force: true });
  }
}

(async() => {
  const base = option('base-url', 'https://localhost:8997').replace(/\/$/, '');
  const rounds = Number(option('rounds', '5'));
  const args = await networkArgs(base);
  const results: PlainFirstVisits = { rounds: [] };

  for (let i = 1; i <= rounds; i++) {
    const result = await round(base, args);

    results.rounds.push({
      painted: result.painted, complete: result.complete, cpuMs: Object.fromEntries(result.cpu)
    });
    process.stdout.write(`[first visit, no DevTools] round ${ i }: painted ${ result.painted.toFixed(0) } ms, complete ${ result.complete.toFixed(0) } ms; CPU ${ [...result.cpu].filter(([, ms]) => ms > 0).map(([kind, ms]) => `${ kind } ${ ms } ms`).join(', ') }\n`);
  }
  const complete = results.rounds.map((r) => r.complete).sort((a, b) => a - b);

  process.stdout.write(`[first visit, no DevTools] median complete ${ complete[Math.floor(complete.length / 2)].toFixed(0) } ms over ${ rounds }\n`);
  if (process.argv.includes('--out')) {
    writeFileSync(option('out', ''), `${ JSON.stringify(results, null, 1) }\n`);
  }
})().catch((err) => {
  process.stderr.write(`${ err instanceof Error ? err.stack : String(err) }\n`);
  process.exit(1);
});
