// Issue 24: times, durations and pictures a person can read. A time moves on while the page is
// open and says its date and time on hover (the shell's format); the pools-by-image chart has
// labels of body size, a colour per image and a legend; every main page in Chinese (zh-hans)
// is drawn with its glyphs (fonts-noto-cjk, scripts/lib/toolchain.sh) and attached to the report.

import { Page } from '@playwright/test';
import { useLanguage } from './support/a11y';
import { useEmulator } from './support/emulator';
import { attachFullPage } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { BASE_CHANNEL_PAGE, CHANNELS, FLEET } from './support/names';

const POOL = '/os-upgrades/c/_/pools/fleet-default/edge-berlin';

useEmulator();

test('a time moves on while the page is open, and shows its date and time on hover', async({ page }) => {
  await loginAs(page, 'admin');
  await page.clock.install();
  await page.goto(dashboardPath(CHANNELS));
  // The emulator's operator synced the channel when it started: moments ago.
  const time = page.getByTestId('channels-table').locator('tr', { hasText: 'sl-micro-6.1-base' }).getByTestId('live-time');

  await expect(time).toHaveText(/^(just now|\d+(\.\d)? (sec|secs|min|mins) ago)$/);
  await page.clock.fastForward('02:00:00');
  await expect(time).toHaveText(/^2(\.\d)? hours ago$/);

  await time.hover();
  // The shell's default date and time format (prefs DATE_FORMAT, TIME_FORMAT): "Wed, Nov 27 2024 4:07:57 pm".
  await expect(page.locator('.v-popper__popper').filter({ hasText: /\d:\d\d:\d\d [ap]m/ })).toContainText(/\w{3}, \w{3} \d+ \d{4} \d+:\d\d:\d\d [ap]m/);
});

test('the pools-by-image chart reads at body size, gives each image its own colour and has a legend', async({ page }) => {
  await loginAs(page, 'admin');
  await page.goto(dashboardPath(FLEET));
  const chart = page.getByTestId('fleet-chart');
  const bars = chart.getByTestId('fleet-chart-bar');
  const legend = chart.getByTestId('fleet-chart-legend-item');

  await expect(bars).toHaveCount(4);
  const fontSize = await bars.first().locator('.label').evaluate((label) => parseFloat(getComputedStyle(label).fontSize));

  expect(fontSize).toBeGreaterThanOrEqual(12);
  const legendColors = await legend.evaluateAll((items) => items.map((item) => [item.textContent?.trim(), item.getAttribute('data-color')]));
  const colors = legendColors.map(([, color]) => color);

  expect(legendColors.length).toBeGreaterThanOrEqual(3);
  expect(new Set(colors).size).toBe(colors.length);
  // Each pinned image's bar has the colour the legend gives it.
  for (const bar of await bars.all()) {
    const name = (await bar.locator('.label').textContent())?.trim();
    const entry = legendColors.find(([legendName]) => legendName === name);

    if (entry) {
      expect(await bar.locator('.bar').getAttribute('data-color')).toBe(entry[1]);
    }
  }
});

test.describe('in Chinese', () => {
  test.afterEach(async({ page }) => {
    await useLanguage(page, 'en-us');
  });

  test('every main page draws its Chinese text, with relative times written without a space before 前', async({ page, problems }, testInfo) => {
    test.setTimeout(240_000);
    await loginAs(page, 'admin');
    await useLanguage(page, 'zh-hans');
    const pages: [string, string, (p: Page) => Promise<void>][] = [
      ['fleet', '/os-upgrades/c/_/fleet', (p) => expect(p.getByTestId('fleet-table')).toBeVisible()],
      ['channels', CHANNELS, (p) => expect(p.getByTestId('channels-table').getByTestId('live-time').first()).toBeVisible()],
      ['channel', `${ BASE_CHANNEL_PAGE }?version=base-v2.2.0-3.12-os`, (p) => expect(p.getByTestId('version-changelog')).toBeVisible()],
      ['compare', `${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`, (p) => expect(p.getByTestId('package-diff')).toBeVisible()],
      ['pools', '/os-upgrades/c/_/pools', (p) => expect(p.getByTestId('pools-table')).toBeVisible()],
      ['pool', POOL, (p) => expect(p.getByRole('cell', { name: 'edge-berlin-02-node-3' })).toBeVisible({ timeout: 40_000 })],
      ['pool form', `${ POOL }/edit`, (p) => expect(p.getByTestId('pool-save-async-button')).toBeVisible()],
      ['sources', '/os-upgrades/c/_/sources', (p) => expect(p.getByTestId('channel-sources-sl-micro-6.1-base')).toBeVisible()],
    ];

    for (const [name, path, ready] of pages) {
      await test.step(name, async() => {
        await page.goto(dashboardPath(path));
        await ready(page);
        await expect(page.locator('html')).toHaveAttribute('lang', /zh/);
        for (const text of await page.getByTestId('live-time').allTextContents()) {
          expect(text.trim()).toMatch(/^(刚刚|\S+ \S+前|\S+后)$/);
        }
        await attachFullPage(page, testInfo, `${ name } zh-hans`);
      });
    }
    expect(problems.pageErrors).toEqual([]);
  });
});
