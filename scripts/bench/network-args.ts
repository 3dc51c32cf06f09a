/**
 * What the bench's Chromium needs to use the network as a person's browser uses Rancher's:
 *
 * - Offline but for the emulator (the dashboard asks updates.rancher.io for news): every other
 *   host name fails to resolve. Not Playwright's `context.route`, which turns the HTTP cache off
 *   for the whole context (every request then goes through its interception).
 * - The emulator's self-signed certificate trusted (its public key's SHA-256 in
 *   --ignore-certificate-errors-spki-list), not ignored (`ignoreHTTPSErrors`): Chromium keeps
 *   nothing in its HTTP cache from a connection with a certificate error, so a new tab fetched
 *   every file again, which a browser trusting Rancher's certificate does not.
 */
import { createHash } from 'crypto';
import { connect } from 'tls';

/** The base64 SHA-256 of the server's public key (SPKI), for Chromium's list of keys to trust. */
function publicKeyHash(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host, port, servername: host, rejectUnauthorized: false
    }, () => {
      const spki = socket.getPeerX509Certificate()?.publicKey.export({ type: 'spki', format: 'der' });

      socket.end();
      if (spki) {
        resolve(createHash('sha256').update(spki).digest('base64'));
      } else {
        reject(new Error(`no certificate from ${ host }:${ port }`));
      }
    });

    socket.on('error', reject);
  });
}

/** Chromium's arguments for a bench against `baseUrl` (http: only the host rule). */
export async function networkArgs(baseUrl: string): Promise<string[]> {
  const url = new URL(baseUrl);
  const args = [`--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${ url.hostname }`];

  if (url.protocol === 'https:') {
    args.push(`--ignore-certificate-errors-spki-list=${ await publicKeyHash(url.hostname, Number(url.port || 443)) }`);
  }

  return args;
}
