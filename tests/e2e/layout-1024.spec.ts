// Issue 17: every page at 1024 x 768, light and dark: no sideways scroll of the page (the shell
// scrolls its pages inside main.main-layout, so that is measured too), no serious axe violation,
// names and image chips on one line, the channels' Source readable, the package diff with its
// changed versions in view, the compare pickers' image names whole, the fleet table inside the
// page, and a full-page screenshot of each in the report. Each test publishes the base channel (its
// oldest image withdrawn) and its pools through the API (support/seed-pages.ts), so it runs on a
// real Rancher too; the pages are checked on those objects' rows.

import { Locator, Page } from '@playwright/test';
import { expectAccessible, expectTheme, useDarkTheme, useLightTheme } from './support/a11y';
import { attachFullPage, sidewaysScroll, tooWide } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  CHANNELS, FLEET, POOL_TYPE, POOLS, SOURCES, VERSION_TYPE
} from './support/names';
import { channelRow } from './support/channels';
import { RUN_ID, useSeed } from './support/seed';
import { TEST_NAMESPACE } from './support/env';
import {
  NO_CLUSTER, PageWorld, SELECTOR_ANNOTATION, seedPageWorld, waitForNodes
} from './support/seed-pages';

const CHANNEL_LABEL = 'elemental.cattle.io/channel';

const seed = useSeed();

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

/** The pages' paths on the seeded world. */
function paths(world: PageWorld) {
  const { channel, images } = world;
  const channelPage = `${ CHANNELS }/${ channel.namespace }/${ channel.name }`;
  const pool = `${ POOLS }/${ channel.namespace }/${ world.behind }`;

  return {
    channel: `${ channelPage }?version=${ images.newest }`,
    compare: `${ channelPage }/compare?old=${ images.oldest }&new=${ images.newest }`,
    pool,
  };
}

/** The rows of this test's pools in a table. */
function rowsOf(table: Locator, world: PageWorld): Locator {
  return table.locator('tbody tr').filter({ hasText: new RegExp(`${ world.behind }|${ world.withdrawn }`) });
}

function checks(world: PageWorld): Check[] {
  const { channel } = world;
  const path = paths(world);

  return [
    {
      name:  'fleet overview',
      path:  FLEET,
      root:  '.fleet-page',
      ready: async(page) => {
        const table = page.getByTestId('fleet-table');

        await expect(page.getByTestId('fleet-evidence-loading')).toHaveCount(0, { timeout: 30_000 });
        // How far behind reads under the pinned image once the Behind column is hidden.
        await expect(table.locator('tbody tr', { hasText: world.behind })).toContainText('Behind by 1 image');
        await expectOneLine(await rowsOf(table, world).getByTestId('fleet-pool-name').all());
        await expectOneLine(await rowsOf(table, world).locator('code:visible').all());
        // The table stays inside the page's content (it stuck out 20 px, under the page's padding).
        await expectInside(table.locator('table').first(), page.locator('.fleet-page'));
      },
    },
    {
      name:  'channels',
      path:  CHANNELS,
      root:  '.channels-page',
      ready: async(page) => {
        const row = channelRow(page, channel.name);

        await expect(row.getByTestId('channel-count')).toBeVisible();
        await expectOneLine([row.getByTestId('channel-link')]);
        // The source wraps at its slashes, not every few characters (it took 12 lines before).
        const source = row.locator('.source');

        expect(await lineCount(source)).toBeLessThanOrEqual(3);
      },
    },
    {
      name:  'channel',
      path:  path.channel,
      root:  '.channel-page',
      ready: async(page) => {
        await expect(page.getByTestId('version-changelog').getByTestId('package-diff')).toBeVisible();
        await expect(page.getByTestId('version-changelog').getByTestId('advisory-date').first()).toContainText(/ago/);
      },
    },
    {
      name:  'compare',
      path:  path.compare,
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
        await expect(page.getByTestId('select-old')).toContainText(`– ${ world.images.oldest }`);
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
        await expect(page.getByTestId('pools-table').locator('tbody tr', { hasText: world.behind }).first()).toBeVisible();
      },
    },
    {
      name:  'pool',
      path:  path.pool,
      root:  '.pool-page',
      ready: (page) => waitForNodes(page, world.cluster),
    },
    {
      name:  'pool nodes',
      path:  `${ path.pool }/nodes`,
      root:  '.pool-nodes-page',
      ready: (page) => waitForNodes(page, world.cluster),
    },
    {
      name:  'pool form',
      path:  `${ path.pool }/edit`,
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
        await expect(page.getByTestId(`channel-sources-${ channel.name }`)).toBeVisible();
      },
    },
  ];
}

for (const theme of ['light', 'dark'] as const) {
  test(`every page fits 1024 px without sideways scroll and passes axe (${ theme })`, async({ page, problems }, testInfo) => {
    // The seeding (a channel sync, the cluster's nodes read) is in the test's time too.
    test.setTimeout(360_000);
    const world = await seedPageWorld(seed);

    await page.setViewportSize({ width: 1024, height: 768 });
    await loginAs(page, 'admin');
    await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));

    for (const check of checks(world)) {
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
for (const theme of ['light', 'dark'] as const) {
  test(`at 1400 px names, chips, pickers, the timeline and the diff are whole (${ theme })`, async({ page, problems }) => {
    test.setTimeout(240_000);
    const world = await seedPageWorld(seed);
    const path = paths(world);
    // A pool on the first pool's targets: the first one's row says it overlaps this long name.
    const overlap = await seed.pool('walk-overlap', { managedOSVersionName: world.images.middle, clusterTargets: world.cluster.targets });
    // A name of 50 characters (40 and the run's suffix), first by name so on the table's first page.
    const longest = await seed.pool('a-pool-named-as-long-as-the-fleet-allows', { managedOSVersionName: world.images.middle, clusterTargets: NO_CLUSTER });

    await page.setViewportSize({ width: 1400, height: 1000 });
    await loginAs(page, 'admin');
    await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));

    await test.step('workload pools', async() => {
      await page.goto(dashboardPath(POOLS));
      await expectTheme(page, theme);
      const table = page.getByTestId('pools-table');
      const row = (name: string) => table.locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
      const behind = row(world.behind);

      await expect(behind).toBeVisible();
      // "chain-" / "canary": a name broke at its hyphen; the table still fits the page.
      await expectOneLine(await rowsOf(table, world).getByTestId('pool-name').all());
      await expectInside(table.locator('table').first(), page.locator('.pools-page'));
      await expectInside(row(longest).getByTestId(`pool-menu-${ longest }`), page.locator('.pools-page'));
      await expect(behind.getByTestId('pool-overlaps')).toHaveText(`Overlaps ${ overlap }`);
      await expectWhole(behind.getByTestId('pool-overlaps'));
      // "… or newer.. See": the reason's own full stop and the message's.
      await expect(row(world.withdrawn).getByTestId('pool-pin-withdrawn')).toContainText('or newer. See');
    });

    await test.step('channel', async() => {
      await page.goto(dashboardPath(path.channel));
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
      await page.goto(dashboardPath(path.compare));
      for (const picker of ['select-old', 'select-new']) {
        await expectWhole(page.getByTestId(picker).locator('.vs__selected'));
      }
    });

    await test.step('fleet overview', async() => {
      await page.goto(dashboardPath(FLEET));
      const table = page.getByTestId('fleet-table');

      await expect(table.locator('tbody tr', { hasText: world.behind })).toBeVisible();
      await expectInside(table.locator('table').first(), page.locator('.fleet-page'));
    });
    expect(problems.pageErrors).toEqual([]);
  });
}

/** `start` filled out to Kubernetes' longest label value, 63 characters, cut after a letter. */
function longestName(start: string): string {
  const name = `${ start }-as-long-as-kubernetes-allows-a-name-to-be-in-a-label-value`.slice(0, 63);

  return name.endsWith('-') ? `${ name.slice(0, 62) }s` : name;
}

// Issue 30: the pools table pushed a row's ⋮ off the page at 1400 px on long names. A pool named
// with 63 characters, pinned to an image named with 63, first by name so on the first page: at
// every desktop width the ⋮ of every row on the page is in the viewport and takes a click, with
// the Namespace column shown (a pool in fleet-local, which every Rancher has) and hidden.
for (const theme of ['light', 'dark'] as const) {
  test(`the pools table keeps every row's menu on the page whatever the names (${ theme })`, async({ page, problems }) => {
    test.setTimeout(120_000);
    const channel = `e2e-long-${ RUN_ID }-${ theme }`;
    const [older, image] = ['3.9', '3.12'].map((build) => longestName(`sl-micro-6.1-base-v2.2.0-${ build }-os-${ RUN_ID }${ theme }`));
    const pool = longestName(`a-${ RUN_ID }-${ theme }-pool-named`);

    expect([older.length, image.length, pool.length]).toEqual([63, 63, 63]);
    // Two images of one channel as the operator labels them; the pool pins the older and its
    // selector offers the newer, so its row shows the most it can: "Would pick", Approve, ⋮.
    for (const [name, build] of [[older, '3.9'], [image, '3.12']]) {
      await seed.create(VERSION_TYPE, {
        apiVersion: 'elemental.cattle.io/v1beta1',
        kind:       'ManagedOSVersion',
        metadata:   {
          name, namespace: TEST_NAMESPACE, labels: { [CHANNEL_LABEL]: channel }
        },
        spec: {
          version: `v2.2.0-${ build }`, type: 'container', metadata: { upgradeImage: `registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-${ build }`, displayName: 'SL Micro Base 6.1 OS' }
        },
      });
    }
    await seed.create(POOL_TYPE, {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSImage',
      metadata:   {
        name: pool, namespace: TEST_NAMESPACE, annotations: { [SELECTOR_ANNOTATION]: JSON.stringify({ channel, version: '~2.2' }) }
      },
      spec: { managedOSVersionName: older, clusterTargets: NO_CLUSTER },
    });
    await loginAs(page, 'admin');
    await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));

    for (const [width, namespaces] of [[1024, 1], [1280, 1], [1400, 1], [1400, 2], [1280, 2], [1024, 2]] as const) {
      await test.step(`${ width } px, pools in ${ namespaces } namespace(s)`, async() => {
        if (namespaces === 2 && width === 1400) {
          // No targets: the operator refuses cluster targets in fleet-local (its own cluster).
          await seed.pool(`a-${ theme }-in-another-namespace`, {}, {}, 'fleet-local');
        }
        await page.setViewportSize({ width, height: 900 });
        await page.goto(dashboardPath(POOLS));
        await expectTheme(page, theme);
        const table = page.getByTestId('pools-table');
        const row = table.locator('tbody tr', { has: page.getByRole('link', { name: pool, exact: true }) });

        await expect(row.getByTestId('pool-pin')).toHaveText(older);
        await expect(row.getByTestId('pool-would-pick')).toContainText(image);
        await expect(row.getByTestId('pool-approve')).toBeVisible();
        const menus = await table.locator('tbody tr [data-testid^="pool-menu-"]').all();

        expect(menus.length).toBeGreaterThan(0);
        for (const menu of menus) {
          await expect(menu).toBeInViewport({ ratio: 1 });
          await expectInside(menu, page.locator('.pools-page'));
          // Actionable: visible, steady, and not covered by another element.
          await menu.click({ trial: true });
        }
        await row.getByTestId(`pool-menu-${ pool }`).click();
        await expect(page.getByRole('menuitem', { name: 'Edit YAML' })).toBeVisible();
        await page.keyboard.press('Escape');
        expect(await sidewaysScroll(page), `too wide: ${ (await tooWide(page)).join(', ') }`).toBeLessThanOrEqual(0);
      });
    }
    expect(problems.pageErrors).toEqual([]);
  });
}
