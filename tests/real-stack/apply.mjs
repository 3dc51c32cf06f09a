// Applies to the real stack's API server (server-side apply, as kubectl apply --server-side): the
// Elemental operator's CRDs, read from its git repository at a release tag (the operator's module is
// not served by the Go module proxy, see the README), Fleet's CRDs when given (FLEET_CRDS: the file
// charts/fleet-crd/templates/crds.yaml of the github.com/rancher/fleet module scripts/real-stack/up
// downloaded), then rbac.yaml and each further file named after the kubeconfig.
// Usage: node apply.mjs KUBECONFIG [MANIFEST...]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

// The API server's certificate is self-signed, made by it at start, on loopback.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const here = dirname(fileURLToPath(import.meta.url));
const config = yaml.load(readFileSync(process.argv[2], 'utf8'));
const server = config.clusters[0].cluster.server;
const token = config.users[0].user.token;
const operatorGit = process.env.ELEMENTAL_OPERATOR_GIT ?? '/work/.mirror/rancher+elemental-operator/repo';
const operatorRef = process.env.ELEMENTAL_OPERATOR_REF ?? 'v1.9.2';

function pathOf(object) {
  const plural = `${ object.kind.toLowerCase() }s`;
  const base = object.apiVersion.includes('/') ? `/apis/${ object.apiVersion }` : `/api/${ object.apiVersion }`;
  const namespace = object.metadata.namespace ? `/namespaces/${ object.metadata.namespace }` : '';

  return `${ base }${ namespace }/${ plural }/${ object.metadata.name }`;
}

async function apply(object) {
  const res = await fetch(`${ server }${ pathOf(object) }?fieldManager=real-stack&force=true`, {
    method:  'PATCH',
    headers: { authorization: `Bearer ${ token }`, 'content-type': 'application/apply-patch+yaml' },
    body:    JSON.stringify(object),
  });

  if (!res.ok) {
    throw new Error(`${ object.kind } ${ object.metadata.name }: ${ res.status } ${ await res.text() }`);
  }
}

async function established(name) {
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${ server }/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${ name }`, { headers: { authorization: `Bearer ${ token }` } });
    const crd = await res.json();

    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`CRD ${ name } not established`);
}

function operatorCrds() {
  if (!existsSync(operatorGit)) {
    console.error(`[real-stack] no Elemental operator repository at ${ operatorGit } (ELEMENTAL_OPERATOR_GIT): its CRDs are not installed`);

    return [];
  }
  const git = (...args) => execFileSync('git', ['--git-dir', operatorGit, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const files = git('ls-tree', '--name-only', `${ operatorRef }:config/crd/bases`).split('\n').filter((f) => f.endsWith('.yaml'));

  return files.map((f) => yaml.load(git('show', `${ operatorRef }:config/crd/bases/${ f }`)));
}

function fleetCrds() {
  return process.env.FLEET_CRDS ? yaml.loadAll(readFileSync(process.env.FLEET_CRDS, 'utf8')).filter(Boolean) : [];
}

const crds = [...operatorCrds(), ...fleetCrds()];

for (const crd of crds) {
  await apply(crd);
}
for (const crd of crds) {
  await established(crd.metadata.name);
}
for (const file of [join(here, 'rbac.yaml'), ...process.argv.slice(3)]) {
  for (const object of yaml.loadAll(readFileSync(file, 'utf8')).filter(Boolean)) {
    await apply(object);
  }
}
console.error(`[real-stack] applied ${ crds.length } CRDs (elemental-operator ${ operatorRef }${ process.env.FLEET_CRDS ? ' and Fleet' : '' }), rbac.yaml${ process.argv.length > 3 ? ` and ${ process.argv.slice(3).join(', ') }` : '' }`);
