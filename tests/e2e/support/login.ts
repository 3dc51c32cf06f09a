// Logging in and out through the dashboard's own login page (the local auth provider).
// Exported names are used by every spec: keep them stable (documented in docs/emulator.md).

import { Page, expect } from '@playwright/test';
import { SessionApi, sessionApi } from './api';
import { Role, credentials, inRealRancherModeProject, onEmulator } from './env';

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
  if (onEmulator() || inRealRancherModeProject()) {
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
 * The login endpoints, newest first: `/v1-public/login` (rancher/rancher v2.13.0
 * pkg/auth/providers/publicapi/handler.go; what shell 3.0.8 and newer post) and the norman action
 * Rancher 2.12 serves instead (v2.12.12 pkg/multiclustermanager/routes.go routes only /v3-public;
 * rancher/dashboard shell-pkg-v3.0.5 shell/store/auth.js posts it). Both take the same body.
 */
const LOGIN_PATHS = ['/v1-public/login', '/v3-public/localProviders/local?action=login'];
/** The endpoint that last logged someone in: a Rancher keeps serving the one it serves. */
let servedLoginPath: string | undefined;

/**
 * Logs in as `admin`, `viewer`, `editor` or `limited` the way the dashboard's login page does
 * (`responseType: cookie`), without opening a page: the spec's next `page.goto` boots the dashboard
 * once, already logged in. Tries `/v1-public/login` first and falls back to `/v3-public` (Rancher
 * 2.12), then keeps to the one that answered. The login page itself is driven by `loginOnPage`
 * (smoke.spec.ts, and the specs that log in again after a 401).
 */
export async function loginAs(page: Page, role: Role): Promise<void> {
  await loginWith(sessionApi(page), role);
}

/** rancher/dashboard shell/store/auth.js `login`: the body the login page posts for the local provider. */
export function loginBody(role: Role): Record<string, string> {
  const { username, password } = credentials(role);

  return {
    type: 'localProvider', description: 'UI session', responseType: 'cookie', username, password
  };
}

/** Logs `role` in on an API session (a page's, or a request context's: support/seed.ts). */
export async function loginWith(api: SessionApi, role: Role): Promise<void> {
  const body = loginBody(role);
  const answers: string[] = [];

  for (const path of servedLoginPath ? [servedLoginPath] : LOGIN_PATHS) {
    const answer = await api.post(path, body);

    // A path a Rancher does not route may be answered by its UI with index.html: not a login.
    if (answer.status < 300 && typeof answer.body.text !== 'string') {
      servedLoginPath = path;

      return;
    }
    answers.push(`${ path } answered ${ answer.status }: ${ JSON.stringify(answer.body) }`);
  }
  throw new Error(`login as ${ body.username } failed: ${ answers.join('; ') }`);
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
