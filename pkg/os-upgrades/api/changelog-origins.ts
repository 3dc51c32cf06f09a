import type { ShellStore } from './resources';
import { CHANGELOG_ORIGINS_SETTING, parseAllowedOrigins } from './changelog-url';

const SETTING_TYPE = 'management.cattle.io.setting';

/**
 * The origins an administrator allowed for changelog files (Rancher setting
 * `os-upgrades-changelog-origins`). A missing or unreadable setting means none.
 */
export async function readAllowedOrigins(store: ShellStore): Promise<string[]> {
  try {
    const setting = await store.dispatch('management/find', { type: SETTING_TYPE, id: CHANGELOG_ORIGINS_SETTING }) as { value?: unknown } | undefined;

    return parseAllowedOrigins(setting?.value);
  } catch {
    return [];
  }
}
