// Runs every scenario against the real stack (scripts/real-stack/up) and writes its exchanges to
// recordings/<scenario>.json. Run: REAL_STACK=1 yarn -s tsx tests/conformance/record.ts
// (SCENARIO=<name> for one).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialsFor } from './client';
import { runScenario } from './run';
import { Recording } from './scenario';
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

async function kubernetesVersion(api: string): Promise<string> {
  // The API server's certificate is its own self-signed one, on loopback.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const res = await fetch(`${ api }/version`, { headers: { authorization: 'Bearer real-stack-admin' } });

  return ((await res.json()) as { gitVersion: string }).gitVersion;
}

async function main() {
  if (process.env.REAL_STACK !== '1') {
    throw new Error('set REAL_STACK=1 and start scripts/real-stack/up first');
  }
  const stack = endpoints();
  // Rancher impersonates each user by its id; Steve's --enable-header-auth reads the same headers.
  const credentials = await credentialsFor((_name, id) => ({ 'Impersonate-User': id, 'Impersonate-Group': 'system:authenticated' }));
  const versions = {
    'k8s.io/kubernetes (kube-apiserver)': await kubernetesVersion(stack.REAL_STACK_KUBE_API),
    'github.com/rancher/steve':           pinned('steve', 'github.com/rancher/steve'),
    'elemental-operator CRDs':            process.env.ELEMENTAL_OPERATOR_REF ?? 'v1.9.2',
    etcd:                                 stack.REAL_STACK_ETCD_VERSION ?? 'unknown',
  };

  for (const scenario of SCENARIOS.filter((s) => !process.env.SCENARIO || s.name === process.env.SCENARIO)) {
    const exchanges = await runScenario({ base: stack.REAL_STACK_STEVE, credentials }, scenario);
    const recording: Recording = {
      scenario: scenario.name, about: scenario.about, versions, exchanges
    };

    writeFileSync(join(__dirname, 'recordings', `${ scenario.name }.json`), `${ JSON.stringify(recording, null, 2) }\n`);
    process.stdout.write(`${ scenario.name }: ${ exchanges.length } exchanges recorded\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`${ e instanceof Error ? e.stack : String(e) }\n`);
  process.exit(1);
});
