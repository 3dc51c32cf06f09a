import { importTypes } from '@rancher/auto-import';
import { IPlugin } from '@shell/core/types';
import { createPinia, setActivePinia } from 'pinia';
import routes from './routing/routes';

// Extensions get no app.use(): give Pinia's stores an active instance of their own.
setActivePinia(createPinia());

export default function(plugin: IPlugin): void {
  importTypes(plugin);
  plugin.metadata = require('./package.json');
  plugin.addProduct(require('./product'));
  plugin.addRoutes(routes);
}
