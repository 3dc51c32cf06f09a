// Issue 7: the built package loads the way Rancher loads an installed extension. The dashboard
// (dist/, built with EXCLUDES=os-upgrades) does not contain it; /v1/uiplugins announces it with the
// package's catalog annotations; the browser fetches its UMD entry from
// /v1/uiplugins/<name>/<version>/plugin/ and, only as its pages open, their lazy chunks from beside
// it; the Channels and Workload pools pages then work from that code, showing a channel and a pool
// the test created through the API (support/seed.ts), so it runs on a real Rancher too. There the
// extension must be installed, its version is the one /v1/uiplugins announces, and the checks of the
// local builds (dist/ and dist-pkg/) run only where those builds are what the Rancher serves.

import fs from 'fs';
import path from 'path';
import jsyaml from 'js-yaml';
import semver from 'semver';
import { Page } from '@playwright/test';
import { sessionApi } from './support/api';
import { onEmulator } from './support/env';
import { loginOnPage } from './support/login';
import { expect, test } from './support/test';
import { useSeed } from './support/seed';
import { NO_CLUSTER } from './support/seed-pages';

const NAME = 'os-upgrades';
const ROOT = path.join(__dirname, '../..');
const EXTENSIONS_VERSION = 'catalog.cattle.io/ui-extensions-version';
const DISPLAY_NAME = 'catalog.cattle.io/display-name';

interface SourcePackage {
  name: string;
  version: string;
  description?: string;
  icon?: string;
  rancher: { annotations: Record<string, string> };
}

interface UiPluginEntry {
  name?: unknown;
  version?: unknown;
  endpoint?: unknown;
  metadata?: Record<string, unknown>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const SOURCE = readJson<SourcePackage>(path.join(ROOT, 'pkg', NAME, 'package.json'));
/** The package as built here (yarn build-pkg), which the emulator serves. */
const BUILT = path.join(ROOT, 'dist-pkg', `${ NAME }-${ SOURCE.version }`);
// The Extensions API version the dashboard offers is the version of its shell (vue.config.js).
const SHELL_VERSION = readJson<{ version: string }>(path.join(ROOT, 'node_modules/@rancher/shell/package.json')).version;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every file below `dir` whose name matches, recursively. */
function filesBelow(dir: string, match: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);

    if (entry.isDirectory()) {
      return filesBelow(file, match);
    }

    return match.test(entry.name) ? [file] : [];
  });
}

/** The English texts, flattened to key → text. */
function englishTexts(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (node: unknown, keys: string[]) => {
    if (node && typeof node === 'object') {
      Object.entries(node as Record<string, unknown>).forEach(([key, child]) => walk(child, [...keys, key]));
    } else {
      out[keys.join('.')] = String(node);
    }
  };

  walk(jsyaml.safeLoad(fs.readFileSync(path.join(ROOT, 'pkg', NAME, 'l10n/en-us.yaml'), 'utf8')), []);

  return out;
}

async function announced(page: Page): Promise<UiPluginEntry> {
  const answer = await sessionApi(page).get('/v1/uiplugins');

  expect(answer.status, 'GET /v1/uiplugins').toBe(200);
  const entries = (answer.body.entries || {}) as Record<string, UiPluginEntry>;

  expect(Object.keys(entries), '/v1/uiplugins lists the package').toContain(NAME);

  return entries[NAME];
}

/** True when the Rancher serves the package built here: the emulator (with or without its control endpoints) does. */
async function servesLocalBuild(page: Page, entry: UiPluginEntry): Promise<boolean> {
  const main = path.join(BUILT, `${ NAME }-${ SOURCE.version }.umd.min.js`);

  if (entry.version !== SOURCE.version || !fs.existsSync(main)) {
    return false;
  }
  const served = await page.request.get(`${ entry.endpoint }/plugin/${ NAME }-${ SOURCE.version }.umd.min.js`);

  return served.ok() && Buffer.from(await served.body()).equals(fs.readFileSync(main));
}

const seed = useSeed();

test.describe('the package loads as an installed extension', () => {
  test('/v1/uiplugins announces os-upgrades with its name, version, endpoint and catalog annotations', async({ page }) => {
    await loginOnPage(page, 'admin');
    const entry = await announced(page);

    expect(entry.name).toBe(NAME);
    expect(typeof entry.version === 'string' && semver.valid(entry.version), `version ${ entry.version } is semver`).toBeTruthy();
    expect(typeof entry.endpoint === 'string' && entry.endpoint.length > 0, 'endpoint is set').toBe(true);

    const metadata = entry.metadata || {};
    const range = metadata[EXTENSIONS_VERSION];

    // Without this annotation Rancher 2.10+ refuses to load an extension (shouldNotLoadPlugin).
    expect(typeof range, `metadata['${ EXTENSIONS_VERSION }']`).toBe('string');
    expect(semver.satisfies(SHELL_VERSION, range as string), `Extensions API ${ SHELL_VERSION } satisfies ${ range }`).toBe(true);
    expect(metadata[DISPLAY_NAME]).toBe(SOURCE.rancher.annotations[DISPLAY_NAME]);

    if (await servesLocalBuild(page, entry)) {
      // The announced package is the one built from pkg/os-upgrades, with its own annotations.
      expect(entry.version).toBe(SOURCE.version);
      expect(entry.endpoint).toMatch(new RegExp(`/v1/uiplugins/${ NAME }/${ escapeRegExp(SOURCE.version) }$`));
      expect(metadata).toMatchObject(SOURCE.rancher.annotations);
    }
  });

  // A new tab loads the package's files from the browser's cache, or asks whether they changed and
  // gets no body: an installed extension is served from Rancher's cache of it with Go's file server
  // (rancher/rancher pkg/api/steve/catalog/plugin.go), which sends Last-Modified and no Cache-Control.
  test('the package files carry Last-Modified, no Cache-Control, and a revalidation is answered 304 without a body', async({ page }) => {
    await loginOnPage(page, 'admin');
    const entry = await announced(page);
    const version = String(entry.version);
    const main = `/v1/uiplugins/${ NAME }/${ version }/plugin/${ NAME }-${ version }.umd.min.js`;
    const first = await page.request.get(main);

    expect(first.status()).toBe(200);
    const modified = first.headers()['last-modified'];

    expect(Date.parse(modified ?? ''), `Last-Modified "${ modified }" is an HTTP date`).not.toBeNaN();
    expect(first.headers()['cache-control'], 'no Cache-Control: the browser keeps the file by its age').toBeUndefined();

    const unchanged = await page.request.get(main, { headers: { 'If-Modified-Since': modified } });

    expect(unchanged.status()).toBe(304);
    expect((await unchanged.body()).length).toBe(0);

    const older = new Date(Date.parse(modified) - 60_000).toUTCString();
    const changed = await page.request.get(main, { headers: { 'If-Modified-Since': older } });

    expect(changed.status()).toBe(200);
    expect((await changed.body()).equals(await first.body())).toBe(true);
  });

  test('the package carries what the Extensions page and the chart show: display name, description, icon', async({ page }) => {
    const annotations = SOURCE.rancher.annotations;

    expect(annotations[DISPLAY_NAME]).toBe(englishTexts()['product.os-upgrades']);
    expect(semver.validRange(annotations[EXTENSIONS_VERSION]), EXTENSIONS_VERSION).toBeTruthy();
    // The Extensions page cuts descriptions at 200 characters; the shell's chart patch script
    // (scripts/extension/helm/scripts/patch) writes description and icon inside double quotes.
    expect(SOURCE.description?.length).toBeGreaterThan(20);
    expect(SOURCE.description?.length).toBeLessThanOrEqual(200);
    expect(`${ SOURCE.description }${ SOURCE.icon }`).not.toMatch(/["\\`$]/);
    // The icon is self-contained (it shows in an air-gapped Rancher too) and is a real image.
    expect(SOURCE.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    const width = await page.evaluate(async(src) => {
      const image = new Image();

      image.src = src;
      await image.decode();

      return image.naturalWidth;
    }, SOURCE.icon as string);

    expect(width).toBeGreaterThan(0);
  });

  test('the dashboard build does not contain the package, and dist-pkg/ holds it as Rancher serves it', () => {
    // The builds of this checkout; a Rancher's own dashboard is not checked (it is not built here).
    test.skip(!fs.existsSync(path.join(BUILT, 'package.json')) || !fs.existsSync(path.join(ROOT, 'dist', 'index.html')), 'needs the local builds dist/ and dist-pkg/');
    const folder = BUILT;
    const built = readJson<Record<string, unknown>>(path.join(folder, 'package.json'));

    // What the shell's scripts/pkgfile.js writes, and what the catalog shows.
    expect(built).toMatchObject({
      name: NAME, version: SOURCE.version, main: `${ NAME }-${ SOURCE.version }.umd.min.js`, rancher: true, description: SOURCE.description, icon: SOURCE.icon
    });
    expect(fs.existsSync(path.join(folder, built.main as string))).toBe(true);

    // Strings only the package has: a route path, a translation key, an annotation key it reads,
    // and every longer English text of it.
    const english = englishTexts();
    const texts = Object.values(english).filter((text) => text.length >= 40 && /^[\x20-\x7e]+$/.test(text) && !/["'\\]/.test(text));
    const needles = ['/channels/:namespace/:name/compare', 'osUpgrades.nav.pools', 'os-upgrades.cattle.io/changelog-url', ...texts];

    expect(texts.length).toBeGreaterThan(10);

    const packageCode = filesBelow(folder, /\.js$/).map((file) => fs.readFileSync(file, 'utf8')).join('\n');

    expect(needles.filter((needle) => !packageCode.includes(needle)), 'strings missing from the built package').toEqual([]);

    const dashboard = path.join(ROOT, 'dist');
    const dashboardFiles = filesBelow(dashboard, /\.(js|html)$/);

    expect(dashboardFiles.filter((file) => file.startsWith(path.join(dashboard, 'js'))).length).toBeGreaterThan(10);
    const found: string[] = [];

    for (const file of dashboardFiles) {
      const code = fs.readFileSync(file, 'utf8');

      needles.filter((needle) => code.includes(needle)).forEach((needle) => found.push(`${ path.relative(ROOT, file) }: ${ needle }`));
    }
    expect(found, 'package strings inside the dashboard build').toEqual([]);

    // Nor was any of its sources compiled into the dashboard (the source maps list what went in).
    const mapped = filesBelow(dashboard, /\.js\.map$/).filter((file) => fs.readFileSync(file, 'utf8').includes(`/pkg/${ NAME }/`));

    expect(mapped.map((file) => path.relative(ROOT, file)), 'dashboard chunks built from pkg/os-upgrades').toEqual([]);
  });

  test('the browser fetches the package from /v1/uiplugins, its chunks as pages open, and the pages work', async({ page, problems }) => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.2-base' });
    // On no cluster: the page only has to list it.
    const pool = await seed.pool('e2e-uiplugins', { managedOSVersionName: channel.version('base-v2.3.0-6.1-os'), clusterTargets: NO_CLUSTER });
    const fetched: { path: string; status: number }[] = [];
    const scripts: string[] = [];

    page.on('response', (response) => {
      const url = new URL(response.url());

      if (url.pathname.startsWith('/v1/uiplugins/')) {
        fetched.push({ path: url.pathname, status: response.status() });
      }
    });
    page.on('request', (request) => {
      if (request.resourceType() === 'script') {
        scripts.push(new URL(request.url()).pathname);
      }
    });

    // A first visit: the worker's browser context keeps its HTTP cache between tests (support/test.ts).
    const cdp = await page.context().newCDPSession(page);

    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

    await loginOnPage(page, 'admin');
    const entry = await announced(page);
    const version = String(entry.version);
    const id = `${ NAME }-${ version }`;
    const folder = `/v1/uiplugins/${ NAME }/${ version }/plugin/`;
    const main = `${ folder }${ id }.umd.min.js`;
    const chunk = new RegExp(`^${ escapeRegExp(folder) }${ escapeRegExp(id) }\\.umd\\.min\\.[\\w-]+\\.js$`);
    const chunks = () => new Set(fetched.filter((file) => chunk.test(file.path)).map((file) => file.path));
    const added = (after: Set<string>, before: Set<string>) => [...after].filter((file) => !before.has(file));

    // The shell loaded the entry as an extension: from /v1/uiplugins, in a script element of its
    // own, and ran its UMD module.
    await expect.poll(() => fetched.filter((file) => file.path === main).map((file) => file.status), { message: `GET ${ main }` }).toContain(200);
    await expect(page.locator(`script[data-purpose="extension"][id="${ id }"]`)).toHaveAttribute('src', main);
    expect(await page.evaluate((global) => typeof (window as unknown as Record<string, { default?: unknown } | undefined>)[global]?.default, id)).toBe('function');

    if (onEmulator()) {
      const served = await page.request.get(main);

      expect(Buffer.from(await served.body()).equals(fs.readFileSync(path.join(ROOT, 'dist-pkg', id, `${ id }.umd.min.js`))), `${ main } is dist-pkg/${ id }/${ id }.umd.min.js (a reused emulator serves an old build: stop it)`).toBe(true);
    }

    // Opening the product (and then Channels) loads the pages' chunks from beside the entry.
    const beforeChannels = chunks();

    await page.getByTestId('top-level-menu').click();
    await page.getByRole('link', { name: englishTexts()['product.os-upgrades'] }).first().click();
    // The product lands on its fleet overview; the Channels page is in its side navigation.
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/fleet/);
    await page.getByRole('link', { name: 'Channels', exact: true }).first().click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/channels/);
    await expect(page.getByTestId('channels-table').getByRole('link', { name: channel.name, exact: true })).toBeVisible();
    const withChannels = chunks();

    expect(added(withChannels, beforeChannels), 'chunks fetched for the Channels page').not.toEqual([]);

    // Workload pools: its page's chunks arrive only now, from the same place.
    await page.getByRole('link', { name: 'Workload pools' }).first().click();
    await expect(page).toHaveURL(/\/os-upgrades\/c\/_\/pools/);
    await expect(page.getByTestId('pools-table').getByRole('link', { name: pool, exact: true })).toBeVisible();
    expect(added(chunks(), withChannels), 'chunks fetched for the Workload pools page').not.toEqual([]);

    // Every file of the package came from its folder under /v1/uiplugins, successfully; no script
    // of it came from anywhere else (such as the dashboard's own js/).
    const packageFiles = fetched.filter((file) => file.path.startsWith(folder));

    expect(packageFiles.filter((file) => file.status !== 200), 'failed package files').toEqual([]);
    expect(packageFiles.filter((file) => !chunk.test(file.path) && file.path !== main).map((file) => file.path), 'unexpected package files').toEqual([]);
    expect(scripts.filter((script) => script.includes(id) && !script.startsWith(folder)), 'package scripts from elsewhere').toEqual([]);

    expect(problems.pageErrors).toEqual([]);
    expect(problems.serverErrors).toEqual([]);
  });
});
