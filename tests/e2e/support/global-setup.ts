// Once per run: the specs' file host (file-server.ts) on a folder of its own. Workers learn where it
// is from E2E_FILES_DIR and E2E_FILES_URL (Playwright passes the runner's environment to them).
// E2E_FILES_HOST / E2E_FILES_PORT choose where it listens (default 127.0.0.1 and any free port);
// E2E_FILES_CLUSTER_URL is how a real Rancher's operator reaches it (e.g. http://host.k3d.internal:8997)
// when that differs from the browser's E2E_FILES_URL.

import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { startFileServer } from './file-server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'os-upgrades-e2e-files-'));
  const server = await startFileServer(dir, process.env.E2E_FILES_HOST || '127.0.0.1', Number(process.env.E2E_FILES_PORT || 0));

  process.env.E2E_FILES_DIR = dir;
  process.env.E2E_FILES_URL = server.url;

  return async() => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
