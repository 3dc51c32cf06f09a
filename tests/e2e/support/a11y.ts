// Accessibility and theme helpers shared by the page specs.

import AxeBuilder from '@axe-core/playwright';
import { expect, Page } from '@playwright/test';
import { dashboardPath } from './login';

/** No axe violation of serious or critical impact (WCAG 2.1 A and AA) inside `selector`. */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

  expect(serious.map((violation) => `${ violation.id }: ${ violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ') }`)).toEqual([]);
}

/** Switches the logged-in user's theme to dark through the dashboard's preferences page. */
export async function useDarkTheme(page: Page): Promise<void> {
  await page.goto(dashboardPath('/prefs'));
  await page.getByTestId('prefs__themeOptions').getByText('Dark', { exact: true }).click();
  await expect(page.locator('body')).toHaveClass(/theme-dark/);
}
