// Issue 24: times, durations and pictures a person can read. A time moves on while the page is
// open and says its date and time on hover (the shell's format); the pools-by-image chart has
// labels of body size, a colour per image and a legend; every main page in Chinese (zh-hans)
// is drawn with its glyphs (fonts-noto-cjk, scripts/lib/toolchain.sh) and attached to the report.
// Each test publishes its channel and pools through the API (support/seed.ts, support/seed-pages.ts),
// so it runs on a real Rancher too.

import { Page } from '@playwright/test';
import { useLanguage } from './support/a11y';
import { attachFullPage } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNELS, FLEET, POOLS, SOURCES } from './support/names';
import { channelRow } from './support/channels';
import { useSeed } from './support/seed';
import { BASE, NO_CLUSTER, seedPageWorld, waitForNodes } from './support/seed-pages';

const seed = useSeed();

test.describe('a fake clock', () => {
  // The clock acts on the whole browser context: a context of its own, so no later test runs hours ahead.
  test.use({ ownContext: true });

  test('a time moves on while the page is open, and shows its date and time on hover', async({ page }) => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.2-base' });

    await loginAs(page, 'admin');
    await page.clock.install();
    await page.goto(dashboardPath(CHANNELS));
    // The operator synced the channel as it was created: moments ago.
    const time = channelRow(page, channel.name).getByTestId('live-time');

    await expect(time).toHaveText(/^(just now|\d+(\.\d)? (sec|secs|min|mins) ago)$/);
    await page.clock.fastForward('02:00:00');
    await expect(time).toHaveText(/^2(\.\d)? hours ago$/);

    await time.hover();
    // The shell's default date and time format (prefs DATE_FORMAT, TIME_FORMAT): "Wed, Nov 27 2024 4:07:57 pm".
    await expect(page.locator('.v-popper__popper').filter({ hasText: /\d:\d\d:\d\d [ap]m/ })).toContainText(/\w{3}, \w{3} \d+ \d{4} \d+:\d\d:\d\d [ap]m/);
  });
});

test('the pools-by-image chart reads at body size, gives each image its own colour and has a legend', async({ page }) => {
  const channel = await seed.channel({ fixture: 'sl-micro-6.1-base' });
  const images = [BASE.newest, BASE.middle, BASE.oldest].map((name) => channel.version(name));

  // One pool on each image, on no cluster.
  for (const image of images) {
    await seed.pool('e2e-chart', { managedOSVersionName: image, clusterTargets: NO_CLUSTER });
  }
  await loginAs(page, 'admin');
  await page.goto(dashboardPath(FLEET));
  const chart = page.getByTestId('fleet-chart');
  const bars = chart.getByTestId('fleet-chart-bar');
  const legend = chart.getByTestId('fleet-chart-legend-item');

  // The Rancher may have other pools: each of this test's images has its bar, among others.
  for (const image of images) {
    await expect(bars.filter({ has: page.locator('.label', { hasText: new RegExp(`^\\s*${ image }\\s*$`) }) })).toHaveCount(1);
  }
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
    const world = await seedPageWorld(seed);
    const { channel } = world;
    const channelPage = `${ CHANNELS }/${ channel.namespace }/${ channel.name }`;
    const pool = `${ POOLS }/${ channel.namespace }/${ world.behind }`;

    await loginAs(page, 'admin');
    await useLanguage(page, 'zh-hans');
    const pages: [string, string, (p: Page) => Promise<void>][] = [
      ['fleet', FLEET, (p) => expect(p.getByTestId('fleet-table')).toBeVisible()],
      ['channels', CHANNELS, (p) => expect(channelRow(p, channel.name).getByTestId('live-time')).toBeVisible()],
      ['channel', `${ channelPage }?version=${ world.images.newest }`, (p) => expect(p.getByTestId('version-changelog')).toBeVisible()],
      ['compare', `${ channelPage }/compare?old=${ world.images.oldest }&new=${ world.images.newest }`, (p) => expect(p.getByTestId('package-diff')).toBeVisible()],
      ['pools', POOLS, (p) => expect(p.getByTestId('pools-table')).toBeVisible()],
      ['pool', pool, (p) => waitForNodes(p, world.cluster)],
      ['pool form', `${ pool }/edit`, (p) => expect(p.getByTestId('pool-save-async-button')).toBeVisible()],
      ['sources', SOURCES, (p) => expect(p.getByTestId(`channel-sources-${ channel.name }`)).toBeVisible()],
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
