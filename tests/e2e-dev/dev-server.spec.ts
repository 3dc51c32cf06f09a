// Issue 24: what a newcomer sees with the README's `scripts/run` (playwright.dev.config.ts starts
// it as is). Every file the extension reads on the dashboard's origin reaches the browser through
// the dev server's proxy: changelogs, package lists and tars, the sources page's Test, the search.

import { Page, Response } from '@playwright/test';
import { loginAs } from '../e2e/support/login';
import { expect, test } from '../e2e/support/test';

const CHANNEL = '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-base';
const OLD = 'base-v2.2.0-3.9-os';
const NEW = 'base-v2.2.0-3.12-os';
// The dev build is not optimised: a page's first visit loads large unminified chunks, each
// compiled by the browser (up to a minute on a loaded 2-core machine).
const FIRST_VISIT = { timeout: 120_000 };

/** Every answer for a changelog file on the dashboard's origin, as status and content type. */
function fileAnswers(page: Page): string[] {
  const answers: string[] = [];

  page.on('response', (response: Response) => {
    const url = new URL(response.url());

    if (url.pathname.startsWith('/changelog-files/') || url.pathname.startsWith('/elemental/')) {
      answers.push(`${ response.status() } ${ response.headers()['content-type'] ?? '' } ${ url.pathname }`);
    }
  });

  return answers;
}

test.beforeEach(async({ page }) => {
  await loginAs(page, 'admin');
});

test('a compare shows advisories and the package diff, read through the dev server', async({ page, problems }) => {
  const answers = fileAnswers(page);

  await page.goto(`${ CHANNEL }/compare?old=${ OLD }&new=${ NEW }`);
  await expect(page.getByTestId('advisories').getByTestId('advisory').first()).toBeVisible(FIRST_VISIT);
  const diff = page.getByTestId('package-diff');

  const kernel = diff.getByTestId('package-row').filter({ hasText: 'kernel-default' });

  await expect(kernel.getByTestId('package-row-old')).toHaveText('kernel-default.x86_64  6.4.0-1.2');
  await expect(kernel.getByTestId('package-row-new')).toHaveText('kernel-default.x86_64  6.4.0-1.3');
  await expect(page.getByTestId('no-changelog-service')).toHaveCount(0);
  await expect(page.getByTestId('source-unreachable')).toHaveCount(0);
  expect(answers.length).toBeGreaterThan(0);
  // No answer was the dev server's own page.
  expect(answers.filter((answer) => answer.includes('text/html'))).toEqual([]);
  expect(problems.pageErrors).toEqual([]);
});

test('an image\'s changelog is read, not "not published"', async({ page }) => {
  await page.goto(`${ CHANNEL }?version=${ NEW }`);
  const details = page.getByTestId('version-changelog');

  await expect(details.getByRole('heading', { name: 'Changelog of v2.2.0-3.12' })).toBeVisible(FIRST_VISIT);
  await expect(details.getByTestId('advisory').first()).toBeVisible();
  await expect(details.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');
  await expect(page.getByTestId('timeline-base-v2.2.0-3.12-os')).not.toHaveAttribute('aria-label', /no changelog published/);
});

test('the search reads the package lists and finds kernel-default', async({ page }) => {
  await page.goto('/os-upgrades/c/_/channels');
  const search = page.getByTestId('image-search');

  await expect(search).toBeVisible(FIRST_VISIT);
  await search.getByTestId('image-search-input').fill('kernel-default');
  await search.getByTestId('image-search-files').click();
  await expect(search.getByTestId('image-search-hit').filter({ hasText: NEW })).toContainText('kernel-default');
});

test('the sources page\'s Test finds the changelog files and the package tar', async({ page }) => {
  await page.goto('/os-upgrades/c/_/sources');
  const row = page.getByTestId('channel-sources-sl-micro-6.1-base');

  await expect(row).toBeVisible(FIRST_VISIT);

  // Each Test's result is beside its button.
  const resultOf = (button: string) => row.locator('.actions', { has: page.getByTestId(button) }).getByTestId('source-test-result');

  await row.getByTestId('template-input').fill('/changelog-files/{name}.updates.log');
  for (const button of ['test-template', 'test-tar']) {
    await row.getByTestId(button).click();
    await expect(resultOf(button)).not.toHaveAttribute('data-outcome', 'testing');
    await expect(resultOf(button)).toHaveAttribute('data-outcome', 'found');
  }
});
