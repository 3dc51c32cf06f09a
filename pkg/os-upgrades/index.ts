import { importTypes } from '@rancher/auto-import';
import { IPlugin } from '@shell/core/types';
import { createPinia, setActivePinia } from 'pinia';
import routes from './routing/routes';
import { VERSION_PAGINATION } from './api/version-pagination';
import { onLogin, onLogout } from './stores/nav-hooks';

// Extensions get no app.use(): give Pinia's stores an active instance of their own.
setActivePinia(createPinia());

export default function(plugin: IPlugin): void {
  importTypes(plugin);
  plugin.metadata = require('./package.json');
  plugin.addProduct(require('./product'));
  plugin.addRoutes(routes);
  // Versions are read a channel at a time through the SQL-cache API (docs/shell-queries.md).
  plugin.enableServerSidePagination(VERSION_PAGINATION);
  // Pinia's state is this package's own: the shell's logout does not clear it.
  plugin.addNavHooks({
    onLogout: () => onLogout(),
    onLogin:  (store) => onLogin(store),
  });
}
