// Issue 17: the approve dialog says what approving does to machines before the details (issue 24:
// with the default the operator applies beside each value the pool leaves out), stores an
// optional comment with the approval, shows approved-at as the time of the click, and gives focus
// back to the pool's row menu when it closes. Seeds its channel and pool through the API
// (support/seed.ts), targeting clusters the Rancher has, so it runs on a real Rancher too.

import { field } from './support/api';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOLS } from './support/names';
import { poolRow, storedPool } from './support/pools';
import { rollableEntries, useSeed } from './support/seed';
import {
  B38, BASE_FIXTURE, clusterSizes, seedBaseChannel, seedUpgradablePool, selectorAnnotation
} from './support/seed-pools';

const seed = useSeed();

const nodes = (count: number) => (count === 1 ? '1 node' : `${ count } nodes`);

test.describe('approve dialog', () => {
  test('opens on its title, and Tab reaches every control in order', async({ page }) => {
    const name = await seedUpgradablePool(seed, await seedBaseChannel(seed), 'e2e-tab');

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, name);

    await row.getByTestId('pool-approve').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByRole('heading', { level: 2, name: new RegExp(name) })).toBeFocused();
    await expect(dialog.getByTestId('spec-yaml-diff')).toBeVisible();
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });

    // Tab from the title until the focus comes round again (the dialog traps it): every control is on the way.
    const reached: string[] = [];

    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      // The test id of the control or the part it is in; null once an element comes round again.
      const id = await page.evaluate(() => {
        const active = document.activeElement;

        if (!active || active.hasAttribute('data-tab-seen')) {
          return null;
        }
        active.setAttribute('data-tab-seen', '');

        return active.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
      });

      if (id === null) {
        break;
      }
      reached.push(id);
    }
    const order = ['spec-yaml-diff', 'approve-comment', 'approve-cancel', 'approve-confirm-async-button'].map((id) => reached.indexOf(id));

    expect(order, reached.join(', ')).not.toContain(-1);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('shows the impact, stores the comment, and returns focus to the row menu', async({ page }) => {
    // Two clusters whose size Fleet's agents report (on the demo clusters, edge-berlin-01 and -02: 3 nodes each).
    const clusters = (await clusterSizes(seed)).filter((c) => c.nodes !== undefined).slice(0, 2);

    test.skip(clusters.length < 2, 'needs two Fleet clusters that report their nodes');
    // The approval reaches these clusters' nodes: the channel ends at 3.9 and the pool runs 3.8. A
    // node that boots the base channel's 3.12 never rejoins (its image label is 64 characters), and
    // every later test on these clusters would wait on it (CI, real Rancher mode: it booted while the
    // pool was being deleted after the test).
    const channel = await seed.channel({ fixture: BASE_FIXTURE, entries: rollableEntries(BASE_FIXTURE) });
    const name = await seed.pool('e2e-impact', { managedOSVersionName: channel.version(B38), clusterTargets: clusters.map((c) => ({ clusterName: c.name })) }, selectorAnnotation(channel, '~2.2'));
    const total = clusters.reduce((sum, c) => sum + (c.nodes ?? 0), 0);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, name);

    await row.getByTestId('pool-approve').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('approve-dialog');
    const impact = dialog.getByTestId('approve-impact');

    await expect(impact.getByTestId('approve-impact-clusters')).toContainText(`2 clusters: ${ clusters.map((c) => `${ c.name } (${ nodes(c.nodes ?? 0) })`).join(', ') }`);
    await expect(impact.getByTestId('approve-impact-nodes')).toContainText(`Up to ${ nodes(total) }`);
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('force');
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('deletes local data');
    await expect(impact.getByTestId('approve-impact-reboot')).toContainText('reboots');
    await expect(impact.getByTestId('approve-impact-concurrency')).toContainText('One node at a time');
    // The pool sets neither cordon, drain nor concurrency: each value is the default the operator
    // (or the CRD) applies, named beside it (elemental-operator controllers/managedosimage_controller.go).
    await expect(impact.getByTestId('approve-impact-cordon')).toContainText('Each node is cordoned');
    await expect(impact.getByTestId('approve-impact-cordon-source')).toHaveText('Default of the Elemental operator: the pool does not set cordon.');
    await expect(impact.getByTestId('approve-impact-drain')).toContainText('skips pods still being deleted after 60 s');
    await expect(impact.getByTestId('approve-impact-drain-source')).toContainText('Default of the ManagedOSImage definition (CRD)');
    await expect(impact.getByTestId('approve-impact-concurrency-source')).toHaveText('Default of the Elemental operator: the pool does not set concurrency.');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('(the time you approve)');

    await dialog.getByTestId('approve-comment').fill('Fixes CVE-2026-0001; agreed with the site lead');
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('approval-comment');
    const before = Date.now();

    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);

    const pool = await storedPool(seed, name);
    const annotations = field(pool, 'metadata.annotations') as Record<string, string>;

    expect(annotations['os-upgrades.cattle.io/approval-comment']).toBe('Fixes CVE-2026-0001; agreed with the site lead');
    expect(Date.parse(annotations['os-upgrades.cattle.io/approved-at'])).toBeGreaterThanOrEqual(before - 1000);
    await expect(page.getByTestId(`pool-menu-${ name }`)).toBeFocused();
  });
});
