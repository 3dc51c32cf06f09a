// The specs' `test`: Playwright's, with
// - one browser context per worker, emptied (cookies, storage, IndexedDB) before every test but
//   keeping Chromium's HTTP and code cache, so each test does not compile the dashboard's
//   JavaScript again (a boot took 2.4 s instead of 3.9 s on the 2-core CI machine);
// - a context of its own for a test that sets `ownContext` (one that installs a fake clock:
//   `page.clock` acts on the whole context, and would leave every later test of the worker hours
//   ahead);
// - the preferences a test changed put back after it (preferences.ts);
// - the page kept offline (the dashboard asks updates.rancher.io for release news, as a real
//   Rancher does) and every page error and 5xx answer collected.

import {
  test as base, expect, Browser, BrowserContext, BrowserContextOptions, TestInfo
} from '@playwright/test';
import { restorePreferences } from './preferences';

export interface PageProblems {
  pageErrors: string[];
  serverErrors: string[];
}

// Everything a test leaves in the browser except the HTTP cache (CDP Storage.clearDataForOrigin).
const STORAGE_TYPES = 'cookies,local_storage,indexeddb,websql,service_workers,cache_storage,file_systems';

/** A context as the project configures one. */
async function newContext(browser: Browser, options: TestInfo['project']['use']): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL:           options.baseURL,
    viewport:          options.viewport,
    ignoreHTTPSErrors: options.ignoreHTTPSErrors,
  } as BrowserContextOptions);

  context.setDefaultTimeout(options.actionTimeout || 0);
  context.setDefaultNavigationTimeout(options.navigationTimeout || 0);

  return context;
}

export const test = base.extend<{ problems: PageProblems; ownContext: boolean }, { workerContext: BrowserContext }>({
  workerContext: [async({ browser }, use, workerInfo) => {
    const context = await newContext(browser, workerInfo.project.use);

    await use(context);
    await context.close();
  }, { scope: 'worker' }],

  ownContext: [false, { option: true }],

  context: async({ workerContext, ownContext, browser }, use, testInfo) => {
    if (ownContext) {
      const context = await newContext(browser, testInfo.project.use);

      await use(context);
      await context.close();

      return;
    }
    const origin = new URL(String(testInfo.project.use.baseURL)).origin;
    const blank = await workerContext.newPage();
    const cdp = await workerContext.newCDPSession(blank);

    await workerContext.clearCookies();
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: STORAGE_TYPES });
    await cdp.detach();
    await blank.close();
    await use(workerContext);
    await workerContext.unrouteAll({ behavior: 'ignoreErrors' });
    for (const page of workerContext.pages()) {
      await page.close();
    }
  },

  page: async({ context }, use) => {
    const page = await context.newPage();

    await use(page);
    // Best effort: a test that logged out has no session to put them back with.
    await restorePreferences(page).catch(() => undefined);
  },

  problems: [async({ page }, use) => {
    const problems: PageProblems = { pageErrors: [], serverErrors: [] };

    await page.route(/^https?:\/\/(updates\.rancher\.io|releases\.rancher\.com|raw\.githubusercontent\.com)\//, (route) => route.abort());
    page.on('pageerror', (error) => problems.pageErrors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 500) {
        problems.serverErrors.push(`${ response.status() } ${ response.request().method() } ${ response.url() }`);
      }
    });
    await use(problems);
  }, { auto: true }],
});

export { expect };
