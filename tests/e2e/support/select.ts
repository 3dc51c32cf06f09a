// The shell's select (vue-select): open it by its test id, pick an option by its exact name.

import { Page } from '@playwright/test';

export async function choose(page: Page, select: string, option: string): Promise<void> {
  await page.getByTestId(select).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
