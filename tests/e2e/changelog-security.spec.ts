// Issue 5: hostile changelogs execute nothing; a slow, a failing, a malformed and an oversized
// changelog each show their state inline while the rest of the page works.

import { useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { BASE_CHANNEL_PAGE } from './support/names';

const COMPARE = `${ BASE_CHANNEL_PAGE }/compare?old=base-v2.2.0-3.8-os&new=base-v2.2.0-3.12-os`;
const LOG_3_12 = '*/base-v2.2.0-3.12-os.updates.log';

const emulator = useEmulator();

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
    await page.goto(dashboardPath('/os-upgrades/c/_/channels/fleet-default/hostile/compare'));
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

    await page.goto(dashboardPath('/os-upgrades/c/_/channels/fleet-default/unstable?version=unstable-os'));
    await expect(page.getByTestId('version-unstable-os')).toContainText('%%IMG_REPO%%/suse/sl-micro/%%SLMICRO_VERSION%%/');
  });
});

test.describe('changelog fetch states', () => {
  test('a slow changelog shows that it is loading while the package diff is already there', async({ page }) => {
    await emulator.control.addFault({ path: LOG_3_12, latencyMs: 6000 });
    await page.goto(dashboardPath(COMPARE));

    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');
    await expect(page.getByTestId('advisories').getByRole('status')).toContainText('Loading changelogs');
    await expect(page.getByTestId('severity-summary')).toBeVisible({ timeout: 20_000 });
  });

  test('a failing changelog shows its error inline with a retry, while the rest works', async({ page }) => {
    await emulator.control.addFault({ path: LOG_3_12, status: 500 });
    await page.goto(dashboardPath(COMPARE));
    const error = page.getByTestId('file-error');

    await expect(error).toContainText('Changelog of base-v2.2.0-3.12-os');
    await expect(error).toContainText('the server answered 500');
    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');
    // The one log of the span is unknown: its changes are named unknown, never counted as none.
    await expect(page.getByTestId('unknown-changes')).toContainText('base-v2.2.0-3.12-os');
    await expect(page.getByTestId('no-advisories')).toHaveCount(0);

    await emulator.control.clearFaults();
    await error.getByRole('button', { name: 'Retry loading the files of base-v2.2.0-3.12-os' }).click();
    await expect(page.getByTestId('file-error')).toHaveCount(0);
    await expect(page.getByTestId('severity-summary')).toBeVisible();
  });

  test('a malformed and an oversized changelog are refused with their reason', async({ page }) => {
    await emulator.control.addFault({ path: LOG_3_12, body: 'malformed' });
    await emulator.control.addFault({ path: '*/base-v2.2.0-3.8-os.updates.log', body: 'oversized' });
    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }?version=base-v2.2.0-3.12-os`));
    await expect(page.getByTestId('version-changelog').getByTestId('file-error')).toContainText(/not valid JSON|not a list of advisories/);
    await expect(page.getByTestId('version-changelog').getByTestId('package-diff')).toBeVisible();

    await page.goto(dashboardPath(`${ BASE_CHANNEL_PAGE }?version=base-v2.2.0-3.8-os`));
    await expect(page.getByTestId('version-changelog').getByTestId('file-error')).toContainText('larger than');
  });
});
