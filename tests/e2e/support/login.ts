// Logging in and out through the dashboard's own login page (the local auth provider).
// Exported names are used by every spec: keep them stable (documented in docs/emulator.md).

import { Page, expect } from '@playwright/test';
import { sessionApi } from './api';
import { Role, credentials, onEmulator } from './env';

const USERNAME_INPUT = 'input[data-testid="local-login-username"], [data-testid="local-login-username"] input';
const PASSWORD_INPUT = 'input[data-testid="local-login-password"], [data-testid="local-login-password"] input';

/**
 * Where the dashboard's pages live: `/` on the emulator and `yarn dev`, `/dashboard` on a real
 * Rancher (override with E2E_DASHBOARD_PREFIX). API paths (/v1, /v3…) are at the root either way.
 */
export function dashboardPrefix(): string {
  if (process.env.E2E_DASHBOARD_PREFIX !== undefined) {
    return process.env.E2E_DASHBOARD_PREFIX.replace(/\/$/, '');
  }
  if (onEmulator()) {
    return '';
  }

  return new URL(process.env.E2E_BASE_URL || 'http://localhost').port === '8005' ? '' : '/dashboard';
}

/** A dashboard page's path, e.g. `dashboardPath('/os-upgrades/c/_/channels')`. */
export function dashboardPath(path: string): string {
  return `${ dashboardPrefix() }${ path }`;
}

export function isLoginPage(page: Page): boolean {
  return new URL(page.url()).pathname.includes('/auth/login');
}

/**
 * Logs in as `admin`, `viewer`, `editor` or `limited` the way the dashboard's login page does
 * (`POST /v1-public/login`, `responseType: cookie`), without opening a page: the spec's next
 * `page.goto` boots the dashboard once, already logged in. The login page itself is driven by
 * `loginOnPage` (smoke.spec.ts, and the specs that log in again after a 401).
 */
export async function loginAs(page: Page, role: Role): Promise<void> {
  const { username, password } = credentials(role);
  // rancher/dashboard shell/store/auth.js `login`: the body the login page posts for the local provider.
  const answer = await sessionApi(page).post('/v1-public/login', {
    type: 'localProvider', description: 'UI session', responseType: 'cookie', username, password
  });

  if (answer.status >= 300) {
    throw new Error(`login as ${ username } answered ${ answer.status }: ${ JSON.stringify(answer.body) }`);
  }
}

/** Logs in on the dashboard's login page and waits until it leaves the login page. */
export async function loginOnPage(page: Page, role: Role): Promise<void> {
  const { username, password } = credentials(role);

  if (!isLoginPage(page)) {
    // `?local` shows the local login form even when other auth providers are configured.
    await page.goto(dashboardPath('/auth/login?local'));
  }
  await page.locator(USERNAME_INPUT).first().fill(username);
  await page.locator(PASSWORD_INPUT).first().fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.includes('/auth/'), { timeout: 60_000 });
}

/** Logs out through the dashboard's logout page and waits for the login page. */
export async function logout(page: Page): Promise<void> {
  await page.goto(dashboardPath('/auth/logout'));
  await expect(page).toHaveURL(/\/auth\/login/, { timeout: 30_000 });
}
