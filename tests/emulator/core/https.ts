// The TLS listener: HTTP/2, and HTTP/1.1 for clients that ask for it (ALPN), as a Rancher behind
// its ingress serves the dashboard (rancher/rancher's chart: ingress-nginx, which speaks HTTP/2
// to browsers by default). Same handlers as the plain listener; websockets use HTTP/1.1 there too.
// Node's crypto makes the key but cannot make an X.509 certificate; `selfsigned` signs one at start.

import crypto from 'crypto';
import http from 'http';
import http2 from 'http2';
import selfsigned from 'selfsigned';
import { EmulatorServer } from './server';

export interface Certificate {
  key: string;
  cert: string;
}

/** A self-signed certificate for localhost and 127.0.0.1, valid for 30 days. */
export function selfSignedCertificate(): Certificate {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength:      2048,
    publicKeyEncoding:  { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // selfsigned 2.4.1 signs with a given `keyPair` (its index.js) though its types leave it out;
  // without one it makes the key in JavaScript, which takes seconds on a busy machine.
  const options = {
    keyPair:    { privateKey, publicKey },
    days:       30,
    algorithm:  'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  };
  const pems = selfsigned.generate([{ name: 'commonName', value: 'localhost' }], options);

  return { key: pems.private, cert: pems.cert };
}

export interface HttpsListener {
  server: http2.Http2SecureServer;
  port: number;
  close(): Promise<void>;
}

export function listenHttps(emulatorServer: EmulatorServer, port: number, host: string, certificate = selfSignedCertificate()): Promise<HttpsListener> {
  // The compatibility API's request and response have the members the handlers use (headers,
  // url, method, statusCode, setHeader, end, socket); HTTP/1.1 requests get node's http ones.
  // Node refuses a session's new streams (ENHANCE_YOUR_CALM, Chromium's ERR_HTTP2_PROTOCOL_ERROR)
  // once it buffers more than maxSessionMemory (10 MB by default): a build that lists 20,000
  // versions (43 MB) lost its next requests. Rancher's Go server (golang.org/x/net/http2 server.go)
  // has no such cap; its streams wait on flow control.
  const server = http2.createSecureServer({
    ...certificate, allowHTTP1: true, maxSessionMemory: 1024
  }, (req, res) => {
    emulatorServer.onRequest(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
  });

  server.on('upgrade', emulatorServer.onUpgrade);

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();

      resolve({
        server,
        port:  typeof address === 'object' && address ? address.port : port,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      });
    });
  });
}
