// The recorder's harness for a scenario with `operatorCrds: 'pr891'` (scenario.ts): the
// ManagedOSChangelog CRD of the Elemental operator's PR #891, read from the operator's git copy at
// the PR's head (its module is not served by the Go module proxy: README, "The real programs"),
// applied to the stack's API server for the scenario alone and deleted after it.
import { execFileSync } from 'node:child_process';
import yaml from 'js-yaml';

/** PR #891's head (rancher/elemental-operator "changelog: add proxy in the operator http server"). */
export const PR891_REF = process.env.ELEMENTAL_OPERATOR_PR891_REF ?? 'f970d6712c67';
const CRD_FILE = 'config/crd/bases/elemental.cattle.io_managedoschangelogs.yaml';
const CRD_NAME = 'managedoschangelogs.elemental.cattle.io';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Stack { kubeApi: string; steve: string; token: string }

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (await check()) {
      return;
    }
    await wait(250);
  }
  throw new Error(`${ what }: not within 60 s`);
}

export async function withPr891Crd<T>(stack: Stack, run: () => Promise<T>): Promise<T> {
  const git = process.env.ELEMENTAL_OPERATOR_GIT ?? '/work/.mirror/rancher+elemental-operator/repo';
  const crd = yaml.load(execFileSync('git', ['--git-dir', git, 'show', `${ PR891_REF }:${ CRD_FILE }`], { encoding: 'utf8' }));
  const headers = { authorization: `Bearer ${ stack.token }` };
  const applied = await fetch(`${ stack.kubeApi }${ CRDS }/${ CRD_NAME }?fieldManager=conformance&force=true`, {
    method: 'PATCH', headers: { ...headers, 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify(crd)
  });

  if (!applied.ok) {
    throw new Error(`applying ${ CRD_NAME }: ${ applied.status } ${ await applied.text() }`);
  }
  // Steve adds a type's schema when its watch of the CRDs sees it (rancher/steve pkg/schema/definitions),
  // and lists it once its SQL cache for the type has synced: until then, and while the cache of a
  // CRD deleted a moment ago is torn down, a list answers 500 "waiting for SQL cache sync".
  await until(`Steve listing ${ CRD_NAME }`, async() => (await fetch(`${ stack.steve }/v1/elemental.cattle.io.managedoschangelogs?pagesize=1`, { headers: { 'Impersonate-User': 'user-h5cqk', 'Impersonate-Group': 'system:authenticated' } })).status === 200);
  try {
    return await run();
  } finally {
    await fetch(`${ stack.kubeApi }${ CRDS }/${ CRD_NAME }`, { method: 'DELETE', headers });
    await until(`${ CRD_NAME } deleted`, async() => (await fetch(`${ stack.kubeApi }${ CRDS }/${ CRD_NAME }`, { headers })).status === 404);
  }
}
