// Issue 17: the pool form never drops or loses what was typed. A target that does not parse, an
// empty node-selector key, a concurrency past what can be sent and a bad name are shown beside
// their field, saving is disabled, and nothing is written. Seeds its channel and pools through the
// API (support/seed-pool-forms.ts), so it runs on a real Rancher too.

import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { poolRow, storedPoolNames } from './support/pools';
import { TEST_NAMESPACE } from './support/env';
import { uniqueName, useSeed } from './support/seed';
import { pinnedPool, PoolWorld, seedPoolWorld, writtenFields } from './support/seed-pool-forms';

const seed = useSeed();

test.describe('pool form input', () => {
  let world: PoolWorld;
  /** Pinned to the channel's newest image on one cluster (the demo's edge-munich). */
  let onCluster: string;
  /** Targets the clusters labelled site=lyon, of which there need be none (the demo's factory-lyon). */
  let bySelector: string;

  test.beforeEach(async() => {
    world = await seedPoolWorld(seed);
    onCluster = await seed.pool('e2e-input-cluster', pinnedPool(world));
    bySelector = await seed.pool('e2e-input-labels', pinnedPool(world, {
      concurrency: 2, cordon: true, clusterTargets: [{ clusterSelector: { matchLabels: { site: 'lyon' } } }]
    }));
  });

  test('a mistyped cluster-label target keeps the form, shows the error beside it, and writes nothing', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await writtenFields(seed, bySelector);

    await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ bySelector }/edit`));
    await page.getByTestId('btn-targets').click();
    const labels = page.getByTestId('pool-target-labels-0');

    await expect(labels).toHaveValue('site=lyon');
    await labels.fill('site lyon');
    await expect(page.getByTestId('pool-target-error-0')).toContainText('"site lyon" is not key=value');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    await expect(labels).toHaveValue('site lyon');

    // The YAML view never shows an object that cannot be saved.
    await page.getByTestId('pool-toggle-yaml').click();
    await expect(page.getByTestId('pool-yaml-refused')).toContainText('One field needs attention');
    await page.getByTestId('pool-toggle-yaml').click();
    await expect(labels).toHaveValue('site lyon');

    await labels.fill('site=lyon, hall=b');
    await expect(page.getByTestId('pool-target-error-0')).toHaveCount(0);
    await expect(page.getByTestId('pool-save-async-button')).toBeEnabled();
    expect(await writtenFields(seed, bySelector)).toEqual(before);
  });

  test('an empty node-selector key, a too-long label value and a huge concurrency are refused beside their fields', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await writtenFields(seed, onCluster);

    await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ onCluster }/edit`));
    await page.getByTestId('btn-targets').click();
    await page.getByTestId('add_row_item_button').click();
    await page.getByTestId('value-multiline').first().fill('worker');
    await expect(page.getByTestId('pool-node-selector-errors')).toContainText('Label 1: Enter a label key');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();

    await page.getByTestId('input-kv-item-key-0').fill('role');
    await page.getByTestId('value-multiline').first().fill('x'.repeat(100));
    await expect(page.getByTestId('pool-node-selector-errors')).toContainText('at most 63 characters (this one has 100)');
    await page.getByTestId('value-multiline').first().fill('worker');
    await expect(page.getByTestId('pool-node-selector-errors')).toBeEmpty();

    await page.getByTestId('btn-rollout').click();
    await page.getByTestId('pool-concurrency').fill('99999999999999999999');
    await expect(page.getByTestId('pool-strategy')).toContainText('Enter a whole number from 1 to 9007199254740991');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    expect(await writtenFields(seed, onCluster)).toEqual(before);
  });

  test('a new pool\'s name is checked before anything is sent', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('pool-name-input').fill('Edge Pool');
    await expect(page.getByTestId('pool-name-error')).toContainText('only lowercase letters');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    await page.getByTestId('pool-name-input').fill('x'.repeat(300));
    await expect(page.getByTestId('pool-name-error')).toContainText('at most 253 characters');
    expect(await storedPoolNames(seed)).not.toContain('x'.repeat(300));
  });

  test('a pool overlapping another cannot be saved without a confirmation naming it; the list marks overlaps', async({ page }) => {
    const created = uniqueName('e2e-overlap');

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('pool-name-input').fill(created);
    await page.getByTestId('btn-targets').click();
    await page.getByTestId('pool-target-add').click();
    await page.getByTestId('pool-target-cluster-0').click();
    await page.getByRole('option', { name: world.cluster, exact: true }).click();
    await page.getByTestId('btn-image').click();
    await page.getByTestId('selector-channel').click();
    await page.getByRole('option', { name: world.channel.name, exact: true }).click();
    await expect(page.getByTestId('selector-preview-chosen-name')).not.toBeEmpty();
    // The unconfirmed overlap marks the targets tab (issue 17: an error on a tab is visible).
    await expect(page.getByTestId('targets')).toHaveClass(/error/);
    await page.getByTestId('btn-targets').click();

    await expect(page.getByTestId('pool-overlap')).toContainText(`Pool ${ onCluster } already targets`);
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    await page.getByTestId(`pool-overlap-confirm-${ onCluster }`).click();
    await expect(page.getByTestId('pool-save-async-button')).toBeEnabled();
    seed.track(POOL_TYPE, created);
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);

    // The list marks both pools, and not the one on other clusters.
    await expect(poolRow(page, created).getByTestId('pool-overlaps')).toContainText(onCluster);
    await expect(poolRow(page, onCluster).getByTestId('pool-overlaps')).toContainText(created);
    await expect(poolRow(page, bySelector)).toBeVisible();
    await expect(poolRow(page, bySelector).getByTestId('pool-overlaps')).toHaveCount(0);
  });
});
