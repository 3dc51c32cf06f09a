// Runs every scenario against the real stack (scripts/real-stack/up) and writes its exchanges to
// recordings/<scenario>.json. Run: scripts/real-stack/record (which starts the emulator the downstream
// scenarios go through), or REAL_STACK=1 yarn -s tsx tests/conformance/record.ts with REAL_STACK_EMULATOR set
// (SCENARIO=<name> for one).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialsFor } from './client';
import { Target, runScenario } from './run';
import { Recording, StackPart } from './scenario';
import { PR891_REF, withPr891Crd } from './operator-crds';
import { SCENARIOS } from './scenarios';

const ROOT = join(__dirname, '../..');

function endpoints(): Record<string, string> {
  const file = join(process.env.REAL_STACK_DIR ?? join(ROOT, '.real-stack'), 'endpoints.env');

  return Object.fromEntries(readFileSync(file, 'utf8').trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
}

/** The version a go.mod of tests/real-stack pins of a module. */
function pinned(moduleDir: string, module: string): string {
  const goMod = readFileSync(join(ROOT, 'tests/real-stack', moduleDir, 'go.mod'), 'utf8');

  return goMod.match(new RegExp(`\\s${ module.replace(/\./g, '\\.') } (v\\S+)`))?.[1] ?? 'unknown';
}

/** The API server's major.minor: a build from Go modules has no git version (its gitVersion is "v0.0.0-master+$Format:%H$"). */
async function kubernetesMinor(api: string): Promise<string> {
  const res = await fetch(`${ api }/version`, { headers: { authorization: 'Bearer real-stack-admin' } });
  const version = (await res.json()) as { major: string; minor: string };

  return `${ version.major }.${ version.minor }`;
}

/**
 * The emulator in front of the stack (REAL_STACK_EMULATOR, its URL: tests/emulator/core/main.ts
 * --backend real-stack --real-stack-downstream c-m-b3rl1n01, control endpoints on), each user
 * logged in as the browser is.
 */
async function emulatorTarget(): Promise<Target> {
  const base = process.env.REAL_STACK_EMULATOR;

  if (!base) {
    throw new Error('this scenario goes through the emulator in front of the stack: set REAL_STACK_EMULATOR to its URL (README, "The real programs")');
  }
  const credentials = await credentialsFor(async(username) => {
    const res = await fetch(`${ base }/v1-public/login`, {
      method:  'POST',
      headers: { 'content-type': 'application/json' },
      body:    JSON.stringify({
        type: 'localProvider', username, password: 'password1234', responseType: 'json'
      }),
    });

    return { authorization: `Bearer ${ ((await res.json()) as { token: string }).token }` };
  });

  return { base, credentials };
}

async function main() {
  if (process.env.REAL_STACK !== '1') {
    throw new Error('set REAL_STACK=1 and start scripts/real-stack/up first');
  }
  const stack = endpoints();

  // The API server's and Steve's certificates are their own self-signed ones; they are trusted only
  // when every endpoint is on loopback (Node's fetch takes no per-request agent without undici).
  if ([stack.REAL_STACK_KUBE_API, stack.REAL_STACK_STEVE].some((url) => new URL(url).hostname !== '127.0.0.1')) {
    throw new Error('the real stack must be on 127.0.0.1');
  }
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  // Rancher impersonates each user by its id; Steve's --enable-header-auth reads the same headers.
  const credentials = await credentialsFor((_name, id) => ({ 'Impersonate-User': id, 'Impersonate-Group': 'system:authenticated' }));
  const versions = {
    'k8s.io/kubernetes (kube-apiserver)': `${ pinned('kube', 'k8s.io/kubernetes') } (answers /version as ${ await kubernetesMinor(stack.REAL_STACK_KUBE_API) })`,
    'github.com/rancher/steve':           pinned('steve', 'github.com/rancher/steve'),
    'elemental-operator CRDs':            process.env.ELEMENTAL_OPERATOR_REF ?? 'v1.9.2',
    etcd:                                 stack.REAL_STACK_ETCD_VERSION ?? 'unknown',
    // The parts that may be left out (REAL_STACK_SKIP): named only when they ran.
    ...(stack.REAL_STACK_CONTROLLER_MANAGER ? { 'k8s.io/kubernetes (kube-controller-manager)': pinned('kube', 'k8s.io/kubernetes') } : {}),
    ...(stack.REAL_STACK_KWOK ? { 'sigs.k8s.io/kwok': pinned('kwok', 'sigs.k8s.io/kwok') } : {}),
    ...(stack.REAL_STACK_FLEET ? { 'github.com/rancher/fleet (fleetcontroller, fleetagent)': stack.REAL_STACK_FLEET } : {}),
  };

  const running: Record<StackPart, boolean> = {
    'kube-controller-manager': !!stack.REAL_STACK_CONTROLLER_MANAGER, kwok: !!stack.REAL_STACK_KWOK, fleet: !!stack.REAL_STACK_FLEET
  };

  // The emulator in front of the stack runs the Elemental operator's controllers as clients of the
  // real API server (a version's finalizer, a pool's Bundle): while it runs, the other scenarios would
  // record its work as the stack's. So the scenarios through it are recorded only with it, the
  // others only without it (scripts/real-stack/record runs both in turn).
  const throughEmulator = !!process.env.REAL_STACK_EMULATOR;

  for (const scenario of SCENARIOS.filter((s) => !process.env.SCENARIO || s.name === process.env.SCENARIO)) {
    const missing = (scenario.needs ?? []).filter((part) => !running[part]);

    if (!!scenario.throughEmulator !== throughEmulator) {
      process.stdout.write(`${ scenario.name }: not recorded in this pass (${ scenario.throughEmulator ? 'it goes through the emulator in front of the stack: REAL_STACK_EMULATOR' : 'the emulator in front of the stack would act on it' }; scripts/real-stack/record records both)\n`);
      continue;
    }

    if (missing.length) {
      process.stdout.write(`${ scenario.name }: not recorded, the stack runs no ${ missing.join(', ') } (its recording is kept)\n`);
      continue;
    }
    const record = async() => runScenario(scenario.throughEmulator ? await emulatorTarget() : { base: stack.REAL_STACK_STEVE, credentials }, scenario);
    const exchanges = scenario.operatorCrds === 'pr891' ? await withPr891Crd({
      kubeApi: stack.REAL_STACK_KUBE_API, steve: stack.REAL_STACK_STEVE, token: 'real-stack-admin'
    }, record) : await record();
    const recording: Recording = {
      scenario: scenario.name,
      about:    scenario.about,
      versions: scenario.operatorCrds === 'pr891' ? { ...versions, 'elemental-operator CRD ManagedOSChangelog': `PR #891's head ${ PR891_REF }` } : versions,
      exchanges,
    };

    writeFileSync(join(__dirname, 'recordings', `${ scenario.name }.json`), `${ JSON.stringify(recording, null, 2) }\n`);
    process.stdout.write(`${ scenario.name }: ${ exchanges.length } exchanges recorded\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`${ e instanceof Error ? e.stack : String(e) }\n`);
  process.exit(1);
});
