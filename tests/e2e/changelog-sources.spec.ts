// Issue 15: changelogs from sources that exist. The default path on today's operator (one notice,
// no per-image errors), the ManagedOSChangelog protocol of elemental-operator PR #891 (one click,
// its states, one resource), package lists from a channel's tar, the sources page, and the
// cache kept across sessions.

import { Page } from '@playwright/test';
import { useEmulator } from './support/emulator';
import { sessionApi, steveUrl } from './support/api';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import {
  BASE_CHANNEL, BASE_CHANNEL_PAGE, CHANGELOG_TYPE, CHANNEL_TYPE, CHANNELS, NS, SOURCES
} from './support/names';

const OLD = 'base-v2.2.0-3.8-os';
const MIDDLE = 'base-v2.2.0-3.9-os';
const NEW = 'base-v2.2.0-3.12-os';
const PORT = process.env.E2E_EMULATOR_PORT || '8990';

const emulator = useEmulator();

/** Removes the changelog annotations from a channel (as read), so the pages use the operator's default path. */
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
    await loginAs(page, 'admin');
    await useDefaultPath(page, BASE_CHANNEL);
    const asked: string[] = [];

    page.on('request', (request) => {
      if (request.url().includes('/elemental/changelog/')) {
        asked.push(request.url());
      }
    });
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ OLD }&new=${ NEW }`));
    const notice = page.getByTestId('no-changelog-service');

    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('This Rancher serves no changelogs for channel sl-micro-6.1-base');
    await expect(notice).toContainText('unknwon api');
    await expect(notice.getByTestId('sources-link')).toBeVisible();
    await expect(page.getByTestId('file-error')).toHaveCount(0);
    await expect(page.getByTestId('no-advisories')).toHaveCount(0);
    await expect(page.getByTestId('unknown-changes')).toContainText(MIDDLE);
    await expect(page.getByTestId('unknown-changes')).toContainText(NEW);
    // The source was asked once; every other file was known to be absent.
    expect(asked).toHaveLength(1);
  });
});

test.describe('no Elemental operator', () => {
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

test.describe('the ManagedOSChangelog protocol (PR #891)', () => {
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
    await loginAs(page, 'admin');
    const asked: string[] = [];

    page.on('request', (request) => {
      const url = request.url();

      if (url.includes('.packages')) {
        asked.push(new URL(url).pathname);
      }
    });
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }/compare?old=${ OLD }&new=${ NEW }`));
    const diff = page.getByTestId('package-diff');

    await expect(diff.getByTestId('package-row-new').filter({ hasText: 'kernel-default.x86_64  6.4.0-1.3' })).toBeVisible();
    expect(asked).toEqual(['/changelog-files/sl-micro-6.1-base.packages.tar']);
  });
});

test.describe('the sources page', () => {
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
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await page.getByRole('link', { name: 'Changelog sources' }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await expect(row(page, 'sl-micro-6.2-base')).toBeVisible();

    expect(await testTemplate(page, 'sl-micro-6.2-base', '/changelog-files/{name}.updates.log')).toBe('found');
    expect(await testTemplate(page, 'sl-micro-6.2-base', '/changelog-files/nothing-{name}.updates.log')).toBe('notFound');
    expect(await testTemplate(page, 'sl-micro-6.2-base', '/elemental/changelog/{name}/{name}.updates.log')).toBe('notAChangelog');
    expect(await testTemplate(page, 'sl-micro-6.2-base', 'https://files.example.com/{name}.updates.log')).toBe('blocked');
    // Another origin of the same emulator, allowed but sending no CORS headers.
    await page.getByTestId('origins-input').fill(`http://127.0.0.1:${ PORT }`);
    expect(await testTemplate(page, 'sl-micro-6.2-base', `http://127.0.0.1:${ PORT }/changelog-files/{name}.updates.log`)).toBe('cors');
    await row(page, BASE_CHANNEL).getByTestId('test-tar').click();
    await expect(row(page, BASE_CHANNEL).getByTestId('source-test-result')).toHaveAttribute('data-outcome', 'found');

    // Save a template, and the origins (the setting does not exist yet: it is created).
    await template(page, 'sl-micro-6.2-base').fill('/changelog-files/v2-{name}.updates.log');
    await row(page, 'sl-micro-6.2-base').getByTestId('save-channel-sources').click();
    await expect(row(page, 'sl-micro-6.2-base').getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await page.getByTestId('save-origins').click();
    await expect(page.getByTestId('origins').getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

    const channels = await emulator.control.objects(CHANNEL_TYPE);
    const saved = channels.find((c) => (c.metadata as { name: string }).name === 'sl-micro-6.2-base') as { metadata: { annotations: Record<string, string> } };

    expect(saved.metadata.annotations['os-upgrades.cattle.io/changelog-url']).toBe('/changelog-files/v2-{name}.updates.log');
    const settings = await emulator.control.objects('management.cattle.io.setting');

    expect(settings.find((s) => (s.metadata as { name: string }).name === 'os-upgrades-changelog-origins')).toMatchObject({ value: `http://127.0.0.1:${ PORT }` });

    // A change made meanwhile by someone else: 409, nothing written, said so.
    await useDefaultPath(page, 'sl-micro-6.2-base');
    await template(page, 'sl-micro-6.2-base').fill('/changelog-files/{name}.updates.log');
    await row(page, 'sl-micro-6.2-base').getByTestId('save-channel-sources').click();
    await expect(row(page, 'sl-micro-6.2-base').getByTestId('save-status')).toContainText('Someone changed this object meanwhile; nothing was written');
  });

  test('a refused write (403) says nothing was written; a viewer has no entry, and the link answers the shell\'s 404', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(row(page, 'sl-micro-6.2-base')).toBeVisible();
    await emulator.control.addFault({
      path: '/v1/elemental.cattle.io.managedosversionchannels/fleet-default/sl-micro-6.2-base', method: 'PUT', status: 403, times: 1
    });
    await template(page, 'sl-micro-6.2-base').fill('/x/{name}.updates.log');
    await row(page, 'sl-micro-6.2-base').getByTestId('save-channel-sources').click();
    await expect(row(page, 'sl-micro-6.2-base').getByTestId('save-status')).toContainText('You may not change this object; nothing was written');

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

test.describe('the cache kept across sessions', () => {
  test('after a reload, a 500-image compare takes its files from the cache: no requests', async({ page }) => {
    test.setTimeout(120_000);
    await loginAs(page, 'admin');
    const scale = '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-scale/compare?old=scale-v2.2.0-7.100-os&new=scale-v2.2.0-7.600-os';

    await page.goto(dashboardPath(scale));
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
      if (request.url().includes('/changelog-files/')) {
        asked.push(request.url());
      }
    });
    await page.reload();
    await expect(page.getByTestId('severity-summary')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('package-diff')).toBeVisible();
    expect(asked).toEqual([]);
  });
});
