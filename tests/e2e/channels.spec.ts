// Issue 5: browse channels → a channel → open a version → compare; the missing-changelog state;
// keyboard use; a 600-version channel; no serious or critical axe violations, light and dark.
// Each test publishes its channels through the API (support/seed.ts, support/seed-channels.ts), so
// it runs on a real Rancher too.

import { expectAccessible, expectTheme, useDarkTheme } from './support/a11y';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNELS } from './support/names';
import { channelRow } from './support/channels';
import { fixtureEntries, SeededChannel, useSeed } from './support/seed';
import { channelPage, literal, scaleVersion, seedScaleChannel } from './support/seed-channels';

const BASE = 'sl-micro-6.1-base';

const seed = useSeed();
let channel: SeededChannel;

test.beforeEach(async({ page }) => {
  channel = await seed.channel({ fixture: BASE });
  await loginAs(page, 'admin');
});

test.describe('channels', () => {
  test('browse channels → a channel → a version → compare it with the previous image', async({ page, problems }) => {
    await page.goto(dashboardPath(CHANNELS));
    const row = channelRow(page, channel.name);

    await expect(row).toContainText('json');
    await expect(row).toContainText('Synced');
    // Its 3 container images and 3 ISOs, counted without reading them.
    await expect(row.getByTestId('channel-count')).toHaveText('6');

    await row.getByRole('link', { name: channel.name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Channel ${ channel.name }`);
    const containers = page.getByTestId('container-versions').locator('.col-name');

    await expect(containers).toHaveText(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os'].map((v) => channel.version(v)));
    await expect(page.getByTestId('iso-versions').locator('.col-name')).toHaveText(['base-v2.2.0-3.7-iso', 'base-v2.2.0-3.5-iso', 'base-v2.2.0-3.4-iso'].map((v) => channel.version(v)));
    await expect(page.getByTestId('timeline').getByRole('button', { name: /^v2\.2\.0-3\.12:/ })).toBeVisible();

    await page.getByTestId(`version-${ channel.version('base-v2.2.0-3.12-os') }`).click();
    await expect(page).toHaveURL(new RegExp(literal(`version=${ channel.version('base-v2.2.0-3.12-os') }`)));
    const details = page.getByTestId('version-changelog');

    await expect(details.getByRole('heading', { name: 'Changelog of v2.2.0-3.12' })).toBeVisible();
    await expect(details).toContainText('Compared with the previous image, v2.2.0-3.9.');
    await expect(details.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.3');

    await details.getByTestId('compare-link').click();
    await expect(page).toHaveURL(new RegExp(literal(`compare?old=${ channel.version('base-v2.2.0-3.9-os') }&new=${ channel.version('base-v2.2.0-3.12-os') }`)));
    await expect(page.getByTestId('package-diff')).toContainText('kernel-default.x86_64  6.4.0-1.2');
    expect(problems.pageErrors).toEqual([]);
  });

  test('an image without changelog says so, and the rest of its page works', async({ page }) => {
    const next = await seed.channel({ fixture: 'sl-micro-6.2-base' });
    const unlogged = channel.version('base-v2.2.0-3.9-os');

    await page.goto(dashboardPath(`${ channelPage(channel) }?version=${ unlogged }`));
    const details = page.getByTestId('version-changelog');

    await expect(details.getByTestId('missing-logs')).toContainText('No changelog published for this image');
    await expect(details.getByTestId('missing-logs')).toContainText(unlogged);
    await expect(details.getByTestId('package-diff')).toBeVisible();
    await expect(page.getByTestId(`timeline-${ unlogged }`)).toHaveAccessibleName(/no changelog published/);

    await page.goto(dashboardPath(`${ channelPage(next) }?version=${ next.version('base-v2.3.0-6.1-iso') }`));
    await expect(page.getByTestId('no-changelog')).toHaveText('No changelog published for this image.');
  });

  test('out-of-sync versions are marked', async({ page }) => {
    const [dropped, ...kept] = fixtureEntries(BASE);

    expect(dropped.metadata.name).toBe('base-v2.2.0-3.12-os');
    await seed.publish(channel, kept);
    await page.goto(dashboardPath(channelPage(channel)));
    await expect(page.getByTestId(`version-${ channel.version('base-v2.2.0-3.12-os') }`).getByTestId('out-of-sync')).toHaveText('Out of sync');
    await expect(page.getByTestId(`version-${ channel.version('base-v2.2.0-3.9-os') }`).getByTestId('out-of-sync')).toHaveCount(0);
  });

  test('keyboard: reach a version with Tab, open it with Enter', async({ page }) => {
    await page.goto(dashboardPath(channelPage(channel)));
    const row = page.getByTestId(`version-${ channel.version('base-v2.2.0-3.8-os') }`);

    await expect(row).toBeVisible();
    await row.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(row).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('version-changelog').getByRole('heading', { name: 'Changelog of v2.2.0-3.8' })).toBeFocused();
    await expect(row).toHaveAttribute('aria-expanded', 'true');
  });

  test('a channel of 600 versions renders only the rows in view and stays usable', async({ page }) => {
    test.setTimeout(180_000);
    const scale = await seedScaleChannel(seed);

    await page.goto(dashboardPath(channelPage(scale)));
    const list = page.getByTestId('container-versions');

    await expect(page.getByRole('heading', { name: '600 container images' })).toBeVisible();
    await expect(list.locator('.version-row').first()).toContainText(scale.version(scaleVersion(600)));
    expect(await list.locator('.version-row').count()).toBeLessThan(80);

    const scroller = list.getByTestId('virtual-rows');

    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect(list.locator('.version-row').last()).toContainText(scale.version(scaleVersion(1)));
    await list.locator('.version-row').last().click();
    await expect(page.getByTestId('version-changelog')).toContainText('oldest container image');
  });

  test('no serious or critical accessibility violation, light and dark', async({ page }) => {
    for (const theme of ['light', 'dark']) {
      if (theme === 'dark') {
        await useDarkTheme(page);
      }
      await page.goto(dashboardPath(CHANNELS));
      await expectTheme(page, theme);
      await expect(page.getByTestId('channels-table')).toBeVisible();
      await expectAccessible(page, '.channels-page');

      await page.goto(dashboardPath(`${ channelPage(channel) }?version=${ channel.version('base-v2.2.0-3.12-os') }`));
      await expect(page.getByTestId('version-changelog').getByTestId('package-diff')).toBeVisible();
      await page.getByTestId('version-changelog').locator('[data-testid="advisory"] button').first().click();
      await expectAccessible(page, '.channel-page');
    }
  });
});
