// Runs every scenario against the real stack (scripts/real-stack/up) and writes its exchanges to
// recordings/<scenario>.json. Run: REAL_STACK=1 yarn -s tsx tests/conformance/record.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Credentials, send } from './client';
import { normalise } from './normalise';
import { Exchange, Recording, USER_IDS } from './scenario';
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
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const res = await fetch(`${ api }/version`, { headers: { authorization: 'Bearer real-stack-admin' } });

  return ((await res.json()) as { gitVersion: string }).gitVersion;
}

async function main() {
  if (process.env.REAL_STACK !== '1') {
    throw new Error('set REAL_STACK=1 and start scripts/real-stack/up first');
  }
  const stack = endpoints();
  const steve = stack.REAL_STACK_STEVE;
  const credentials = Object.fromEntries(Object.entries(USER_IDS).map(([name, id]) => [
    name, { 'Impersonate-User': id, 'Impersonate-Group': 'system:authenticated' }
  ])) as Credentials;
  const versions = {
    'k8s.io/kubernetes (kube-apiserver)': await kubernetesVersion(stack.REAL_STACK_KUBE_API),
    'github.com/rancher/steve':           pinned('steve', 'github.com/rancher/steve'),
    'elemental-operator CRDs':            process.env.ELEMENTAL_OPERATOR_REF ?? 'v1.9.2',
    etcd:                                 'Debian etcd-server',
  };

  for (const scenario of SCENARIOS) {
    const only = process.env.SCENARIO;

    if (only && only !== scenario.name) {
      continue;
    }
    const exchanges: Exchange[] = [];

    for (const step of scenario.steps) {
      if (step.settleMs) {
        await new Promise((resolve) => setTimeout(resolve, step.settleMs));
      }
      const answer = await send(steve, credentials, step.request);

      exchanges.push({ request: step.request, compare: step.compare, response: { status: answer.status, body: normalise(answer.body, steve) } });
      console.log(`${ scenario.name }: ${ step.request.user } ${ step.request.method } ${ step.request.path } → ${ answer.status }`);
    }
    const recording: Recording = {
      scenario: scenario.name, about: scenario.about, versions, exchanges
    };

    writeFileSync(join(__dirname, 'recordings', `${ scenario.name }.json`), `${ JSON.stringify(recording, null, 2) }\n`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
