/**
 * Methods of the shell's plugin object (rancher/dashboard shell/core/plugin.ts) that not every
 * declared Rancher has, so the extension calls them only where they exist. Each with the first
 * shell that has it:
 * - `enableServerSidePagination`: rancher/dashboard commit 539d61dbd9, first in release-2.13
 *   (shell 3.0.8); release-2.12's shell (3.0.5) has none, and calling it threw in the extension's
 *   setup, so nothing of it loaded on Rancher 2.12.
 */
export type OptionalPluginMethod = 'enableServerSidePagination';

/** Whether `plugin` has `method` as a function: the shell it runs in offers it. */
export function hasPluginMethod(plugin: unknown, method: OptionalPluginMethod): boolean {
  return typeof plugin === 'object' && plugin !== null && typeof (plugin as Record<string, unknown>)[method] === 'function';
}
