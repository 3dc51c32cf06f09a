/**
 * The floor under the 500-image compare's first visit: how long the browser alone takes to fetch
 * the update logs of the 499 versions it spans, doing nothing with them (no parsing, no page), at
 * several concurrencies, with XMLHttpRequest (what axios uses in a browser) and with fetch. The
 * browser's HTTP cache is emptied before each round: the files are served `immutable`, and a
 * `Cache-Control: no-store` request header does not keep XMLHttpRequest from the cache.
 *
 *   node_modules/.bin/tsx scripts/bench/request-floor.ts --base-url https://localhost:8997 [--rounds 3]
 *
 * Against an emulator started as scripts/bench/run starts it (20,000 versions: the scale channel's
 * images 7.1 to 7.500). The page's own time is the bench's "first visit, complete"; the difference
 * is what the page adds.
 */
import { chromium } from '@playwright/test';
import { loginAs } from '../../tests/e2e/support/login';
import { networkArgs } from './network-args';

const SPAN = 499;
const CONCURRENCY = [8, 32, 64, 96];
const KINDS = ['xhr', 'fetch'] as const;

type Kind = typeof KINDS[number];

function log(message: string): void {
  process.stdout.write(`[request floor] ${ message }\n`);
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${ name }`);

  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** In the page: every file once, `concurrency` at a time, the cache bypassed. Answers the time in ms. */
function fetchAll([kind, concurrency, span]: [Kind, number, number]): Promise<number> {
  const paths = Array.from({ length: span }, (_, i) => `/changelog-files/scale-v2.2.0-7.${ i + 2 }-os.updates.log`);
  const viaXhr = (path: string) => new Promise<void>((resolve) => {
    const request = new XMLHttpRequest();

    request.open('GET', path);
    request.responseType = 'text';
    request.onloadend = () => resolve();
    request.send();
  });
  const viaFetch = (path: string) => fetch(path, { cache: 'no-store' }).then((response) => response.text()).then(() => undefined);
  const start = performance.now();
  let next = 0;
  const worker = async() => {
    while (next < paths.length) {
      const path = paths[next++];

      await (kind === 'fetch' ? viaFetch(path) : viaXhr(path));
    }
  };

  return Promise.all(Array.from({ length: concurrency }, worker)).then(() => performance.now() - start);
}

async function main(): Promise<void> {
  const baseUrl = option('base-url', 'https://localhost:8997');
  const rounds = Number(option('rounds', '3'));
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', args: await networkArgs(baseUrl) });

  try {
    const context = await browser.newContext({ baseURL: baseUrl, ignoreHTTPSErrors: true });

    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    const page = await context.newPage();

    await loginAs(page, 'admin');
    await page.goto('/favicon.png');
    const cdp = await context.newCDPSession(page);

    for (const concurrency of CONCURRENCY) {
      for (const kind of KINDS) {
        const times: number[] = [];

        for (let round = 0; round < rounds; round++) {
          // The files are immutable: without this every round but the first is answered by the HTTP cache.
          await cdp.send('Network.clearBrowserCache');
          times.push(await page.evaluate(fetchAll, [kind, concurrency, SPAN] as [Kind, number, number]));
        }
        times.sort((a, b) => a - b);
        log(`${ SPAN } update logs, ${ concurrency } at once, ${ kind }: median ${ times[Math.floor(times.length / 2)].toFixed(0) } ms (min ${ times[0].toFixed(0) }, max ${ times[times.length - 1].toFixed(0) })`);
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${ err instanceof Error ? err.stack : String(err) }\n`);
  process.exit(1);
});
