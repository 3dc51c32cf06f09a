// HTTPS to the real stack's programs on loopback (scripts/real-stack/up): their certificates are
// their own self-signed ones, trusted only when the host is 127.0.0.1 or localhost, as the
// conformance recorder does (tests/conformance/record.ts). Steve's is the one rancher/dynamiclistener
// makes for itself (factory/ca.go, factory/gen.go); the API server's is the one it makes in its --cert-dir
// (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/server/options/serving.go MaybeDefaultWithSelfSignedCerts).

import http from 'http';
import https from 'https';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });

export function assertLoopback(url: string): void {
  if (!LOOPBACK.includes(new URL(url).hostname)) {
    throw new Error(`the real stack must be on loopback, got ${ url }`);
  }
}

/** Sends one request and reads the whole answer. */
export function requestOnce(url: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = openRequest(url, method, headers, (res) => {
      const chunks: Buffer[] = [];

      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks)
      }));
      res.on('error', reject);
    });

    req.on('error', reject);
    req.end(body);
  });
}

/** Starts a request whose answer is read as it comes (a watch, or an answer passed on as a stream). */
export function openRequest(url: string, method: string, headers: Record<string, string>, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest {
  const target = new URL(url);

  assertLoopback(url);
  const options: https.RequestOptions = {
    method, headers, hostname: target.hostname, port: target.port, path: `${ target.pathname }${ target.search }`
  };

  return target.protocol === 'https:' ? https.request({ ...options, agent }, onResponse) : http.request(options, onResponse);
}
