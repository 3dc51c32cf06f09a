// Issue 33: the Elemental operator the extension runs with. A Rancher without it (PUT
// /__emulator/elemental {version: "none"}): every page shows one notice and sends no request for
// the missing types; an administrator is offered the install through Rancher's Apps, a viewer is
// not. The oldest supported operator (1.6.2): its version on the sources page, and a channel's
// `enabled` (from 1.7.0) neither listed nor offered. Emulator only (@emulator): the tests install
// and remove the operator through its control endpoints, which no real Rancher has.

import { Page } from '@playwright/test';
import { EMULATOR_TAG, useEmulator } from './support/emulator';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { CHANNELS, FLEET, SOURCES } from './support/names';

const PAGES = ['fleet', 'channels', 'pools', 'pools/fleet-default/chain-production', 'channels/fleet-default/sl-micro-6.1-base'];

const emulator = useEmulator('operator install modes');

/** The requests for an Elemental type (the schemas list aside) the page sends from now on. */
function elementalRequests(page: Page): string[] {
  const asked: string[] = [];

  page.on('request', (request) => {
    const url = request.url();

    if (url.includes('elemental.cattle.io') && !url.includes('/v1/schemas')) {
      asked.push(url);
    }
  });

  return asked;
}

test.describe('a Rancher without the Elemental operator', { tag: EMULATOR_TAG }, () => {
  test.beforeEach(async() => {
    await emulator.control.setElemental('none');
  });

  test('an administrator: one notice on every page with the install through Apps, no request errors', async({ page }) => {
    await loginAs(page, 'admin');
    const asked = elementalRequests(page);

    for (const path of PAGES) {
      await page.goto(dashboardPath(`/os-upgrades/c/_/${ path }`));
      const notice = page.getByTestId('operator-missing');

      await expect(notice).toHaveCount(1);
      await expect(notice).toContainText('The Elemental operator is not installed');
      await expect(notice.getByTestId('operator-missing-types')).toContainText('elemental.cattle.io.managedosimage');
      await expect(notice.getByTestId('operator-install')).toHaveAttribute('href', /\/c\/local\/apps\/charts\?q=elemental/);
      await expect(notice).toContainText('elemental-operator-crds, elemental-operator');
      await expect(page.locator('.banner.error')).toHaveCount(0);
    }
    // The side navigation still leads to every page of the product.
    await expect(page.locator('.side-nav').getByText('Workload pools')).toBeVisible();
    expect(asked).toEqual([]);
  });

  test('a viewer: the notice without the install action', async({ page }) => {
    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(FLEET));
    const notice = page.getByTestId('operator-missing');

    await expect(notice).toBeVisible();
    await expect(notice.getByTestId('operator-ask-admin')).toContainText('Ask a Rancher administrator');
    await expect(notice.getByTestId('operator-install')).toHaveCount(0);
  });
});

test.describe('the oldest supported operator, 1.6.2', { tag: EMULATOR_TAG }, () => {
  test('its version on the sources page; a channel\'s enabled switch neither listed nor shown, with the reason', async({ page }) => {
    await emulator.control.setElemental('1.6.2');
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(SOURCES));
    await expect(page.getByTestId('operator-version-text')).toContainText('Version 1.6.2');
    // As written, not HTML-escaped ("channel&#39;s" before).
    await expect(page.getByTestId('operator-feature-channelEnabled')).toHaveText('Turning a channel\'s sync off (spec.enabled): not available: the operator is 1.6.2 and the field exists from 1.7.0');
    await expect(page.getByTestId('operator-feature-changelogExtraction')).toContainText('not available');

    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('columnheader', { name: 'Name' }).first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Enabled' })).toHaveCount(0);
  });

  test('the newest operator lists the enabled column', async({ page }) => {
    await emulator.control.setElemental('1.9.2');
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(CHANNELS));
    await expect(page.getByRole('columnheader', { name: 'Enabled' })).toHaveCount(1);
  });
});
