// What rancher/rancher serves besides Steve (pkg/api/steve, pkg/ui/routes.go): version, settings, users, boot endpoints.
// Rancher's small endpoints: /rancherversion, /version, the UI extensions list and files
// (/v1/uiplugins). /elemental/changelog is the operator's: changelog-service.ts.

import { RequestContext, sendJson, sendNotFound } from '../core/http';
import { KUBE_VERSION, RANCHER_VERSION } from './seed';
import { PluginEntry, sendPluginFile } from './static';

export function rancherVersion(ctx: RequestContext, version = RANCHER_VERSION): void {
  sendJson(ctx, 200, {
    Version: version, GitCommit: 'emulator', RancherPrime: 'false'
  });
}

export function kubeVersion(ctx: RequestContext): void {
  sendJson(ctx, 200, KUBE_VERSION);
}

/** GET /v1/uiplugins (the list Rancher builds from UIPlugin resources) and the plugin files. */
export function uiPlugins(ctx: RequestContext, plugins: PluginEntry[]): void {
  const parts = ctx.path.split('/').filter(Boolean).slice(2).map(decodeURIComponent);

  if (!parts.length) {
    const entries: Record<string, unknown> = {};

    for (const plugin of plugins) {
      entries[plugin.name] = {
        name:     plugin.name,
        version:  plugin.version,
        endpoint: `${ ctx.base }/v1/uiplugins/${ plugin.name }/${ plugin.version }`,
        // Installed from its chart: cached by Rancher and served from that cache (static.ts sendPluginFile).
        noCache:  false,
        noAuth:   false,
        metadata: plugin.metadata,
      };
    }

    return sendJson(ctx, 200, { entries });
  }
  const [name, version, folder, ...file] = parts;
  const plugin = plugins.find((p) => p.name === name && p.version === version);

  if (!plugin || folder !== 'plugin' || !sendPluginFile(ctx, plugin, file.join('/'))) {
    sendNotFound(ctx);
  }
}
