// The specs' own file host: serves a folder over HTTP as an administrator's web server serves channel
// files and changelogs, so that a spec can publish a channel the Elemental operator syncs (type
// `json`, rancher/elemental-operator pkg/syncer/syncer.go, JSONSyncer, fetches `spec.options.uri`) and
// changelogs the page fetches from another origin (CORS, no credentials: api/changelog-client.ts).
// Started once per run by global-setup.ts; specs write into its folder (support/seed.ts).

import { createServer, Server } from 'http';
import { promises as fs } from 'fs';
import { join, normalize } from 'path';

export interface FileServer {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.json': 'application/json', '.log': 'text/plain; charset=utf-8', '.packages': 'text/plain; charset=utf-8', '.tar': 'application/x-tar'
};

function contentType(path: string): string {
  const suffix = Object.keys(TYPES).find((s) => path.endsWith(s));

  return suffix ? TYPES[suffix] : 'application/octet-stream';
}

export async function startFileServer(dir: string, host: string, port: number): Promise<FileServer> {
  const server: Server = createServer(async(req, res) => {
    const path = normalize(decodeURIComponent((req.url || '/').split('?')[0]));

    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('cache-control', 'no-store');
    if (path.includes('..') || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.end();

      return;
    }
    try {
      const body = await fs.readFile(join(dir, path));

      res.setHeader('content-type', contentType(path));
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;

  return {
    url:   `http://${ host === '0.0.0.0' ? '127.0.0.1' : host }:${ boundPort }`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
