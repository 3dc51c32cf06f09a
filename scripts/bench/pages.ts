/**
 * The pages on a large Rancher (issue 19): against an emulator started with
 * `--scale-versions 20000 --scale-channels 40 --scale-pools 200 --scale-clusters 50`, each page's
 * first paint after login with nothing in the store (cold), warm navigations, the bytes each page
 * transfers, and the JS heap after a GC. scripts/bench/run calls it twice on the same data: for
 * this package and for the baseline build (the load-everything approach), `--label` naming which.
 *
 *   node_modules/.bin/tsx scripts/bench/pages.ts --base-url https://localhost:8997 --label new --out pages.json [--runs 20] [--profile DIR|none]
 *
 * For each page it keeps, in the profile folder (bench/results/profiles/pages by default, not
 * committed), the request waterfall of its cold visit (<label>.<page>.cold.waterfall.json); a CPU
 * profile, a Chromium trace and the waterfall of one more cold visit in another fresh tab
 * (<label>.<page>.cold-profiled.cpuprofile, .trace.json, .waterfall.json) and of one more warm
 * visit after the timed ones (<label>.<page>.warm.*); index.json sums them up.
 *
 * A navigation is timed in the page from the Vue router push to the first frame painted after
 * the page shows what it is for (the conditions below), as in browser.ts.
 */
import { writeFileSync } from 'fs';
import { BrowserContext, CDPSession, chromium, Page } from '@playwright/test';
import { loginAs } from '../../tests/e2e/support/login';
import { networkArgs } from './network-args';
import { profiled, Recorder, withWaterfall, writeProfileIndex } from './step-recording';

const PRODUCT = '/os-upgrades/c/_';
const NAMESPACE = 'fleet-default';
const SCALE_CHANNEL = 'sl-micro-6.1-scale';
const SETTLE_MS = 150;
const TIMEOUT_MS = 180_000;
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--enable-precise-memory-info',
];

export interface PageSpec {
  name: string;
  path: string;
  /** The same page's path in a build from before a route moved (the baseline, `--baseline-routes`). */
  baselinePath?: string;
  /** What the page shows when it is done: every one of these CSS selectors matches. */
  ready: string[];
  /** Shown while part of it still loads: the page is not done while one matches. */
  busy: string;
}

/** The 500-image compare: the oldest and newest of the 500-version scale channel. */
export const LARGE_OLD = 'scale-v2.2.0-7.1-os';
export const LARGE_NEW = 'scale-v2.2.0-7.500-os';

export const PAGES: PageSpec[] = [
  {
    name: 'channels list', path: `${ PRODUCT }/channels`, ready: ['[data-testid="channels-table"] [data-testid="channel-link"]'], busy: '[data-testid="channel-count-loading"]'
  },
  {
    name:  'channel page (500 versions)',
    path:  `${ PRODUCT }/channels/${ NAMESPACE }/${ SCALE_CHANNEL }`,
    ready: ['[data-testid="container-versions"] [data-testid^="version-"]'],
    busy:  '.channel-page > .loading',
  },
  {
    name:  'compare of 500 images',
    path:  `${ PRODUCT }/channels/${ NAMESPACE }/${ SCALE_CHANNEL }/compare?old=${ LARGE_OLD }&new=${ LARGE_NEW }`,
    // Complete: the package diff and the advisories of all 499 logs aggregated (browser.ts's `compare`).
    ready: ['[data-testid="image-compare"] [data-testid="package-diff"]', '[data-testid="advisories"] [data-testid="severity-summary"], [data-testid="advisories"] [data-testid="no-advisories"]'],
    busy:  '[data-testid="image-compare"] .loading',
  },
  {
    name: 'pools list (200 pools)', path: `${ PRODUCT }/pools`, ready: ['[data-testid="pools-table"] [data-testid="pool-name"]'], busy: '[data-testid="pool-versions-loading"]'
  },
  {
    // A pool's form (scale-pool-001 stores a selector on its channel), ready to edit: its first tab's
    // fields drawn with the pool's values. The other tabs are drawn when first opened (the selector's
    // preview is timed by browser.ts); the baseline drew every tab at once, at the pool's path.
    name:         'pool form',
    path:         `${ PRODUCT }/pools/${ NAMESPACE }/scale-pool-001/edit`,
    baselinePath: `${ PRODUCT }/pools/${ NAMESPACE }/scale-pool-001`,
    ready:        ['[data-testid="pool-name-input"], [data-testid="selector-preview"][aria-busy="false"]'],
    busy:         '[data-testid="pool-form-loading"]',
  },
];

interface Options {
  baseUrl: string;
  label: string;
  out: string;
  runs: number;
  /** The build's routes are the baseline's (pages' `baselinePath`). */
  baselineRoutes: boolean;
  /** Only the pages whose name contains one of these (`--pages a,b`); every page when empty. */
  only: string[];
  /** Where each page's waterfalls, CPU profile and trace are written; undefined with `--profile none`. */
  profileDir?: string;
}

export interface PageResult {
  name: string;
  /** Cold: a fresh tab after login, nothing in the store; from the push to the page's paint. */
  coldMs: number;
  /** Bytes on the wire (compressed, headers included) from the push until done. */
  coldBytes: number;
  coldRequests: number;
  /** The package's JS files the tab loaded, dashboard start included, until the page was done. */
  packageFiles: string[];
  /** Warm: later visits, each after visiting the other pages. */
  warmMs: number[];
}

export interface PagesResults {
  label: string;
  chromium: string;
  runs: number;
  protocol: string;
  pages: PageResult[];
  /** JSHeapUsedSize after a forced GC, once every page was visited `runs` times. */
  heapAfterGcBytes: number;
  error?: string;
}

interface ProbeWindow {
  osUpgradesPages?: { navigate(path: string, ready: string[], busy: string, timeoutMs: number): Promise<number> };
}

/** In the page: push the route, resolve with the ms to the first frame after the page is done. */
function installProbe(): void {
  const win = window as unknown as ProbeWindow;

  if (win.osUpgradesPages) {
    return;
  }
  const app = document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $router: { push(p: string): Promise<unknown> } } } } };
  const router = app.__vue_app__.config.globalProperties.$router;
  const nextPaint = () => new Promise<number>((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();

      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    });
  });

  win.osUpgradesPages = {
    navigate(path, ready, busy, timeoutMs) {
      const done = () => ready.every((selector) => !!document.querySelector(selector)) && !document.querySelector(busy);
      const start = performance.now();

      return new Promise<number>((resolve, reject) => {
        const finish = () => {
          observer.disconnect();
          clearTimeout(timer);
          nextPaint().then((at) => resolve(at - start));
        };
        const observer = new MutationObserver(() => {
          if (done()) {
            finish();
          }
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`${ path } not done after ${ timeoutMs } ms`));
        }, timeoutMs);

        observer.observe(document.body, {
          childList: true, subtree: true, attributes: true
        });
        router.push(path).catch(() => undefined).then(() => {
          if (done()) {
            finish();
          }
        });
      });
    },
  };
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    baseUrl: 'https://localhost:8997', label: 'new', out: 'bench/results/pages.json', runs: 20, baselineRoutes: false, only: [], profileDir: 'bench/results/profiles/pages'
  };

  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];

    if (flag === '--baseline-routes') {
      options.baselineRoutes = true;
      i--;
    } else if (flag === '--base-url') {
      options.baseUrl = value.replace(/\/$/, '');
    } else if (flag === '--label') {
      options.label = value;
    } else if (flag === '--out') {
      options.out = value;
    } else if (flag === '--runs') {
      options.runs = Number(value);
    } else if (flag === '--pages') {
      options.only = value.split(',').map((name) => name.trim()).filter(Boolean);
    } else if (flag === '--profile') {
      options.profileDir = value === 'none' ? undefined : value;
    } else {
      throw new Error(`unknown option ${ flag } (--base-url URL, --label NAME, --out FILE, --runs N, --pages NAME,…, --baseline-routes, --profile DIR|none)`);
    }
  }

  return options;
}

function log(message: string): void {
  process.stderr.write(`[bench pages] ${ message }\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A file name's part for a label or page name ("pools list (200 pools)" → "pools-list-200-pools"). */
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** A tab with the dashboard loaded (the session's cookie, an empty store) and the probe. */
async function freshTab(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession; packageFiles: Set<string> }> {
  const page = await context.newPage();
  const packageFiles = new Set<string>();

  page.on('request', (request) => {
    const file = /\/v1\/uiplugins\/.*\/([^/?]+\.js)(\?|$)/.exec(request.url())?.[1];

    if (file) {
      packageFiles.add(file);
    }
  });

  page.setDefaultTimeout(TIMEOUT_MS);
  page.on('pageerror', (error) => log(`page error: ${ error.message }`));
  // A page cancels requests as it goes (ERR_ABORTED); any other failure is the server's or the connection's.
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';

    if (!error.includes('ERR_ABORTED')) {
      log(`request failed: ${ request.url().slice(0, 200) } ${ error }`);
    }
  });
  await page.goto('/home');
  await page.waitForFunction(() => !!(document.querySelector('#app') as unknown as { __vue_app__?: unknown } | null)?.__vue_app__);
  await page.waitForSelector('main');
  await sleep(1500);
  await page.evaluate('globalThis.__name = globalThis.__name || ((fn) => fn)');
  await page.evaluate(installProbe);
  const cdp = await context.newCDPSession(page);

  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');

  return {
    page, cdp, packageFiles
  };
}

async function visit(page: Page, spec: PageSpec): Promise<number> {
  const ms = await page.evaluate(([p, r, b, t]) => (window as unknown as ProbeWindow).osUpgradesPages!.navigate(p, r, b, t), [spec.path, spec.ready, spec.busy, TIMEOUT_MS] as [string, string[], string, number]);

  await sleep(SETTLE_MS);

  return ms;
}

/** Counts the bytes of every response finished while `work` runs. */
async function countingBytes<T>(cdp: CDPSession, work: () => Promise<T>): Promise<{ result: T; bytes: number; requests: number }> {
  let bytes = 0;
  let requests = 0;
  const onFinished = (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests++;
  };

  cdp.on('Network.loadingFinished', onFinished);
  try {
    const result = await work();

    return {
      result, bytes, requests
    };
  } finally {
    cdp.off('Network.loadingFinished', onFinished);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const pages = PAGES
    .filter((spec) => !options.only.length || options.only.some((name) => spec.name.includes(name)))
    .map((spec) => (options.baselineRoutes && spec.baselinePath ? { ...spec, path: spec.baselinePath } : spec));
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...await networkArgs(options.baseUrl)] });
  const context = await browser.newContext({
    baseURL: options.baseUrl, viewport: { width: 1400, height: 900 }, ignoreHTTPSErrors: true
  });
  const recorder: Recorder | undefined = options.profileDir ? { dir: options.profileDir, steps: {} } : undefined;
  const stepLabel = (spec: PageSpec, step: string) => `${ slug(options.label) }.${ slug(spec.name) }.${ step }`;
  const results: PagesResults = {
    label: options.label, chromium: browser.version(), runs: options.runs, protocol: '', pages: [], heapAfterGcBytes: NaN
  };

  try {
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    const login = await context.newPage();

    login.setDefaultTimeout(TIMEOUT_MS);
    // loginAs only sets the session cookie: the dashboard boots on the next page load.
    await loginAs(login, 'admin');
    await login.goto('/home');
    await login.waitForFunction(() => !!(document.querySelector('#app') as unknown as { __vue_app__?: unknown } | null)?.__vue_app__);
    await login.waitForSelector('main');
    results.protocol = await login.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.nextHopProtocol ?? '');
    log(`${ options.label }: logged in over ${ results.protocol }`);
    // Once, so the package's files are in the browser's cache for the cold visits: the store is what is cold.
    await login.evaluate(installProbe);
    for (const spec of pages) {
      await visit(login, spec);
    }
    await login.close();

    for (const spec of pages) {
      const { page, cdp, packageFiles } = await freshTab(context);
      const coldVisit = async(tab: Page = page) => {
        const ms = await visit(tab, spec);

        await sleep(500);

        return ms;
      };
      const cold = await countingBytes(cdp, () => (recorder ? withWaterfall(recorder, cdp, stepLabel(spec, 'cold'), () => coldVisit()) : coldVisit()));

      log(`${ options.label }: ${ spec.name } cold ${ cold.result.toFixed(0) } ms, ${ (cold.bytes / 1e6).toFixed(2) } MB in ${ cold.requests } requests`);
      results.pages.push({
        name: spec.name, coldMs: cold.result, coldBytes: cold.bytes, coldRequests: cold.requests, packageFiles: [...packageFiles].sort(), warmMs: []
      });
      await page.close();
      if (recorder) {
        // The same cold visit again in another fresh tab, under the profiler (its time is not the one reported).
        const again = await freshTab(context);

        await profiled(recorder, again.page, again.cdp, stepLabel(spec, 'cold-profiled'), coldVisit.bind(null, again.page));
        await again.page.close();
      }
    }

    const { page, cdp } = await freshTab(context);

    for (const spec of pages) {
      await visit(page, spec);
    }
    for (let run = 0; run < options.runs; run++) {
      for (const [i, spec] of pages.entries()) {
        results.pages[i].warmMs.push(await visit(page, spec));
      }
    }
    if (recorder) {
      // One more warm visit of each page under the profiler, coming from the page before it.
      for (const [i, spec] of pages.entries()) {
        const before = pages[(i + pages.length - 1) % pages.length];

        await visit(page, before === spec ? PAGES[0] : before);
        await profiled(recorder, page, cdp, stepLabel(spec, 'warm'), () => visit(page, spec));
      }
      writeProfileIndex(recorder, log);
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');

    results.heapAfterGcBytes = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? NaN;
    log(`${ options.label }: heap after GC ${ (results.heapAfterGcBytes / 1e6).toFixed(1) } MB`);
  } catch (error) {
    // A page that cannot load at this size is a result too (the load-everything build may time out).
    results.error = error instanceof Error ? error.message : String(error);
    log(`${ options.label }: ${ results.error }`);
  } finally {
    writeFileSync(options.out, `${ JSON.stringify(results, null, 2) }\n`);
    await context.close();
    await browser.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${ error instanceof Error ? error.stack : error }\n`);
  process.exit(1);
});
