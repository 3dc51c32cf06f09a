// The Rancher minor the emulator imitates (--rancher-version). Only what differs between the minors
// the package declares (2.12 and newer) and the extension, the dashboard or the tests use:
//
// - Login: rancher/rancher v2.13.0 pkg/auth/providers/publicapi/handler.go adds POST /v1-public/login
//   (what shell 3.0.8 and newer post); v2.12.12 pkg/multiclustermanager/routes.go routes only
//   /v3-public to the public API, so there a login is POST /v3-public/localProviders/local?action=login
//   (rancher/dashboard shell-pkg-v3.0.5 shell/store/auth.js, `driver.doAction('login')`) and
//   /v1-public/login falls through to the authenticated routes.
// - Users: v2.12.12 has no ext.cattle.io types (no SelfUser, no PasswordChangeRequest; rancher/rancher
//   v2.13.0 pkg/apis/ext.cattle.io/v1/types.go adds them) and keeps the password on the User,
//   set through /v3/users/<id>?action=setpassword (v2.12.12 pkg/auth/api/user/user_actions.go).
// - Version: /rancherversion and the server-version setting.
// Steve's pagination and `filter=` forms are the same on every minor for what is sent here
// (rancher/steve pkg/stores/sqlpartition/listprocessor/processor.go at v0.6.53, pinned by rancher
// v2.12.12's go.mod, and v0.7.32, v2.13.0's); v0.7 adds a list's `revision` parameter, which the
// emulator serves on no minor.

/**
 * What Steve's SQL-cache lists answer of `summary=` (steve/list-summary.ts): rancher/rancher
 * release/v2.12 and v2.13 pin rancher/steve v0.6.53 and v0.7.47, which have none (the parameter is
 * ignored); release/v2.14 pins v0.8.26, which has `summary` (rancher/steve #948, since v0.8.1);
 * release/v2.15 pins v0.9.20, which adds `summaryonly` and `summarynamespaced` (#1182, #1201: v0.9.11).
 */
export type SteveSummarySupport = 'none' | 'summary' | 'summaryOnly';

export interface RancherVersion {
  /** The minor, e.g. 2.12. */
  minor: string;
  /** What /rancherversion and the server-version setting say. */
  serverVersion: string;
  /** /v1-public (login, authproviders) is served (2.13 and newer). */
  v1Public: boolean;
  /** The ext.cattle.io types (SelfUser, PasswordChangeRequest) are served (2.13 and newer). */
  extTypes: boolean;
  /** What Steve answers of `summary=` (see SteveSummarySupport). */
  steveSummary: SteveSummarySupport;
}

export const DEFAULT_RANCHER_MINOR = '2.15';
const OLDEST_MINOR = 12;

/** `2.12` (or `v2.12`, `2.12.3`) to what that Rancher serves; throws on a minor the package does not declare. */
export function parseRancherVersion(value: string | undefined): RancherVersion {
  const text = (value || DEFAULT_RANCHER_MINOR).replace(/^v/, '');
  const match = /^2\.(\d+)(?:\.(\d+))?$/.exec(text);
  const minor = match ? Number(match[1]) : NaN;

  if (!match || minor < OLDEST_MINOR) {
    throw new Error(`--rancher-version must be a Rancher 2.${ OLDEST_MINOR } or newer, such as 2.12, got "${ value }"`);
  }

  return {
    minor:         `2.${ minor }`,
    serverVersion: `v2.${ minor }.${ match[2] ?? 0 }`,
    v1Public:      minor >= 13,
    extTypes:      minor >= 13,
    steveSummary:  minor >= 15 ? 'summaryOnly' : minor >= 14 ? 'summary' : 'none',
  };
}
