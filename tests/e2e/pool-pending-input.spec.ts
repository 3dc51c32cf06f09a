// Issue 25: nothing typed is lost. The shell's KeyValue passes an edit on 500 ms after the last
// keystroke; Save takes it at once (saved exactly as typed), or refuses it beside the field.
// Seeds its channel and pool through the API (support/seed-pool-forms.ts), so it runs on a real
// Rancher too.

import { Page } from '@playwright/test';
import { field } from './support/api';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { TEST_NAMESPACE } from './support/env';
import { useSeed } from './support/seed';
import { pinnedPool, seedPoolWorld, writtenFields } from './support/seed-pool-forms';

const seed = useSeed();
let pool: string;

test.beforeEach(async() => {
  pool = await seed.pool('e2e-pending', pinnedPool(await seedPoolWorld(seed)));
});

/** Opens the form with one node-selector row role=edge, passed on to the form (its debounce over). */
async function openWithRow(page: Page): Promise<void> {
  await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }/edit`));
  await page.getByTestId('btn-targets').click();
  await page.getByTestId('add_row_item_button').click();
  await page.getByTestId('input-kv-item-key-0').fill('role');
  await page.getByTestId('value-multiline').first().fill('edge');
  await expect(page.getByTestId('pool-node-selector-errors')).toBeEmpty();
  await expect(page.getByTestId('pool-save-async-button')).toBeEnabled();
}

/** Types `value` into the first node-selector value and clicks Save in the same task: 0 ms between them. */
async function typeAndSave(page: Page, value: string): Promise<void> {
  await page.evaluate((text) => {
    const input = document.querySelector('[data-testid="value-multiline"]') as HTMLTextAreaElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;

    setter?.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    (document.querySelector('[data-testid="pool-save-async-button"]') as HTMLButtonElement).click();
  }, value);
}

test.describe('pool form: an edit typed just before Save', () => {
  test('a node-selector value typed 0 ms before Save is saved exactly as typed', async({ page }) => {
    await loginAs(page, 'admin');
    await openWithRow(page);
    await typeAndSave(page, 'core');
    await expect(page).toHaveURL(/\/pools$/);
    expect(field(await seed.get(POOL_TYPE, pool), 'spec.nodeSelector.matchLabels')).toEqual({ role: 'core' });
  });

  test('an invalid value typed 0 ms before Save is refused beside the field, and nothing is written', async({ page }) => {
    await loginAs(page, 'admin');
    const before = await writtenFields(seed, pool);

    await openWithRow(page);
    await typeAndSave(page, ' core');
    await expect(page.getByTestId('pool-node-selector-errors')).toContainText('begins or ends with a space');
    await expect(page).toHaveURL(/\/edit/);
    expect(await writtenFields(seed, pool)).toEqual(before);
  });
});
