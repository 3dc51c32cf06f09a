// The specs' `test`: Playwright's, with the page kept offline (the dashboard asks updates.rancher.io
// for release news, as a real Rancher does) and every page error and 5xx answer collected.

import { test as base, expect } from '@playwright/test';

export interface PageProblems {
  pageErrors: string[];
  serverErrors: string[];
}

export const test = base.extend<{ problems: PageProblems }>({
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
