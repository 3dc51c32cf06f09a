/** @jest-environment node */
/* global beforeAll, afterAll */
// Replays every scenario of tests/conformance against the emulator and compares each answer with
// its recording on the real stack (real kube-apiserver, Steve and the Elemental operator's CRDs;
// scripts/real-stack/up): what the extension relies on (tests/conformance/scenario.ts, Comparison).
import { readFileSync, readdirSync } from 'fs';
import path from 'path';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';
import { Credentials, credentialsFor } from '../../conformance/client';
import { KNOWN_DIFFERENCES } from '../../conformance/known-differences';
import { canonicalJson, projection } from '../../conformance/normalise';
import { runScenario } from '../../conformance/run';
import { Exchange, Recording, UserName } from '../../conformance/scenario';
import { SCENARIOS } from '../../conformance/scenarios';

const ROOT = path.resolve(__dirname, '../../..');
const RECORDINGS = path.join(ROOT, 'tests/conformance/recordings');
const recordings = new Map<string, Recording>(readdirSync(RECORDINGS).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(RECORDINGS, f), 'utf8')) as Recording).map((r) => [r.scenario, r]));

let running: RunningEmulator;
let credentials: Credentials;

async function token(url: string, username: UserName): Promise<string> {
  const res = await fetch(`${ url }/v1-public/login`, {
    method:  'POST',
    headers: { 'content-type': 'application/json' },
    body:    JSON.stringify({
      type: 'localProvider', username, password: 'password1234', responseType: 'json'
    }),
  });

  return ((await res.json()) as { token: string }).token;
}

async function emulator(timeScale: number, rolloutStepMs: number, changelogService = 'operator'): Promise<{ running: RunningEmulator; credentials: Credentials }> {
  const options = parseOptions([
    '--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', '--time-scale', String(timeScale), '--rollout-step-ms', String(rolloutStepMs), '--changelog-service', changelogService,
  ], {}, ROOT);
  const started = await startEmulator(options);

  return { running: started, credentials: await credentialsFor(async(name) => ({ authorization: `Bearer ${ await token(started.url, name) }` })) };
}

beforeAll(async() => {
  ({ running, credentials } = await emulator(0, 20));
});

afterAll(async() => {
  await running.close();
});

/** What the replay compares of an exchange: the request as sent, and the answer's projection. */
function compared(exchange: Exchange): string {
  if ('watch' in exchange) {
    return canonicalJson({ watch: exchange.watch, events: [...exchange.events].sort() });
  }

  return canonicalJson({ request: exchange.request, answer: projection(exchange.compare, exchange.response.status, exchange.response.body) });
}

function describeExchange(exchange: Exchange): string {
  return 'watch' in exchange ? `watch ${ canonicalJson(exchange.watch.subscribe) }` : `${ exchange.request.user } ${ exchange.request.method } ${ exchange.request.path }`;
}

const recorded = SCENARIOS.filter((s) => recordings.has(s.name));

// A scenario not yet run on the real stack is reported as skipped (counted in the closing line),
// never as passed.
for (const scenario of SCENARIOS.filter((s) => !recordings.has(s.name))) {
  it.skip(`${ scenario.name }: no recording made on the real stack yet (scripts/real-stack/up, then REAL_STACK=1 tests/conformance/record.ts)`, () => undefined);
}

for (const scenario of recorded) {
  const name = scenario.name;

  it(`the emulator answers as the real stack: ${ name }`, async() => {
    const recording = recordings.get(name) as Recording;
    const own = scenario.replayEmulator && await emulator(scenario.replayEmulator.timeScale, scenario.replayEmulator.rolloutStepMs, scenario.replayEmulator.changelogService);
    const target = own ?? { running, credentials };
    const replayed = await runScenario({
      base: target.running.url, credentials: target.credentials, waitScale: 0.2
    }, scenario).finally(() => own?.running.close());
    const differences: string[] = [];

    // A scenario changed since its recording must be recorded again.
    expect(replayed.map(describeExchange)).toEqual(recording.exchanges.map(describeExchange));
    for (const [index, exchange] of replayed.entries()) {
      const key = `${ name }#${ index }`;
      const real = compared(recording.exchanges[index]);
      const emulated = compared(exchange);

      if (real !== emulated && !KNOWN_DIFFERENCES[key]) {
        differences.push(`${ key } ${ describeExchange(exchange) }\n  real:     ${ real }\n  emulator: ${ emulated }`);
      }
      if (real === emulated && KNOWN_DIFFERENCES[key]) {
        differences.push(`${ key } is listed in known-differences.ts but now answers as the real stack: remove it there`);
      }
    }
    expect(differences).toEqual([]);
  }, 30000);
}
