// Issue 25: no credentials leave the origin. A changelog URL on the dashboard's own origin that
// answers a redirect to another port of the same host is not used: no cookie or CSRF header is
// sent there, and the page says where the answer came from. Only the emulator can make Rancher's own
// origin answer that redirect (fault injection), so the test is @emulator; a changelog host
// that redirects elsewhere is refused by the same rule (api/changelog-url.ts redirectRefusal).

import { createServer, IncomingHttpHeaders, Server } from 'http';
import { AddressInfo } from 'net';
import { EMULATOR_TAG, useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { BASE_CHANNEL_PAGE } from './support/names';

const VERSION = 'base-v2.2.0-3.12-os';

const emulator = useEmulator('fault injection');

/** Another origin on this host: it records each request's headers and serves an empty update log to anyone. */
async function otherOrigin(): Promise<{ origin: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end('[]');
  });

  await new Promise<void>((resolve) => server.listen(0, resolve));

  return {
    origin: `http://localhost:${ (server.address() as AddressInfo).port }`, seen, server
  };
}

test('a changelog redirected to another port is refused, saying where, and no credentials were sent there', { tag: EMULATOR_TAG }, async({ page }) => {
  const other = await otherOrigin();

  try {
    await loginAs(page, 'admin');
    await emulator.control.addFault({ path: `*/${ VERSION }.updates.log`, location: `${ other.origin }/${ VERSION }.updates.log` });
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }?version=${ VERSION }`));
    await expect(page.getByTestId('version-changelog').getByTestId('file-error')).toContainText(`the server redirected to ${ other.origin }`);
    expect(other.seen.length).toBeGreaterThan(0);
    for (const headers of other.seen) {
      expect(headers.cookie ?? '').not.toMatch(/R_SESS|CSRF/);
      expect(headers['x-api-csrf']).toBeUndefined();
    }
  } finally {
    other.server.close();
  }
});
