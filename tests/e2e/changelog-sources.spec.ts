// Issue 15: changelogs from sources that exist. The default path on today's operator (one notice,
// no per-image errors), the ManagedOSChangelog protocol of elemental-operator PR #891 (one click,
// its states, one resource), package lists from a channel's tar, the sources page, and the
// cache kept across sessions. The tests that run everywhere publish their channels, tar and
// changelogs through the API and the specs' file host (support/seed.ts, support/seed-channels.ts);
// a Rancher without the operator, the PR #891 protocol and a refused write need the emulator (@emulator).

import { Page } from '@playwright/test';
import { EMULATOR_TAG, useEmulator } from './support/emulator';
import { sessionApi, steveUrl } from './support/api';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL, BASE_CHANNEL_PAGE, CHANGELOG_TYPE, CHANNEL_TYPE, CHANNELS, NS, SOURCES
} from './support/names';
import { filesUrl, readOriginsSetting, useSeed, writeOriginsSetting } from './support/seed';
import {
  annotateChannel, CHANGELOG_URL_ANNOTATION, channelPage, comparePage, publishPackagesTar, scaleVersion, seedScaleChannel, useChangelogHost,
  useDefaultChangelogPath
} from './support/seed-channels';

const OLD = 'base-v2.2.0-3.8-os';
const MIDDLE = 'base-v2.2.0-3.9-os';
const NEW = 'base-v2.2.0-3.12-os';

const seed = useSeed();

/** Removes the changelog annotations from one of the emulator's seeded channels (@emulator tests), so the pages use the operator's default path. */
async function useDefaultPath(page: Page, channel: string): Promise<void> {
  const api = sessionApi(page);
  const current = (await api.get(steveUrl(CHANNEL_TYPE, NS, channel))).body as { metadata: { annotations?: Record<string, string> } };
  const annotations = { ...current.metadata.annotations };

  delete annotations['os-upgrades.cattle.io/changelog-url'];
  delete annotations['os-upgrades.cattle.io/packages-tar-url'];
  const written = await api.put(steveUrl(CHANNEL_TYPE, NS, channel), { ...current, metadata: { ...current.metadata, annotations } });

  expect(written.status).toBe(200);
}

test.describe('no changelog service', () => {
  test('the default path on today\'s operator: one notice for the channel, no per-image errors, never "No advisories"', async({ page }) => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.1-base' });

    await useDefaultChangelogPath(seed, channel);
    await loginAs(page, 'admin');
    const asked: string[] = [];

    page.on('request', (request) => {
      if (request.url().includes('/elemental/changelog/')) {
        asked.push(request.url());
      }
    });
    await page.goto(dashboardPath(comparePage(channel, OLD, NEW)));
    const notice = page.getByTestId('no-changelog-service');

    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText(`This Rancher serves no changelogs for channel ${ channel.name }`);
    // Today's operator answers every path under /elemental/changelog this way
    // (rancher/elemental-operator pkg/server/server.go: "unknwon api", its own spelling).
    await expect(notice).toContainText('unknwon api');
    await expect(notice.getByTestId('sources-link')).toBeVisible();
    await expect(page.getByTestId('file-error')).toHaveCount(0);
    await expect(page.getByTestId('no-advisories')).toHaveCount(0);
    await expect(page.getByTestId('unknown-changes')).toContainText(channel.version(MIDDLE));
    await expect(page.getByTestId('unknown-changes')).toContainText(channel.version(NEW));
    // The source was asked once; every other file was known to be absent.
    expect(asked).toHaveLength(1);
  });
});

test.describe('no Elemental operator', { tag: EMULATOR_TAG }, () => {
  const emulator = useEmulator('changelog-service mode');

  test('Rancher\'s index.html for the default path reads as no service, not as a changelog', async({ page }) => {
    await emulator.control.setChangelogService('none');
    await loginAs(page, 'admin');
    await useDefaultPath(page, BASE_CHANNEL);
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ OLD }&new=${ NEW }`));
    const notice = page.getByTestId('no-changelog-service');

    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('The server answered with a web page where a changelog file was expected.');
    await expect(page.getByTestId('file-error')).toHaveCount(0);
    await expect(page.getByTestId('no-advisories')).toHaveCount(0);
  });
});

test.describe('the ManagedOSChangelog protocol (PR #891)', { tag: EMULATOR_TAG }, () => {
  const emulator = useEmulator('changelog-service mode');

  test.beforeEach(async({ page }) => {
    await emulator.control.setChangelogService('pr891', 1500);
    await loginAs(page, 'admin');
    await useDefaultPath(page, BASE_CHANNEL);
  });

  test('one click extracts the changelog: its states, the advisories, one resource; none without the click', async({ page, browser }) => {
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ MIDDLE }&new=${ NEW }`));
    await expect(page.getByTestId('no-changelog-service')).toBeVisible();
    const button = page.getByTestId('extract-changelog');

    await expect(button).toBeVisible();
    expect(await emulator.control.objects(CHANGELOG_TYPE)).toHaveLength(0);

    await button.click();
    await expect(page.getByTestId('extract-state')).toHaveAttribute('data-stage', 'starting');
    await expect(page.getByTestId('extract-state')).toContainText('starting a pod');
    await expect(page.getByTestId('extract-state')).toHaveAttribute('data-stage', 'fetched', { timeout: 20_000 });
    await expect(page.getByTestId('advisories').getByTestId('advisory').first()).toBeVisible();
    await expect(page.getByTestId('severity-summary')).toBeVisible();

    const created = await emulator.control.objects(CHANGELOG_TYPE);

    expect(created).toHaveLength(1);
    // The operator names its Service after the object: a DNS-1035 label, else ServiceCreationFailure.
    expect((created[0].metadata as { name: string }).name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
    expect(created[0]).toMatchObject({
      spec: {
        osVersion: NEW, cleanupAfterMinutes: 60, channelRef: { name: BASE_CHANNEL }
      }
    });
    // A reload reads the extracted file from the browser's cache: no click, no request.
    await page.reload();
    await expect(page.getByTestId('advisories').getByTestId('advisory').first()).toBeVisible();
    await expect(page.getByTestId('extract-changelog')).toHaveCount(0);

    // Another browser (no cache) reuses the resource: no second one for the version.
    const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const second = await other.newPage();

    await loginAs(second, 'admin');
    await second.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ MIDDLE }&new=${ NEW }`));
    await second.getByTestId('extract-changelog').click();
    await expect(second.getByTestId('extract-state')).toHaveAttribute('data-stage', 'fetched', { timeout: 20_000 });
    expect(await emulator.control.objects(CHANGELOG_TYPE)).toHaveLength(1);
    await other.close();
  });

  test('a viewer gets no button', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ MIDDLE }&new=${ NEW }`));
    await expect(page.getByTestId('no-changelog-service')).toBeVisible();
    await expect(page.getByTestId('changelog-extract')).toBeVisible();
    await expect(page.getByTestId('extract-changelog')).toHaveCount(0);
    expect(await emulator.control.objects(CHANGELOG_TYPE)).toHaveLength(0);
  });
});

test.describe('package lists from a channel\'s tar', () => {
  test('the package diff comes from the tar the channel names, read once', async({ page }) => {
    const channel = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const tar = await publishPackagesTar(seed, channel);

    await loginAs(page, 'admin');
    const asked: string[] = [];

    page.on('request', (request) => {
      const url = request.url();

      if (url.includes('.packages')) {
        asked.push(new URL(url).pathname);
      }
    });
    await page.goto(dashboardPath(comparePage(channel, OLD, NEW)));
    const diff = page.getByTestId('package-diff');

    await expect(diff.getByTestId('package-row-new').filter({ hasText: 'kernel-default.x86_64  6.4.0-1.3' })).toBeVisible();
    expect(asked).toEqual([tar]);
  });
});

test.describe('the sources page', () => {
  const changelogs = useChangelogHost(seed);
  const row = (page: Page, channel: string) => page.getByTestId(`channel-sources-${ channel }`);
  const template = (page: Page, channel: string) => row(page, channel).getByTestId('template-input');

  async function testTemplate(page: Page, channel: string, value: string): Promise<string | null> {
    await template(page, channel).fill(value);
    await row(page, channel).getByTestId('test-template').click();
    const result = row(page, channel).getByTestId('source-test-result');

    await expect(result).not.toHaveAttribute('data-outcome', 'testing');

    return result.getAttribute('data-outcome');
  }

  test('an administrator sets, tests (each outcome) and saves the sources', async({ page }) => {
    const withTar = await seed.channel({ fixture: 'sl-micro-6.1-base' });
    const channel = await seed.channel({ fixture: 'sl-micro-6.2-base' });
    const files = `${ filesUrl() }/${ channel.name }`;
    const origins = await readOriginsSetting(seed);

    await publishPackagesTar(seed, withTar);
    // A web server the administrator allows that sends no CORS headers.
    changelogs.host.rules.set('/', { cors: false });
    try {
      await loginAs(page, 'admin');
      await page.goto(dashboardPath(CHANNELS));
      await page.getByRole('link', { name: 'Changelog sources' }).click();
      await expect(page).toHaveURL(/\/sources$/);
      await expect(row(page, channel.name)).toBeVisible();

      expect(await testTemplate(page, channel.name, `${ files }/{name}.updates.log`)).toBe('found');
      expect(await testTemplate(page, channel.name, `${ files }/nothing-{name}.updates.log`)).toBe('notFound');
      expect(await testTemplate(page, channel.name, '/elemental/changelog/{name}/{name}.updates.log')).toBe('notAChangelog');
      expect(await testTemplate(page, channel.name, 'https://files.example.com/{name}.updates.log')).toBe('blocked');
      const allowed = `${ new URL(filesUrl()).origin },${ changelogs.host.url }`;

      await page.getByTestId('origins-input').fill(allowed);
      expect(await testTemplate(page, channel.name, `${ changelogs.host.url }/${ channel.name }/{name}.updates.log`)).toBe('cors');
      await row(page, withTar.name).getByTestId('test-tar').click();
      await expect(row(page, withTar.name).getByTestId('source-test-result')).toHaveAttribute('data-outcome', 'found');

      // Save a template, and the origins.
      await template(page, channel.name).fill(`${ files }/v2-{name}.updates.log`);
      await row(page, channel.name).getByTestId('save-channel-sources').click();
      await expect(row(page, channel.name).getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
      await page.getByTestId('save-origins').click();
      await expect(page.getByTestId('origins').getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

      const saved = await seed.get(CHANNEL_TYPE, channel.name, channel.namespace) as { metadata: { annotations: Record<string, string> } };

      expect(saved.metadata.annotations[CHANGELOG_URL_ANNOTATION]).toBe(`${ files }/v2-{name}.updates.log`);
      expect(await readOriginsSetting(seed)).toBe(allowed);

      // A change made meanwhile by someone else: 409, nothing written, said so.
      await annotateChannel(seed, channel, { [CHANGELOG_URL_ANNOTATION]: undefined });
      await template(page, channel.name).fill(`${ files }/{name}.updates.log`);
      await row(page, channel.name).getByTestId('save-channel-sources').click();
      await expect(row(page, channel.name).getByTestId('save-status')).toContainText('Someone changed this object meanwhile; nothing was written');
    } finally {
      // The page saved the setting: back to what it was before the test (the seed restores its own change).
      await writeOriginsSetting(seed, origins ?? '');
    }
  });

  test('a viewer has no entry, and the link answers the shell\'s 404', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('link', { name: 'Channels' }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Changelog sources' })).toHaveCount(0);
    // The link too: the shell's extension route guard answers 404 where the entry's conditions
    // (PUT on channels and settings) fail (shell config/router/navigation-guards/extension-route-guard.js).
    await page.goto(dashboardPath(SOURCES));
    await expect(page.getByRole('heading', { name: /404/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('save-channel-sources')).toHaveCount(0);
  });
});

test.describe('a refused write on the sources page', { tag: EMULATOR_TAG }, () => {
  const emulator = useEmulator('fault injection');
  const row = (page: Page, channel: string) => page.getByTestId(`channel-sources-${ channel }`);

  test('a refused write (403) says nothing was written', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(row(page, 'sl-micro-6.2-base')).toBeVisible();
    await emulator.control.addFault({
      path: '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/sl-micro-6.2-base', method: 'PUT', status: 403, times: 1
    });
    await row(page, 'sl-micro-6.2-base').getByTestId('template-input').fill('/x/{name}.updates.log');
    await row(page, 'sl-micro-6.2-base').getByTestId('save-channel-sources').click();
    await expect(row(page, 'sl-micro-6.2-base').getByTestId('save-status')).toContainText('You may not change this object; nothing was written');
  });
});

test.describe('the cache kept across sessions', () => {
  test('after a reload, a 500-image compare takes its files from the cache: no requests', async({ page }) => {
    test.setTimeout(240_000);
    const channel = await seedScaleChannel(seed);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ channelPage(channel) }/compare?old=${ channel.version(scaleVersion(100)) }&new=${ channel.version(scaleVersion(600)) }`));
    await expect(page.getByTestId('severity-summary')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('package-diff')).toBeVisible();
    // The cache is written behind the page: wait until every file is in it.
    await expect.poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('os-upgrades-changelog-index');

      open.onsuccess = () => {
        const count = open.result.transaction('index').objectStore('index').count();

        count.onsuccess = () => resolve(count.result);
      };
      open.onerror = () => resolve(0);
    })), { timeout: 30_000 }).toBeGreaterThanOrEqual(490);

    const asked: string[] = [];

    page.on('request', (request) => {
      if (request.url().startsWith(filesUrl())) {
        asked.push(request.url());
      }
    });
    await page.reload();
    await expect(page.getByTestId('severity-summary')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('package-diff')).toBeVisible();
    expect(asked).toEqual([]);
  });
});
