// Accessibility and theme helpers shared by the page specs.

import AxeBuilder from '@axe-core/playwright';
import { expect, Page } from '@playwright/test';
import { sessionApi } from './api';

/** No axe violation of serious or critical impact (WCAG 2.1 A and AA) inside `selector`. */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

  expect(serious.map((violation) => `${ violation.id }: ${ violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ') }`)).toEqual([]);
}

/**
 * Switches the logged-in user's theme to dark as the preferences page does: the `theme` user
 * preference (rancher/dashboard shell/store/prefs.js THEME, stored JSON-encoded as `"ui-dark"`).
 * The page the spec opens next boots in the dark theme; `expectTheme` checks that it did.
 */
export async function useDarkTheme(page: Page): Promise<void> {
  const api = sessionApi(page);
  const current = await api.get('/v1/userpreferences');
  const stored = (current.body.data as { id: string; data?: Record<string, string> }[] | undefined)?.[0];

  expect(stored, 'the logged-in user has a preferences object').toBeTruthy();
  const written = await api.put(`/v1/userpreferences/${ stored?.id }`, { ...stored, data: { ...stored?.data, theme: JSON.stringify('ui-dark') } });

  expect(written.status).toBe(200);
}

/** The page shows the theme (after `useDarkTheme` and a page load for the dark one). */
export async function expectTheme(page: Page, theme: string): Promise<void> {
  await expect(page.locator('body')).toHaveClass(new RegExp(`theme-${ theme }`));
}
