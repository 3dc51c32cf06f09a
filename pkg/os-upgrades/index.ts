import { importTypes } from '@rancher/auto-import';
import { IPlugin } from '@shell/core/types';
import { createPinia, setActivePinia } from 'pinia';
import routes from './routing/routes';
import { VERSION_PAGINATION } from './api/version-pagination';
import { onLogin, onLogout } from './stores/nav-hooks';
import { hasPluginMethod } from './domain/shell-features';
import { skipUnchangedLangWrites } from './shell-fixes/unchanged-lang';

// Extensions get no app.use(): give Pinia's stores an active instance of their own.
setActivePinia(createPinia());

export default function(plugin: IPlugin): void {
  importTypes(plugin);
  if (typeof document !== 'undefined') {
    skipUnchangedLangWrites(document.documentElement);
  }
  plugin.metadata = require('./package.json');
  plugin.addProduct(require('./product'));
  plugin.addRoutes(routes);
  // Versions are read a channel at a time through the SQL-cache API (docs/shell-queries.md). Rancher
  // 2.12's shell has no such method: there the shell does not page the type, and the channel pages
  // read versions by label selector instead (api/version-queries.ts, pagingEnabled).
  if (hasPluginMethod(plugin, 'enableServerSidePagination')) {
    plugin.enableServerSidePagination(VERSION_PAGINATION);
  }
  // Pinia's state is this package's own: the shell's logout does not clear it.
  plugin.addNavHooks({
    onLogout: () => onLogout(),
    onLogin:  (store) => onLogin(store),
  });
}
