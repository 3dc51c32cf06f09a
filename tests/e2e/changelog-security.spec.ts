// Issue 5: hostile changelogs execute nothing; a slow, a failing, a malformed and an oversized
// changelog each show their state inline while the rest of the page works. Each test publishes its
// channel through the API (support/seed.ts); the slow and the failing changelog come from a
// changelog host of the test's own (support/seed-channels.ts), so all of it runs on a real Rancher too.

import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { useSeed } from './support/seed';
import { channelPage, comparePage, useChangelogHost } from './support/seed-channels';

const OLD = 'base-v2.2.0-3.8-os';
const NEW = 'base-v2.2.0-3.12-os';
const BASE = 'sl-micro-6.1-base';

const seed = useSeed();

test.beforeEach(async({ page }) => {
  await loginAs(page, 'admin');
});

test.describe('hostile changelogs', () => {
  test('markup, scripts, handlers and javascript:/data: links in a channel and its changelogs do nothing', async({ page, problems }) => {
    const dialogs: string[] = [];

    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss().catch(() => undefined);
    });
    const hostile = await seed.channel({ fixture: 'hostile' });
    const unstable = await seed.channel({ fixture: 'unstable' });

    await page.goto(dashboardPath(`${ channelPage(hostile) }/compare`));
    const compare = page.getByTestId('image-compare');

    await expect(compare.getByTestId('severity-summary')).toBeVisible();
    for (const button of await compare.locator('[data-testid="advisory"] > button').all()) {
      await button.click();
    }
    await expect(compare.getByText('a fine link')).toHaveAttribute('href', 'https://www.suse.com/support/update/');
    await expect(compare.getByText('a fine link')).toHaveAttribute('rel', 'noopener noreferrer');
    // The ids, titles and package names arrive as text.
    await expect(compare.getByText('HOSTILE-2025-3<script>alert(1)</script>')).toBeVisible();
    await expect(compare.getByText('%%SLMICRO_VERSION%%', { exact: false }).first()).toBeVisible();

    expect(await compare.locator('img, script, iframe, svg[onload]').count()).toBe(0);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));

    expect(hrefs.filter((href) => /^\s*(javascript|data|vbscript):/i.test(href))).toEqual([]);
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(problems.pageErrors).toEqual([]);

    await page.goto(dashboardPath(`${ channelPage(unstable) }?version=${ unstable.version('unstable-os') }`));
    await expect(page.getByTestId(`version-${ unstable.version('unstable-os') }`)).toContainText('%%IMG_REPO%%/suse/sl-micro/%%SLMICRO_VERSION%%/');
  });
});

test.describe('changelog fetch states', () => {
  const changelogs = useChangelogHost(seed);

  test('a slow changelog shows that it is loading while the package diff is already there', async({ page }) => {
    const channel = await seed.channel({ fixture: BASE });

    await changelogs.allow();
    await changelogs.host.serve(seed, channel);
    // Slow enough that a loaded machine shows the diff long before the log arrives, and within
    // the page's 15 s timeout for a file (api/changelog-client.ts).
    changelogs.host.rules.set(`${ channel.version(NEW) }.updates.log`, { latencyMs: 12_000 });
    await page.goto(dashboardPath(comparePage(channel, OLD, NEW)));

    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3', { timeout: 30_000 });
    await expect(page.getByTestId('advisories').getByRole('status')).toContainText('Loading changelogs');
    await expect(page.getByTestId('severity-summary')).toBeVisible({ timeout: 40_000 });
  });

  test('a failing changelog shows its error inline with a retry, while the rest works', async({ page }) => {
    const channel = await seed.channel({ fixture: BASE });
    const failing = `${ channel.version(NEW) }.updates.log`;

    await changelogs.allow();
    await changelogs.host.serve(seed, channel);
    changelogs.host.rules.set(failing, { status: 500 });
    await page.goto(dashboardPath(comparePage(channel, OLD, NEW)));
    const error = page.getByTestId('file-error');

    await expect(error).toContainText(`Changelog of ${ channel.version(NEW) }`);
    await expect(error).toContainText('the server answered 500');
    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');
    // The one log of the span is unknown: its changes are named unknown, never counted as none.
    await expect(page.getByTestId('unknown-changes')).toContainText(channel.version(NEW));
    await expect(page.getByTestId('no-advisories')).toHaveCount(0);

    changelogs.host.rules.delete(failing);
    await error.getByRole('button', { name: `Retry loading the files of ${ channel.version(NEW) }` }).click();
    await expect(page.getByTestId('file-error')).toHaveCount(0);
    await expect(page.getByTestId('severity-summary')).toBeVisible();
  });

  test('a malformed and an oversized changelog are refused with their reason', async({ page }) => {
    // A log cut off mid-answer, and one past the 5 MiB a log may have (domain/updatelog.ts).
    const channel = await seed.channel({
      fixture: BASE,
      files:   {
        [NEW]: { log: '{"type":"collection","data":[{"id":"broken",' },
        [OLD]: { log: `[{"id":"oversized","description":"${ 'x'.repeat(6 * 1024 * 1024) }"}]` },
      },
    });

    await page.goto(dashboardPath(`${ channelPage(channel) }?version=${ channel.version(NEW) }`));
    await expect(page.getByTestId('version-changelog').getByTestId('file-error')).toContainText(/not valid JSON|not a list of advisories/);
    await expect(page.getByTestId('version-changelog').getByTestId('package-diff')).toBeVisible();

    await page.goto(dashboardPath(`${ channelPage(channel) }?version=${ channel.version(OLD) }`));
    await expect(page.getByTestId('version-changelog').getByTestId('file-error')).toContainText('larger than');
  });
});
