// Where the real stack answers (`--backend real-stack`): the endpoints scripts/real-stack/up
// writes to <REAL_STACK_DIR or .real-stack>/endpoints.env, or the same REAL_STACK_* variables:
// Steve's HTTPS listener (rancher/steve main.go, its --https-listen-port) and the kube-apiserver's
// secure port (kubernetes/kubernetes cmd/kube-apiserver, --secure-port).

import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { assertLoopback } from './https-client';

export interface RealStackEndpoints {
  /** Steve's HTTPS port (REAL_STACK_STEVE). */
  steve: string;
  /** The kube-apiserver (REAL_STACK_KUBE_API). */
  kubeApi: string;
  /** The token of the stack's admin (scripts/real-stack/up's tokens.csv), for the controllers' writes and to impersonate users on the API server. */
  adminToken: string;
}

export const ADMIN_TOKEN = 'real-stack-admin';

function parseEnvFile(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

export function realStackEndpoints(env: NodeJS.ProcessEnv, root: string): RealStackEndpoints {
  const file = join(env.REAL_STACK_DIR || join(root, '.real-stack'), 'endpoints.env');
  const values = { ...(existsSync(file) ? parseEnvFile(readFileSync(file, 'utf8')) : {}), ...env };
  const steve = values.REAL_STACK_STEVE;
  const kubeApi = values.REAL_STACK_KUBE_API;

  if (!steve || !kubeApi) {
    throw new Error(`--backend real-stack: no REAL_STACK_STEVE and REAL_STACK_KUBE_API (start scripts/real-stack/up; read ${ file })`);
  }
  assertLoopback(steve);
  assertLoopback(kubeApi);

  return {
    steve: steve.replace(/\/$/, ''), kubeApi: kubeApi.replace(/\/$/, ''), adminToken: values.REAL_STACK_ADMIN_TOKEN || ADMIN_TOKEN
  };
}
