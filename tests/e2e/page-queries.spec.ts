// Issue 19: every page loads only what it shows. The browser's requests for ManagedOSVersions are
// captured on each page: a channel's (by its label), some by name (pins, the compare's images) or
// a count (a page of one); never a list of every version. Only what a real Rancher offers is used:
// each test publishes the channels (and the pool) it opens through the API (support/seed.ts).

import { Page, Request } from '@playwright/test';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { PRODUCT } from './support/names';
import { channelRow } from './support/channels';
import { useSeed } from './support/seed';
import { field, sessionApi } from './support/api';
import { BASE, NO_CLUSTER } from './support/seed-pages';

const CHANNEL_LABEL = 'metadata.labels[elemental.cattle.io/channel]';
// A list of every namespace, or of one (`/v1/<type>/<namespace>`); not one object.
const VERSIONS = /\/v1\/elemental\.cattle\.io\.managedosversions(\/[^/?]+)?(\?|$)/;

/** Why a list request of ManagedOSVersions reads less than all of them ('' when it reads all). */
export function boundOf(url: URL): string {
  const filters = url.searchParams.getAll('filter');
  const selector = url.searchParams.get('labelSelector') ?? '';

  if (url.searchParams.get('pagesize') === '1' || (url.searchParams.has('summary') && url.searchParams.get('summaryonly') === 'true')) {
    return 'count';
  }
  if (filters.some((filter) => filter.includes(CHANNEL_LABEL)) || selector.includes('elemental.cattle.io/channel')) {
    return 'channel';
  }
  if (filters.some((filter) => filter.split(',').every((part) => part.startsWith('metadata.name=')))) {
    return 'names';
  }

  return '';
}

/** Every list request of a type (`path`: its list URLs) the page makes from now on. */
function captureLists(page: Page, path: RegExp): URL[] {
  const seen: URL[] = [];

  page.on('request', (request: Request) => {
    const url = new URL(request.url());

    if (request.method() === 'GET' && path.test(url.pathname + (url.search ? '?' : ''))) {
      seen.push(url);
    }
  });

  return seen;
}

const captureVersionLists = (page: Page) => captureLists(page, VERSIONS);
const BUNDLES = /\/v1\/fleet\.cattle\.io\.bundles(\/[^/?]+)?(\?|$)/;

const unbounded = (urls: URL[]) => urls.filter((url) => !boundOf(url)).map((url) => url.pathname + url.search);

const seed = useSeed();

test.describe('each page reads only the versions it shows', () => {
  test('channels list: counts from one request per namespace, no version until the person searches, then a channel at a time', async({ page }) => {
    const base = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const next = await seed.channel({ fixture: 'sl-micro-6.2-base' });

    await loginAs(page, 'admin');
    const urls = captureVersionLists(page);

    await page.goto(dashboardPath(`${ PRODUCT }/channels`));
    await expect(channelRow(page, base.name).getByTestId('channel-count')).toHaveText('6');
    await expect(channelRow(page, next.name).getByTestId('channel-count')).not.toHaveText('');
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => boundOf(url) !== 'count').map(String)).toEqual([]);
    // Steve's summary of the channel label, alone (`summaryonly`: Rancher 2.15 and newer, rancher/steve
    // v0.9.11), counts every channel of a namespace at once: no channel is then counted on its own.
    const version = String((await (await page.request.get('/rancherversion')).json()).Version ?? '');
    const summaries = urls.filter((url) => url.searchParams.has('summary'));

    if (Number(/^v?2\.(\d+)/.exec(version)?.[1] ?? 0) >= 15) {
      expect(summaries.length).toBeGreaterThan(0);
      expect(urls.filter((url) => !url.searchParams.has('summary')).map(String)).toEqual([]);
    }

    // Its full name: an exact hit comes first whatever else the Rancher's channels hold.
    await page.getByTestId('image-search-input').fill(base.version(BASE.newest));
    await expect(page.getByTestId('image-search-hit').first()).toContainText(base.version(BASE.newest));
    expect(urls.some((url) => boundOf(url) === 'channel')).toBe(true);
    expect(unbounded(urls)).toEqual([]);
  });

  test('channel page: its own channel, by label', async({ page }) => {
    const base = await seed.channel({ fixture: 'sl-micro-6.1-base' });

    await loginAs(page, 'admin');
    const urls = captureVersionLists(page);

    await page.goto(dashboardPath(`${ PRODUCT }/channels/${ base.namespace }/${ base.name }`));
    await expect(page.getByTestId('container-versions').locator('.col-name')).toHaveText([BASE.newest, BASE.middle, BASE.oldest].map((name) => base.version(name)));
    expect(urls.length).toBeGreaterThan(0);
    expect(unbounded(urls)).toEqual([]);
    // Only this channel's label is asked for.
    const channels = new Set(urls.flatMap((url) => url.searchParams.getAll('filter')).filter((filter) => filter.includes(CHANNEL_LABEL)));

    expect([...channels].every((filter) => filter.includes(base.name))).toBe(true);
  });

  test('compare across channels: the two channels of its images, and another only when the person adds it', async({ page }) => {
    const base = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const next = await seed.channel({ fixture: 'sl-micro-6.2-base' });
    const unstable = await seed.channel({ fixture: 'unstable' });

    await loginAs(page, 'admin');
    const urls = captureVersionLists(page);

    await page.goto(dashboardPath(`${ PRODUCT }/channels/${ next.namespace }/${ next.name }/compare?old=${ base.version(BASE.newest) }&new=${ next.version('base-v2.3.0-6.1-os') }`));
    await expect(page.getByTestId('package-diff')).toBeVisible();
    expect(unbounded(urls)).toEqual([]);
    const labelled = () => urls.flatMap((url) => url.searchParams.getAll('filter')).filter((filter) => filter.includes(CHANNEL_LABEL));
    const ofChannel = (name: string) => (filter: string) => new RegExp(`[(=, ]${ name }\\)?$`).test(filter);

    expect(labelled().every((filter) => ofChannel(base.name)(filter) || ofChannel(next.name)(filter))).toBe(true);
    expect(labelled().some(ofChannel(base.name))).toBe(true);

    // Another channel's images are offered once the person asks for them.
    await page.getByTestId('select-new').click();
    // The menu opens again by itself, with that channel's images.
    await page.getByRole('option', { name: `Images of ${ unstable.namespace }/${ unstable.name }…` }).click();
    await expect(page.locator('.vs__option-kind-group', { hasText: `${ unstable.namespace }/${ unstable.name }` })).toBeVisible();
    expect(labelled().some(ofChannel(unstable.name))).toBe(true);
    expect(unbounded(urls)).toEqual([]);
  });

  test('pools list and a pool form: the selectors\' channels and the pins', async({ page }) => {
    const base = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const pool = await seed.pool('e2e-queries', { managedOSVersionName: base.version(BASE.middle), clusterTargets: NO_CLUSTER }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: base.name, version: '~2.2' }) });

    await loginAs(page, 'admin');
    const urls = captureVersionLists(page);
    const bundleLists = captureLists(page, BUNDLES);

    await page.goto(dashboardPath(`${ PRODUCT }/pools`));
    await expect(page.getByTestId('pools-table')).toBeVisible();
    await expect(page.getByTestId('pool-versions-loading')).toHaveCount(0);
    // Each Bundle holds its pool's Plan: with Rancher's SQL cache only the pools in view's are read.
    const sqlCache = (await sessionApi(page).get('/v1/management.cattle.io.features/ui-sql-cache')).body;

    if (field(sqlCache, 'spec.value') ?? field(sqlCache, 'status.default')) {
      await expect.poll(() => bundleLists.length).toBeGreaterThan(0);
      expect(bundleLists.filter((url) => boundOf(url) !== 'names').map((url) => url.pathname + url.search)).toEqual([]);
    }
    await page.getByTestId('pools-table').getByRole('link', { name: pool, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${ base.namespace }/${ pool }`));
    await page.waitForLoadState('networkidle');
    expect(unbounded(urls)).toEqual([]);
  });
});
