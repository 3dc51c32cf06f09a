// Issue 6: workload pools. Create a pool by selector, see an upgrade appear when the channel
// publishes a newer image, approve it, watch it roll out (or, on a cluster without Elemental nodes,
// see it delivered), roll back; edits never move the pin; a conflict writes nothing; a viewer gets
// no write action; no serious axe violations. Seeds its channel and pools through the API
// (support/seed.ts, support/seed-pools.ts), so it runs on a real Rancher too; only the 403 on save
// needs the emulator's fault injection.

import { field, sessionApi, steveUrl } from './support/api';
import { EMULATOR_TAG, useEmulator } from './support/emulator';
import { expectAccessible, expectTheme, useDarkTheme, useLightTheme } from './support/a11y';
import { dashboardPath, loginAs } from './support/login';
import { choose } from './support/select';
import { expect, test } from './support/test';
import { BASE_CHANNEL, POOL_TYPE, POOLS } from './support/names';
import { poolRow, storedPool, storedPoolNames } from './support/pools';
import { baseChannelWithNewerImage, NEWEST_SEEDED, PUBLISHED } from './support/channels';
import { rollableEntries, uniqueName, useSeed } from './support/seed';
import {
  B39, poolEditPath, rolloutCluster, SELECTOR_ANNOTATION, seedBaseChannel, seedUpgradablePool
} from './support/seed-pools';
import { TEST_NAMESPACE } from './support/env';

const PREVIOUS_ANNOTATION = 'os-upgrades.cattle.io/previous-version';
const BUNDLE_TYPE = 'fleet.cattle.io.bundle';

const seed = useSeed();

test.describe('workload pools', () => {
  test('create by selector, upgrade when the channel publishes, approve, roll out, roll back', async({ page, problems }) => {
    // 3.8 (withdrawn) and 3.9: nodes that boot the fixture's 3.12 never rejoin (support/seed.ts rollableEntries).
    const entries = rollableEntries(BASE_CHANNEL);
    const channel = await seedBaseChannel(seed, entries);
    const cluster = await rolloutCluster(seed);
    const newest = channel.version(B39);
    const published = channel.version(PUBLISHED);
    const selector = `{"channel":"${ channel.name }","version":"~2.2"}`;
    // A pool already on the cluster (pinned, no selector: the page reads the channel's versions only
    // once the new pool follows it): saving another that targets the cluster takes a confirmation naming it (issue 17).
    const other = await seed.pool('e2e-other', { managedOSVersionName: newest, clusterTargets: [{ clusterName: cluster.name }] });
    const name = uniqueName('e2e-selector');

    seed.track(POOL_TYPE, name);
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    await page.getByTestId('pools-create').click();

    await page.getByTestId('pool-name-input').fill(name);
    await page.getByTestId('btn-targets').click();
    await page.getByTestId('pool-target-add').click();
    await choose(page, 'pool-target-cluster-0', cluster.name);
    await expect(page.getByTestId('pool-overlap').filter({ hasText: other })).toBeVisible();
    // (and any other pool a Rancher already has there)
    for (const confirm of await page.locator('[data-testid^="pool-overlap-confirm-"]').all()) {
      await confirm.click();
    }
    await page.getByTestId('btn-image').click();
    await choose(page, 'selector-channel', channel.name);
    await page.getByTestId('selector-version').fill('~2.2');
    const chosen = page.getByTestId('selector-preview-chosen-name');

    await expect(chosen).toHaveText(newest);
    // 3.9 alone: the channel withdraws 3.8 (seedBaseChannel), which no selector picks.
    await expect(page.getByTestId('selector-preview-candidates').locator('tbody tr')).toHaveCount(1);
    const shown = await chosen.innerText();

    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);

    const created = await storedPool(seed, name);

    expect(field(created, 'spec.managedOSVersionName')).toBe(shown);
    expect(field(created, `metadata.annotations`)).toMatchObject({ [SELECTOR_ANNOTATION]: selector });
    // Only this pool's upgrade Plan stays on the cluster's nodes (two pools' Plans would pull them two ways).
    expect((await seed.api.delete(steveUrl(POOL_TYPE, TEST_NAMESPACE, other))).status).toBeLessThan(300);

    // The channel publishes a newer image: the open page shows the upgrade without a reload.
    const row = poolRow(page, name);

    await expect(row.getByTestId('pool-pin')).toHaveText(newest);
    await expect(row.getByTestId('pool-upgrade-available')).toHaveCount(0);
    await seed.publish(channel, baseChannelWithNewerImage(entries));
    await expect(row.getByTestId('pool-upgrade-available')).toBeVisible();
    await expect(row.getByTestId('pool-would-pick')).toContainText(published);

    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-current')).toContainText(newest);
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(published);
    await expect(dialog.getByTestId('spec-yaml-diff').locator('[data-kind="added"]').filter({ hasText: `managedOSVersionName: ${ published }` })).toHaveCount(1);
    // Successful writes only: a 409 from a rollout's status update is retried once more.
    const writes: string[] = [];

    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url().includes(`/${ POOL_TYPE }s/`) && response.ok()) {
        writes.push(response.url());
      }
    });
    await dialog.getByTestId('approve-confirm-async-button').dblclick();
    await expect(dialog).toHaveCount(0);
    expect(writes).toHaveLength(1);

    const approved = await storedPool(seed, name);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(published);
    expect(field(approved, 'metadata.annotations')).toMatchObject({ [PREVIOUS_ANNOTATION]: newest, 'os-upgrades.cattle.io/approved-by': 'admin' });
    await expect(row.getByTestId('pool-pin')).toHaveText(published);
    if (cluster.elementalNodes > 0) {
      // Fleet's delivery passes in a second or two; the nodes say when the image really runs there.
      await expect(row.getByTestId('pool-nodes')).toHaveAttribute('data-verdict', 'rolledOut', { timeout: 60_000 });
    } else {
      test.info().annotations.push({ type: 'stopped', description: `${ cluster.name } runs no Elemental node: checked the operator's bundle and "Delivered", not the nodes` });
      await expect.poll(() => seed.get(BUNDLE_TYPE, `mos-${ name }`), { timeout: 30_000 }).toBeTruthy();
    }
    await expect(row.getByTestId('pool-rollout')).toHaveAttribute('data-phase', 'done', { timeout: 20_000 });

    await page.getByTestId(`pool-menu-${ name }`).click();
    await page.getByRole('menuitem', { name: 'Roll back' }).click();
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(newest);
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);

    const rolledBack = await storedPool(seed, name);

    expect(field(rolledBack, 'spec.managedOSVersionName')).toBe(newest);
    expect(field(rolledBack, 'metadata.annotations')).toMatchObject({ [PREVIOUS_ANNOTATION]: published, [SELECTOR_ANNOTATION]: selector });
    // The selector still picks the newer image: it is offered again, to approve again.
    await expect(row.getByTestId('pool-upgrade-available')).toBeVisible();
    expect(problems.pageErrors).toEqual([]);
  });

  test('the selector needs a channel, or an explicit "any channel" with a warning that it ranks across channels', async({ page, problems }) => {
    await seedBaseChannel(seed);
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('btn-image').click();
    await page.getByTestId('selector-version').fill('~2.2');
    await expect(page.getByTestId('selector-channel-error')).toContainText('Choose a channel');
    await expect(page.getByTestId('selector-preview-chosen-name')).toHaveCount(0);
    await choose(page, 'selector-channel', 'Any channel');
    await expect(page.getByTestId('selector-channel-error')).toHaveCount(0);
    await expect(page.getByTestId('selector-any-channel-warning')).toContainText('ranked together');
    await expect(page.getByTestId('selector-preview-chosen-name')).toBeVisible();
    expect(problems.pageErrors).toEqual([]);
  });

  test('the YAML view shows the object that would be written, with the pin the preview chose', async({ page, problems }) => {
    const channel = await seedBaseChannel(seed);

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('pool-name-input').fill('e2e-yaml');
    await page.getByTestId('btn-image').click();
    await choose(page, 'selector-channel', channel.name);
    await page.getByTestId('selector-version').fill('~2.2');
    await expect(page.getByTestId('selector-preview-chosen-name')).toHaveText(channel.version(NEWEST_SEEDED));
    // Why the others lost: each reason once with its count, the pool's own channel's reasons first (issue 17).
    const groups = page.getByTestId('selector-preview-reason-groups').getByTestId('selector-reason-group');

    // (The form reads only the selector's channel, so every loser here is of that channel.)
    await expect(groups.first()).toContainText(`of them in ${ channel.name }`);
    await expect(groups.first()).toHaveAttribute('data-reason', /^osUpgrades\.selector\.reason\./);

    await page.getByTestId('pool-toggle-yaml').click();
    const yaml = page.getByTestId('pool-yaml');

    await expect(yaml).toContainText(`managedOSVersionName: ${ channel.version(NEWEST_SEEDED) }`);
    await expect(yaml).toContainText(SELECTOR_ANNOTATION);
    await expect(yaml).toContainText('name: e2e-yaml');
    expect(problems.pageErrors).toEqual([]);
  });

  test('editing concurrency leaves the pin byte for byte', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const name = await seedUpgradablePool(seed, channel, 'e2e-concurrency');

    await loginAs(page, 'admin');
    const before = await storedPool(seed, name);

    await page.goto(dashboardPath(poolEditPath(name)));
    await page.getByTestId('btn-rollout').click();
    await page.getByTestId('pool-concurrency').fill('3');
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);

    const after = await storedPool(seed, name);

    expect(field(after, 'spec.concurrency')).toBe(3);
    expect(JSON.stringify(field(after, 'spec.managedOSVersionName'))).toBe(JSON.stringify(field(before, 'spec.managedOSVersionName')));
    expect(field(after, 'metadata.annotations')).toEqual(field(before, 'metadata.annotations'));
    expect({ ...(field(after, 'spec') as object), concurrency: undefined }).toEqual({ ...(field(before, 'spec') as object), concurrency: undefined });
  });

  test('a pool changed while the dialog is open: nothing is written, the new state is shown', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const name = await seedUpgradablePool(seed, channel, 'e2e-dialog');
    const published = channel.version(PUBLISHED);

    await loginAs(page, 'admin');
    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, TEST_NAMESPACE, name);

    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, name);

    await row.getByTestId('pool-approve').click();
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog.getByTestId('approve-target-name')).toHaveText(channel.version(NEWEST_SEEDED));

    // Someone else edits the pool meanwhile.
    const current = (await api.get(url)).body;
    const edited = await api.put(url, { ...current, spec: { ...(current.spec as object), concurrency: 4 } });

    expect(edited.status).toBe(200);
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-notice')).toContainText('changed while this dialog was open');
    expect(field(await storedPool(seed, name), 'spec.managedOSVersionName')).toBe(channel.version(B39));
    await expect(dialog.getByTestId('spec-yaml-diff')).toContainText('concurrency: 4');

    // The channel moves on too: the dialog offers the new choice instead of writing the old one.
    await seed.publish(channel, baseChannelWithNewerImage());
    await expect(dialog.getByTestId('approve-live-refusal')).toContainText(published);
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveText('Show the new state');
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog.getByTestId('approve-target-name')).toHaveText(published);
    await expect(dialog.getByTestId('approve-notice')).toContainText(`now picks ${ published }`);
    expect(field(await storedPool(seed, name), 'spec.managedOSVersionName')).toBe(channel.version(B39));

    // Approving what is shown now writes exactly that.
    await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
    await dialog.getByTestId('approve-confirm-async-button').click();
    await expect(dialog).toHaveCount(0);
    const approved = await storedPool(seed, name);

    expect(field(approved, 'spec.managedOSVersionName')).toBe(published);
    expect(field(approved, 'spec.concurrency')).toBe(4);
  });

  test('a viewer sees pools and previews but no write action; a forced write gets 403', async({ page }) => {
    const channel = await seedBaseChannel(seed);
    const name = await seedUpgradablePool(seed, channel, 'e2e-viewed');
    const newest = channel.version(NEWEST_SEEDED);

    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(POOLS));
    const row = poolRow(page, name);

    await expect(row.getByTestId('pool-would-pick')).toContainText(newest);
    await expect(row.getByTestId('pool-upgrade-available')).toBeVisible();
    await expect(page.getByTestId('pools-read-only')).toBeVisible();
    for (const action of ['pools-create', 'pool-approve', 'pool-rollback', 'pool-edit']) {
      await expect(page.getByTestId(action)).toHaveCount(0);
    }

    // The name opens the pool's page, without actions for a viewer; its form is read-only.
    await row.getByRole('link', { name, exact: true }).click();
    await expect(page.getByTestId('pool-detail-summary')).toBeVisible();
    await expect(page.getByTestId(`pool-menu-${ name }`)).toHaveCount(0);
    await page.goto(dashboardPath(poolEditPath(name)));
    await expect(page.getByTestId('pool-form-read-only')).toBeVisible();
    await page.getByTestId('btn-image').click();
    await expect(page.getByTestId('selector-preview-chosen-name')).toHaveText(newest);
    await expect(page.getByTestId('pool-save-async-button')).toHaveCount(0);

    const api = sessionApi(page);
    const url = steveUrl(POOL_TYPE, TEST_NAMESPACE, name);
    const current = (await api.get(url)).body;
    const forced = await api.put(url, { ...current, spec: { ...(current.spec as object), managedOSVersionName: newest } });

    expect(forced.status).toBe(403);
    expect(field(await storedPool(seed, name), 'spec.managedOSVersionName')).toBe(channel.version(B39));
  });

  test('keyboard: open the approval, read it, close it with Escape', async({ page }) => {
    const name = await seedUpgradablePool(seed, await seedBaseChannel(seed), 'e2e-keyboard');

    await loginAs(page, 'admin');
    await page.goto(dashboardPath(POOLS));
    const approve = poolRow(page, name).getByTestId('pool-approve');

    await approve.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('approve-dialog');

    await expect(dialog).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test.describe('accessibility', () => {
    for (const theme of ['light', 'dark']) {
      test(`no serious accessibility violations (${ theme })`, async({ page }) => {
        const channel = await seedBaseChannel(seed);
        const name = await seedUpgradablePool(seed, channel, 'e2e-a11y');

        await loginAs(page, 'admin');
        await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));
        await page.goto(dashboardPath(POOLS));
        await expectTheme(page, theme);
        await expect(poolRow(page, name)).toBeVisible();
        await expectAccessible(page, '.pools-page');

        await poolRow(page, name).getByTestId('pool-approve').click();
        await expect(page.getByTestId('approve-target-name')).toBeVisible();
        // The compare of the two images loads after the dialog opens: axe checks it loaded.
        await expect(page.getByTestId('approve-dialog').getByTestId('package-counts')).toBeVisible({ timeout: 30_000 });
        await expectAccessible(page, '#modal-container-element');
        await page.getByTestId('approve-cancel').click();

        await page.goto(dashboardPath(`${ POOLS }/create`));
        await page.getByTestId('btn-image').click();
        await choose(page, 'selector-channel', channel.name);
        await expect(page.getByTestId('selector-preview-chosen-name')).toBeVisible();
        await expectAccessible(page, '.pool-edit');
      });
    }
  });
});

test.describe('a refused save', { tag: EMULATOR_TAG }, () => {
  // No real Rancher refuses the admin's create: the emulator's fault injection answers 403 instead.
  const emulator = useEmulator('fault injection');

  test('a 403 on save is a clear message and the form keeps what was entered', async({ page }) => {
    await loginAs(page, 'admin');
    await emulator.control.addFault({
      path: `/v1/${ POOL_TYPE }s`, method: 'POST', status: 403
    });
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('pool-name-input').fill('e2e-forbidden');
    await page.getByTestId('btn-image').click();
    await choose(page, 'selector-channel', BASE_CHANNEL);
    await expect(page.getByTestId('selector-preview-chosen-name')).toHaveText(NEWEST_SEEDED);
    await page.getByTestId('pool-save-async-button').click();

    await expect(page.getByTestId('pool-save-problem')).toContainText('403 Forbidden');
    await page.getByTestId('btn-identity').click();
    await expect(page.getByTestId('pool-name-input')).toHaveValue('e2e-forbidden');
    await page.getByTestId('btn-image').click();
    await expect(page.getByTestId('selector-in-words')).toContainText(BASE_CHANNEL);
    expect(await storedPoolNames(emulator.control)).not.toContain('e2e-forbidden');
  });
});
