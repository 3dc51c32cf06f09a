/**
 * The browser half of the benchmark (scripts/bench/run starts the emulator and calls this):
 * headless Chromium on the dashboard served by the emulator, the package loaded through
 * /v1/uiplugins as Rancher loads an installed extension.
 *
 *   node_modules/.bin/tsx scripts/bench/browser.ts --base-url http://localhost:8996 --out browser.json [--runs 40] [--profile DIR|none]
 *
 * For each measured page it keeps, in the profile folder (bench/results/profiles by default, not
 * committed): the request waterfall of its first visit (<page>.first.waterfall.json), and of one
 * more warm visit a CPU profile, a Chromium trace and the waterfall (<page>.cpuprofile,
 * <page>.trace.json, <page>.waterfall.json); index.json sums them up (time, requests, the
 * functions with the most self time).
 *
 * Every timing is taken inside the page, from the Vue router push (or the key event's own time
 * stamp) to the frame that shows the result: the DOM condition is watched with a
 * MutationObserver, then requestAnimationFrame and a message after it mark the paint.
 */
import { writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { BrowserContext, CDPSession, chromium, Page } from '@playwright/test';
import { loginAs } from '../../tests/e2e/support/login';
import { CACHE_DATABASES } from '../../pkg/os-upgrades/api/persistent-cache';
import { networkArgs } from './network-args';
import { syntheticChannelEntries } from '../../tests/support/synthetic';
import { PREVIEW_DELAY_MS } from '../../pkg/os-upgrades/stores/selector-draft';
import { profiled as recordProfile, Recorder, withWaterfall as recordRequests, writeProfileIndex } from './step-recording';
import {
  installProbe, KeyTiming, NaiveTiming, NavTiming, PAGE_NAME_HELPER, ProbeWindow
} from './page-probe';

const NAMESPACE = 'fleet-default';
const BASE_CHANNEL = 'sl-micro-6.1-base';
const SCALE_CHANNEL = 'sl-micro-6.1-scale';
const VERSION_TYPE = 'elemental.cattle.io.managedosversion';
const PRODUCT = '/os-upgrades/c/_';
/** Two adjacent container images of the real channel (3.9 has no update log, so 3.9 → 3.12). */
const REAL_OLD = 'base-v2.2.0-3.9-os';
const REAL_NEW = 'base-v2.2.0-3.12-os';
/** How many versions the selector preview resolves over (the pool's namespace is filled up to it). */
const SELECTOR_VERSIONS = 10000;
const SELECTOR_TEXT = '>=2.2.0 <2.3.0';
const SELECTOR_ROUNDS = 3;
/** Between two timed steps, so the previous one's work (and its garbage) does not spill over. */
const SETTLE_MS = 150;
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--enable-precise-memory-info',
];

interface Options {
  baseUrl: string;
  /** The emulator's control endpoints (plain HTTP: Node's fetch refuses the TLS port's self-signed certificate). */
  controlUrl: string;
  out: string;
  runs: number;
  /** Where each page's CPU profile, trace and request waterfalls are written; undefined with `--profile none`. */
  profileDir?: string;
}

/** What the measuring steps share. */
interface Session {
  options: Options;
  page: Page;
  cdp: CDPSession;
  /** The profile folder and what each recorded step's files say (undefined with `--profile none`). */
  recorder?: Recorder;
}

interface HeapSample {
  usedBytes: number;
  totalBytes: number;
}

export interface BrowserResults {
  chromium: string;
  runs: number;
  realCompare: { oldName: string; newName: string; first: NavTiming; repeat: NavTiming[] };
  channelPage: { channel: string; versions: number; first: NavTiming; repeat: NavTiming[] };
  largeCompare: { oldName: string; newName: string; span: number; first: NavTiming; repeat: NavTiming[] };
  /** The same compare's first visit in a second browser session (a new page), the IndexedDB cache warm. */
  largeCompareWarmCache?: NavTiming;
  heap: { dashboard: HeapSample; afterLargeCompare: HeapSample; afterLargeCompareGc: HeapSample };
  naive: { oldName: string; newName: string; runs: NaiveTiming[] };
  selector: { versions: number; debounceMs: number; keys: KeyTiming[] };
  /** Each file of the package the browser loaded, by the step that first loaded it. */
  packageFiles: Record<string, string>;
}

// ---------------------------------------------------------------------------------------
// In Node.
// ---------------------------------------------------------------------------------------

function parseArgs(argv: string[]): Options {
  const options: Options = {
    baseUrl: 'http://localhost:8996', controlUrl: '', out: 'bench/results/browser.json', runs: 40, profileDir: 'bench/results/profiles'
  };

  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];

    if (flag === '--base-url') {
      options.baseUrl = value.replace(/\/$/, '');
    } else if (flag === '--control-url') {
      options.controlUrl = value.replace(/\/$/, '');
    } else if (flag === '--out') {
      options.out = value;
    } else if (flag === '--runs') {
      options.runs = Number(value);
    } else if (flag === '--profile') {
      options.profileDir = value === 'none' ? undefined : value;
    } else {
      throw new Error(`unknown option ${ flag } (--base-url URL, --control-url URL, --out FILE, --runs N, --profile DIR|none)`);
    }
  }

  options.controlUrl = options.controlUrl || options.baseUrl;

  return options;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${ message }\n`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function control<T>(options: Options, method: string, path: string, body?: string): Promise<T> {
  const response = await fetch(`${ options.controlUrl }/__emulator${ path }`, {
    method, body, headers: body ? { 'content-type': 'text/plain' } : undefined
  });
  const text = await response.text();

  if (!response.ok) {
    throw new Error(`${ method } /__emulator${ path } answered ${ response.status }: ${ text.slice(0, 500) }`);
  }

  return JSON.parse(text) as T;
}

async function versionCount(options: Options, namespace: string): Promise<number> {
  const state = await control<{ objects: Record<string, { metadata?: { namespace?: string } }[]> }>(options, 'GET', `/state?type=${ VERSION_TYPE }`);

  return (state.objects[VERSION_TYPE] ?? []).filter((object) => object.metadata?.namespace === namespace).length;
}

async function openDashboard(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();

  page.setDefaultTimeout(120_000);
  page.on('pageerror', (error) => log(`page error: ${ error.message }`));

  return page;
}

async function probe(page: Page): Promise<void> {
  await page.evaluate(PAGE_NAME_HELPER);
  await page.waitForFunction(() => !!(document.querySelector('#app') as unknown as { __vue_app__?: unknown } | null)?.__vue_app__);
  await page.evaluate(installProbe, PREVIEW_DELAY_MS);
}

async function navigate(page: Page, path: string, condition: string, milestones: string[] = []): Promise<NavTiming> {
  const timing = await page.evaluate(([p, c, m]) => (window as unknown as ProbeWindow).osUpgradesBench!.navigate(p, c, m, 120000), [path, condition, milestones] as [string, string, string[]]);

  await sleep(SETTLE_MS);

  return timing;
}

/**
 * First visit, then `runs` visits alternating with the channels list (so each is a fresh render
 * of a page whose data is cached), then, with --profile, one more visit under the CPU profiler.
 */
async function measureRoute(session: Session, label: string, path: string, condition: string, milestones: string[] = []): Promise<{ first: NavTiming; repeat: NavTiming[] }> {
  const { page, options } = session;
  const channels = `${ PRODUCT }/channels`;

  await navigate(page, channels, 'channels');
  const first = await withWaterfall(session, `${ label }.first`, () => navigate(page, path, condition, milestones));
  const repeat: NavTiming[] = [];

  for (let i = 0; i < options.runs; i++) {
    await navigate(page, channels, 'channels');
    repeat.push(await navigate(page, path, condition, milestones));
  }
  if (options.profileDir) {
    await navigate(page, channels, 'channels');
    await profiled(session, label, () => navigate(page, path, condition));
  }

  return { first, repeat };
}

/** Runs `work` recording its requests: <label>.waterfall.json (nothing without a profile folder). */
async function withWaterfall<T>(session: Session, label: string, work: () => Promise<T>): Promise<T> {
  return session.recorder ? await recordRequests(session.recorder, session.cdp, label, work) : await work();
}

/** Runs `work` under the CPU profiler, a Chromium trace and the request recorder (step-recording.ts). */
async function profiled<T>(session: Session, label: string, work: () => Promise<T>): Promise<T> {
  return await recordProfile(session.recorder as Recorder, session.page, session.cdp, label, work);
}

async function heap(cdp: CDPSession, collect: boolean): Promise<HeapSample> {
  if (collect) {
    await cdp.send('HeapProfiler.collectGarbage');
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? NaN;

  return { usedBytes: value('JSHeapUsedSize'), totalBytes: value('JSHeapTotalSize') };
}

function compareRoute(channel: string, oldName: string, newName: string): string {
  return `${ PRODUCT }/channels/${ NAMESPACE }/${ channel }/compare?old=${ encodeURIComponent(oldName) }&new=${ encodeURIComponent(newName) }`;
}

/** Fills the namespace up to SELECTOR_VERSIONS versions with one published channel (five base versions). */
async function publishSelectorChannel(options: Options): Promise<number> {
  const missing = SELECTOR_VERSIONS - await versionCount(options, NAMESPACE);

  if (missing > 0) {
    const perBase = Math.ceil(missing / 5);
    const entries = [0, 1, 2, 3, 4].flatMap((minor) => syntheticChannelEntries({
      count: perBase, prefix: `bench${ minor }`, baseVersion: `2.${ minor }.0`, build: 9, startCreated: 1700000000 + minor * 3600, stepSeconds: 5 * 3600, displayName: 'Bench'
    })).slice(0, missing);
    const result = await control<{ ok: boolean; error?: string }>(options, 'PUT', `/channels/bench-selector?namespace=${ NAMESPACE }`, JSON.stringify(entries));

    if (!result.ok) {
      throw new Error(`publishing the selector channel failed: ${ result.error }`);
    }
  }

  return await versionCount(options, NAMESPACE);
}

async function measureSelector(session: Session): Promise<KeyTiming[]> {
  const { page, options } = session;
  const field = page.locator('[data-testid="selector-version"] input, input[data-testid="selector-version"]').first();
  const keys: KeyTiming[] = [];
  const press = async(name: string, action: () => Promise<void>) => {
    await page.evaluate((n) => (window as unknown as ProbeWindow).osUpgradesBench!.armKey(n), name);
    await action();
    keys.push(await page.evaluate(() => (window as unknown as ProbeWindow).osUpgradesBench!.keyResult()));
    await sleep(SETTLE_MS);
  };

  await field.click();
  await field.fill(SELECTOR_TEXT);
  await sleep(1000);
  for (let round = 0; round < SELECTOR_ROUNDS; round++) {
    await field.press('Control+a');
    // Clearing the field: the selector matches every version, the heaviest preview.
    await press('Backspace', () => page.keyboard.press('Backspace'));
    for (const char of SELECTOR_TEXT) {
      await press(char, () => page.keyboard.type(char));
    }
  }
  if (options.profileDir) {
    const timed = keys.length;

    await field.press('Control+a');
    await profiled(session, 'selector', async() => {
      await press('Backspace', () => page.keyboard.press('Backspace'));
      for (const char of SELECTOR_TEXT) {
        await press(char, () => page.keyboard.type(char));
      }
    });
    keys.splice(timed);
  }

  return keys;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...await networkArgs(options.baseUrl)] });
  const context = await browser.newContext({
    baseURL: options.baseUrl, viewport: { width: 1400, height: 900 }, ignoreHTTPSErrors: true
  });

  try {
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    const packageFiles: Record<string, string> = {};
    let step = 'dashboard start';

    context.on('request', (request) => {
      const file = /\/v1\/uiplugins\/.*\/([^/?]+\.js)(\?|$)/.exec(request.url())?.[1];

      if (file && !packageFiles[file]) {
        packageFiles[file] = step;
      }
    });
    let page = await openDashboard(context);
    const cdp = await context.newCDPSession(page);
    const session: Session = {
      options, page, cdp, recorder: options.profileDir ? { dir: options.profileDir, steps: {} } : undefined
    };

    await cdp.send('Performance.enable');
    log('logging in');
    // loginAs only sets the session cookie: the dashboard boots on the next page load.
    await loginAs(page, 'admin');
    await page.goto('/home');
    await page.waitForSelector('main');
    await probe(page);
    await sleep(2000);
    const dashboardHeap = await heap(cdp, true);

    log(`compare of two adjacent real images (${ REAL_OLD } → ${ REAL_NEW }), ${ options.runs } runs`);
    step = 'channels list';
    await navigate(page, `${ PRODUCT }/channels`, 'channels');
    step = 'compare';
    const realCompare = await measureRoute(session, 'real-compare', compareRoute(BASE_CHANNEL, REAL_OLD, REAL_NEW), 'compare');

    const scaleVersions = (await control<{ objects: Record<string, { metadata?: { labels?: Record<string, string> } }[]> }>(options, 'GET', `/state?type=${ VERSION_TYPE }`))
      .objects[VERSION_TYPE].filter((object) => object.metadata?.labels?.['elemental.cattle.io/channel'] === SCALE_CHANNEL).length;

    log(`channel page of ${ scaleVersions } versions, ${ options.runs } runs`);
    step = 'channel page';
    const channelPage = await measureRoute(session, 'channel-page', `${ PRODUCT }/channels/${ NAMESPACE }/${ SCALE_CHANNEL }`, 'channelRows');

    // 500 images: at 20,000 versions in 40 channels the scale channel has 500 (7.1 … 7.500).
    const span = Math.min(500, scaleVersions - 1);
    const largeOld = `scale-v2.2.0-7.${ scaleVersions - span }-os`;
    const largeNew = `scale-v2.2.0-7.${ scaleVersions }-os`;

    log(`compare across ${ span } versions (${ largeOld } → ${ largeNew }), ${ options.runs } runs`);
    const largeCompare = await measureRoute(session, 'large-compare', compareRoute(SCALE_CHANNEL, largeOld, largeNew), 'compare', ['imageCompare', 'packageDiff']);
    const afterLargeCompare = await heap(cdp, false);
    const afterLargeCompareGc = await heap(cdp, true);

    log(`the same compare's package lists rendered whole by diff2html, ${ options.runs } runs`);
    await navigate(page, `${ PRODUCT }/channels`, 'channels');
    await page.addScriptTag({ path: join(dirname(require.resolve('diff/package.json')), 'dist/diff.min.js') });
    await page.addScriptTag({ path: require.resolve('diff2html/bundles/js/diff2html.min.js') });
    await page.addStyleTag({ path: require.resolve('diff2html/bundles/css/diff2html.min.css') });
    const naiveRuns: NaiveTiming[] = [];
    const [oldText, newText] = await page.evaluate(async(names) => Promise.all(names.map(async(name) => {
      const response = await fetch(`/changelog-files/${ name }.packages`, { credentials: 'same-origin' });

      return await response.text();
    })), [largeOld, largeNew]);

    for (let i = 0; i < options.runs; i++) {
      naiveRuns.push(await page.evaluate(([a, b, c, d]) => (window as unknown as ProbeWindow).osUpgradesBench!.naive(a, b, c, d), [oldText, newText, largeOld, largeNew]));
      await sleep(SETTLE_MS);
    }

    log('the same compare in a second browser session, its files in the IndexedDB cache');
    // The cache is written behind the page: wait until the span's files are in it.
    await page.waitForFunction((least) => new Promise<boolean>((resolve) => {
      const open = indexedDB.open('os-upgrades-changelog-index');

      open.onsuccess = () => {
        const count = open.result.transaction('index').objectStore('index').count();

        count.onsuccess = () => resolve(count.result >= least);
      };
      open.onerror = () => resolve(false);
    }), span - span / 50, { polling: 500 });
    const inNewSession = async(work: (second: Session) => Promise<NavTiming>, emptyCache = false) => {
      await page.close();
      page = await openDashboard(context);
      if (emptyCache) {
        // Before the dashboard opens the cache: a database still open is not deleted. The browser's
        // HTTP cache goes too (the files carry no Cache-Control: it would answer them).
        await page.goto('/favicon.png');
        await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
        await page.evaluate((names) => Promise.all(names.map((name) => new Promise((resolve) => {
          const request = indexedDB.deleteDatabase(name);

          request.onsuccess = request.onerror = request.onblocked = resolve;
        }))), CACHE_DATABASES);
      }
      await page.goto(`${ PRODUCT }/channels`);
      await probe(page);
      // The compare is timed from a tab whose page is done, as on a first visit (measureRoute): a push
      // while the channels list still loads its chunks and counts its 40 channels timed those too.
      await page.locator('[data-testid="channels-table"] [data-testid="channel-link"]').first().waitFor();
      await page.waitForFunction(() => !document.querySelector('[data-testid="channel-count-loading"]'));
      await sleep(SETTLE_MS);
      session.page = page;
      session.cdp = await context.newCDPSession(page);

      return await work(session);
    };
    const largeCompareWarmCache = await inNewSession((second) => withWaterfall(second, 'large-compare-cache', () => navigate(second.page, compareRoute(SCALE_CHANNEL, largeOld, largeNew), 'compare', ['imageCompare', 'packageDiff'])));

    if (options.profileDir) {
      log('  and once more under the profiler');
      await inNewSession((third) => profiled(third, 'large-compare-cache-profiled', () => navigate(third.page, compareRoute(SCALE_CHANNEL, largeOld, largeNew), 'compare', ['imageCompare', 'packageDiff'])));
      log('  and a first visit under the profiler, the IndexedDB cache emptied');
      await inNewSession((fourth) => profiled(fourth, 'large-compare-first-profiled', () => navigate(fourth.page, compareRoute(SCALE_CHANNEL, largeOld, largeNew), 'compare', ['imageCompare', 'packageDiff'])), true);
    }

    log(`selector preview over ${ SELECTOR_VERSIONS } versions: publishing a channel`);
    step = 'pool form';
    await page.close();
    const selectorVersions = await publishSelectorChannel(options);

    page = await openDashboard(context);
    session.page = page;
    session.cdp = await context.newCDPSession(page);
    await page.goto(`${ PRODUCT }/pools/create`);
    // The selector and its preview are on the form's Image tab.
    await page.getByTestId('btn-image').click();
    await page.locator('[data-testid="selector-preview"]').waitFor();
    // A new pool's selector has no channel (it reads nothing); "Any channel" chooses among every
    // channel of the namespace, the SELECTOR_VERSIONS versions.
    await page.getByTestId('selector-channel').click();
    await page.getByRole('option', { name: 'Any channel', exact: true }).click();
    await page.locator('[data-testid="selector-preview"][aria-busy="false"] [data-testid="selector-preview-candidates"]').waitFor({ timeout: 300_000 });
    await sleep(3000);
    await probe(page);
    log(`selector preview over ${ selectorVersions } versions: ${ SELECTOR_ROUNDS } × ${ SELECTOR_TEXT.length + 1 } keys`);
    const keys = await measureSelector(session);

    const results: BrowserResults = {
      chromium:    browser.version(),
      runs:        options.runs,
      realCompare: {
        oldName: REAL_OLD, newName: REAL_NEW, ...realCompare
      },
      channelPage: {
        channel: SCALE_CHANNEL, versions: scaleVersions, ...channelPage
      },
      largeCompare: {
        oldName: largeOld, newName: largeNew, span, ...largeCompare
      },
      largeCompareWarmCache,
      heap: {
        dashboard: dashboardHeap, afterLargeCompare, afterLargeCompareGc
      },
      naive: {
        oldName: largeOld, newName: largeNew, runs: naiveRuns
      },
      selector: {
        versions: selectorVersions, debounceMs: PREVIEW_DELAY_MS, keys
      },
      packageFiles,
    };

    writeFileSync(options.out, `${ JSON.stringify(results, null, 2) }\n`);
    if (session.recorder) {
      writeProfileIndex(session.recorder, log);
    }
    log(`wrote ${ options.out }`);
  } finally {
    await context.close();
    await browser.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${ error instanceof Error ? error.stack : error }\n`);
  process.exit(1);
});
