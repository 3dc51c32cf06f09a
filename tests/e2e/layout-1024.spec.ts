// Issue 17: every page at 1024 x 768, light and dark: no sideways scroll of the page (the shell
// scrolls its pages inside main.main-layout, so that is measured too), no serious axe violation,
// names and image chips on one line, the channels' Source readable, the package diff with its
// changed versions in view, the compare pickers' image names whole, the fleet table inside the
// page, and a full-page screenshot of each in the report.

import { Locator, Page } from '@playwright/test';
import { sessionApi, steveUrl } from './support/api';
import { expectAccessible, expectTheme, useDarkTheme } from './support/a11y';
import { useEmulator } from './support/emulator';
import { attachFullPage, sidewaysScroll, tooWide } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL_PAGE, CHANNELS, FLEET, NS, POOL_TYPE, POOLS, SOURCES
} from './support/names';

useEmulator();

/** The lines an inline element takes: its client rects' distinct tops (a line may hold several). */
async function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((element) => new Set(Array.from(element.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size);
}

async function expectOneLine(locators: Locator[]): Promise<void> {
  for (const locator of locators) {
    // Polled: the table lays its rows out again while their node counts come in.
    await expect.poll(() => lineCount(locator), { message: await locator.innerText() }).toBe(1);
  }
}

/** The element shows all its text: nothing cut off by an ellipsis or hidden overflow. */
async function expectWhole(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((element) => element.scrollWidth - element.clientWidth), { message: await locator.innerText() }).toBeLessThanOrEqual(0);
}

/** The element's right edge is inside the container's content box (its right padding left free). */
async function expectInside(locator: Locator, container: Locator): Promise<void> {
  const right = await container.evaluate((element) => element.getBoundingClientRect().right - parseFloat(getComputedStyle(element).paddingRight));

  await expect.poll(async() => (await locator.boundingBox())?.x ?? Infinity).toBeLessThan(right);
  await expect.poll(async() => {
    const box = await locator.boundingBox();

    return box ? box.x + box.width : Infinity;
  }).toBeLessThanOrEqual(right + 0.5);
}

interface Check {
  name: string;
  path: string;
  root: string;
  /** Waits until the page shows what it is checked on, and checks what is particular to it. */
  ready: (page: Page) => Promise<void>;
}

const CHECKS: Check[] = [
  {
    name:  'fleet overview',
    path:  FLEET,
    root:  '.fleet-page',
    ready: async(page) => {
      const table = page.getByTestId('fleet-table');

      await expect(page.getByTestId('fleet-evidence-loading')).toHaveCount(0, { timeout: 30_000 });
      // How far behind reads under the pinned image once the Behind column is hidden.
      await expect(table.locator('tbody tr', { hasText: 'edge-berlin' })).toContainText('Behind by 1 image');
      await expectOneLine(await table.getByTestId('fleet-pool-name').all());
      await expectOneLine(await table.locator('tbody code:visible').all());
      // The table stays inside the page's content (it stuck out 20 px, under the page's padding).
      await expectInside(table.locator('table').first(), page.locator('.fleet-page'));
    },
  },
  {
    name:  'channels',
    path:  CHANNELS,
    root:  '.channels-page',
    ready: async(page) => {
      const table = page.getByTestId('channels-table');

      await expect(table.getByTestId('channel-count').first()).toBeVisible();
      await expectOneLine(await table.getByTestId('channel-link').all());
      // The source wraps at its slashes, not every few characters (it took 12 lines before).
      const source = table.locator('tr', { hasText: 'sl-micro-6.1-base' }).locator('.source');

      expect(await lineCount(source)).toBeLessThanOrEqual(3);
    },
  },
  {
    name:  'channel',
    path:  `${ BASE_CHANNEL_PAGE }?version=base-v2.2.0-3.12-os`,
    root:  '.channel-page',
    ready: async(page) => {
      await expect(page.getByTestId('version-changelog').getByTestId('package-diff')).toBeVisible();
      await expect(page.getByTestId('version-changelog').getByTestId('advisory-date').first()).toContainText(/ago/);
    },
  },
  {
    name:  'compare',
    path:  `${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`,
    root:  '.compare-page',
    ready: async(page) => {
      const diff = page.getByTestId('package-diff');
      const changed = diff.locator('td.d2h-ins', { hasText: 'kernel-default.x86_64  6.4.0-1.3' });

      // The rows hold each line whole (the box scrolls sideways, not the page).
      await expectWhole(diff.getByTestId('package-row-new').filter({ hasText: 'kernel-default.x86_64  6.4.0-1.3' }));
      await expectInside(diff.getByTestId('package-rows'), page.locator('.compare-page'));
      await diff.getByTestId('show-unified').click();
      // Side by side would cut the versions off at this width: the diff shows line by line and says so.
      await expect(diff.getByTestId('layout-narrow')).toBeVisible();
      await expect(diff.getByTestId('layout-side-by-side')).toBeDisabled();
      await expect(changed).toBeVisible();
      const [cell, main] = await Promise.all([changed.boundingBox(), page.locator('main.main-layout').boundingBox()]);

      expect(cell && main && cell.x + cell.width <= main.x + main.width).toBe(true);
      // Each picker shows its image's whole name, date and version (it read "– b…").
      for (const picker of ['select-old', 'select-new']) {
        await expectWhole(page.getByTestId(picker).locator('.vs__selected'));
      }
      await expect(page.getByTestId('select-old')).toContainText('– base-v2.2.0-3.8-os');
      // The image selects write each date in the person's date format (the shell's default here).
      // (Created 2024-11-27 16:07 UTC: the 27th or 28th in the browser's time zone.)
      await expect(page.getByTestId('select-new')).toContainText(/v2\.2\.0-3\.12 \((Wed, Nov 27|Thu, Nov 28) 2024\)/);
      // An advisory's date as Rancher shows it: relative, the date and time on hover.
      const date = page.getByTestId('advisories').getByTestId('advisory-date').first();

      await expect(date).toContainText(/ago/);
      await expect(date.getByTestId('live-time')).toHaveAttribute('title', /^\w{3}, Nov \d+ 2024 \d+:\d\d:\d\d [ap]m$/);
    },
  },
  {
    name:  'workload pools',
    path:  POOLS,
    root:  '.pools-page',
    ready: async(page) => {
      await expect(page.getByTestId('pools-table').locator('tbody tr', { hasText: 'edge-berlin' }).first()).toBeVisible();
    },
  },
  {
    name:  'pool',
    path:  '/os-upgrades/c/_/pools/fleet-default/edge-berlin',
    root:  '.pool-page',
    ready: async(page) => {
      await expect(page.getByRole('cell', { name: 'edge-berlin-02-node-3' })).toBeVisible({ timeout: 40_000 });
    },
  },
  {
    name:  'pool nodes',
    path:  '/os-upgrades/c/_/pools/fleet-default/edge-berlin/nodes',
    root:  '.pool-nodes-page',
    ready: async(page) => {
      await expect(page.getByRole('cell', { name: 'edge-berlin-02-node-3' })).toBeVisible({ timeout: 40_000 });
    },
  },
  {
    name:  'pool form',
    path:  '/os-upgrades/c/_/pools/fleet-default/edge-berlin/edit',
    root:  '.pool-edit',
    ready: async(page) => {
      await expect(page.getByTestId('pool-save-async-button')).toBeVisible();
    },
  },
  {
    name:  'changelog sources',
    path:  SOURCES,
    root:  '.sources-page',
    ready: async(page) => {
      await expect(page.getByTestId('channel-sources-sl-micro-6.1-base')).toBeVisible();
    },
  },
];

for (const theme of ['light', 'dark']) {
  test(`every page fits 1024 px without sideways scroll and passes axe (${ theme })`, async({ page, problems }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await loginAs(page, 'admin');
    if (theme === 'dark') {
      await useDarkTheme(page);
    }

    for (const check of CHECKS) {
      await test.step(check.name, async() => {
        await page.goto(dashboardPath(check.path));
        await expect(page.locator(check.root)).toBeVisible();
        await expectTheme(page, theme);
        await check.ready(page);
        expect(await sidewaysScroll(page), `too wide: ${ (await tooWide(page)).join(', ') }`).toBeLessThanOrEqual(0);
        await expectAccessible(page, check.root);
        await attachFullPage(page, testInfo, `${ check.name } 1024 ${ theme }`);
      });
    }
    expect(problems.pageErrors).toEqual([]);
  });
}

/** No diff half hides part of its lines behind a sideways scroll (side by side cut the versions off). */
async function expectDiffWhole(page: Page): Promise<void> {
  const sides = page.locator('.d2h-file-side-diff, .d2h-file-diff');

  await expect(sides.first()).toBeVisible();
  for (const side of await sides.all()) {
    await expectWhole(side);
  }
}

// Issue 24: the same pages at a desktop width, where the tables have all their columns.
for (const theme of ['light', 'dark']) {
  test(`at 1400 px names, chips, pickers, the timeline and the diff are whole (${ theme })`, async({ page, problems }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await loginAs(page, 'admin');
    // A pool on edge-berlin's group: edge-berlin's row says it overlaps this long name.
    const created = await sessionApi(page).post(steveUrl(POOL_TYPE, NS), {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   { name: 'walk-selector-overlap', namespace: NS },
      spec:       { managedOSVersionName: 'base-v2.2.0-3.9-os', clusterTargets: [{ clusterGroup: 'berlin' }] },
    });

    expect(created.status).toBeLessThan(300);
    if (theme === 'dark') {
      await useDarkTheme(page);
    }

    await test.step('workload pools', async() => {
      await page.goto(dashboardPath(POOLS));
      await expectTheme(page, theme);
      const table = page.getByTestId('pools-table');
      const berlin = table.locator('tbody tr', { has: page.getByRole('link', { name: 'edge-berlin', exact: true }) });

      await expect(berlin).toBeVisible();
      // "chain-" / "canary": a name broke at its hyphen; the table still fits the page.
      await expectOneLine(await table.getByTestId('pool-name').all());
      await expectInside(table.locator('table').first(), page.locator('.pools-page'));
      await expect(berlin.getByTestId('pool-overlaps')).toHaveText('Overlaps walk-selector-overlap');
      await expectWhole(berlin.getByTestId('pool-overlaps'));
      // "… or newer.. See": the reason's own full stop and the message's.
      await expect(table.getByTestId('pool-pin-withdrawn').first()).toContainText('or newer. See');
    });

    await test.step('channel', async() => {
      await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }?version=base-v2.2.0-3.12-os`));
      const panel = page.getByTestId('version-changelog');

      await expect(panel.getByTestId('package-diff')).toBeVisible();
      await panel.getByTestId('show-unified').click();
      const sideBySide = panel.getByTestId('layout-side-by-side');

      if (await sideBySide.isEnabled()) {
        await sideBySide.click();
      }
      await expectDiffWhole(page);
    });

    await test.step('compare', async() => {
      await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`));
      for (const picker of ['select-old', 'select-new']) {
        await expectWhole(page.getByTestId(picker).locator('.vs__selected'));
      }
    });

    await test.step('fleet overview', async() => {
      await page.goto(dashboardPath(FLEET));
      const table = page.getByTestId('fleet-table');

      await expect(table.locator('tbody tr', { hasText: 'edge-berlin' })).toBeVisible();
      await expectInside(table.locator('table').first(), page.locator('.fleet-page'));
    });
    expect(problems.pageErrors).toEqual([]);
  });
}
