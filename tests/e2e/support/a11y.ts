// Accessibility and theme helpers shared by the page specs.

import AxeBuilder from '@axe-core/playwright';
import type { CheckResult, Result } from 'axe-core';
import { expect, Page } from '@playwright/test';
import { setPreference } from './preferences';

/** axe's reason for an undecided contrast is another element over the text. */
function coveredText(check: CheckResult): boolean {
  const key = (check.data as { messageKey?: string } | null)?.messageKey ?? '';

  return key === 'bgOverlap' || /partiallyobscur/i.test(key);
}

/**
 * No axe violation of serious or critical impact (WCAG 2.1 A and AA) inside `selector`, and no
 * text whose contrast axe could not decide: `color-contrast` (part of wcag2aa, so run on every
 * page's check, light and dark) lands in `incomplete` when axe cannot tell the colours behind
 * the text (an image, a gradient, a pseudo-element), so those count too.
 */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  // The shell's body (overflow hidden) holds only its absolutely placed root, so on some pages it is
  // 0 px high; axe then takes every text as clipped away and checks no contrast at all. The body is
  // given the window's height while axe runs; what a person sees does not change.
  await page.evaluate(() => document.body.style.setProperty('min-height', '100vh'));
  const results = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();

  await page.evaluate(() => document.body.style.removeProperty('min-height'));
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  // Left out: text with another element over all or part of it (axe's bgOverlap,
  // partiallyObscured), which no tool can decide: the shell's floating field labels, its tab
  // underline, lines scrolled under a dialog's footer.
  const undecided = results.incomplete.filter((result) => result.id === 'color-contrast')
    .map((result) => ({ ...result, nodes: result.nodes.filter((node) => !node.any.some(coveredText)) }))
    .filter((result) => result.nodes.length);
  const describe = (result: Result) => `${ result.id }: ${ result.nodes.slice(0, 3).map((node) => `${ node.target.join(' ') } (${ node.any[0]?.message ?? '' })`).join(' | ') }`;

  expect([...results.passes, ...results.violations, ...undecided].some((result) => result.id === 'color-contrast'), 'axe checked the contrast').toBe(true);
  expect([...serious, ...undecided.map((result) => ({ ...result, id: `${ result.id } (undecided)` }))].map(describe)).toEqual([]);
}

/**
 * Switches the logged-in user's theme to dark as the preferences page does: the `theme` user
 * preference (rancher/dashboard shell/store/prefs.js THEME, stored JSON-encoded as `"ui-dark"`).
 * The page the spec opens next boots in the dark theme; `expectTheme` checks that it did.
 */
export async function useDarkTheme(page: Page): Promise<void> {
  await setPreference(page, 'theme', 'ui-dark');
}

/** Switches the theme to light (a user's theme may be dark already on a real Rancher). */
export async function useLightTheme(page: Page): Promise<void> {
  await setPreference(page, 'theme', 'ui-light');
}

/**
 * Switches the logged-in user's language as the preferences page does: the `locale` preference
 * (rancher/dashboard shell/store/prefs.js LOCALE, e.g. `"zh-hans"`); the next page load uses it.
 * The worker's browser context keeps the cookie: a spec switches back to `en-us` when done.
 */
export async function useLanguage(page: Page, locale: string): Promise<void> {
  await setPreference(page, 'locale', locale);
  // The shell reads it first from its cookie (prefs.js: LOCALE is `asCookie`, named R_LOCALE),
  // set where the login's session cookie is.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'R_SESS');

  expect(session, 'logged in').toBeTruthy();
  await page.context().addCookies([{
    name: 'R_LOCALE', value: locale, domain: session?.domain, path: '/'
  }]);
}

/** The page shows the theme (after `useDarkTheme` and a page load for the dark one). */
export async function expectTheme(page: Page, theme: string): Promise<void> {
  await expect(page.locator('body')).toHaveClass(new RegExp(`theme-${ theme }`));
}
