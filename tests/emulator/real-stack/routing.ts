// Which requests the real stack answers in `--backend real-stack`, and which stay the emulator's.
// The emulator keeps Rancher's own parts: login, /v3, settings and the other management.cattle.io
// types (and provisioning, catalog, ext), user preferences, /v1/uiplugins, the dashboard build.
// Everything the real stack has (the Elemental, Fleet and SUC groups, core and other Kubernetes
// types) goes to real Steve (/v1) or the real API server (/api, /apis).

/** Steve types the emulator serves itself (rancher/steve pkg/server: schema, count; Rancher: userpreference, selfuser). */
const EMULATED_VIRTUAL = ['schema', 'count', 'userpreference', 'ext.cattle.io.selfuser', 'uiplugin'];

/** The Rancher-ecosystem API groups the real stack serves (their CRDs are applied by scripts/real-stack/up). */
export const REAL_CATTLE_GROUPS = ['elemental.cattle.io', 'fleet.cattle.io', 'upgrade.cattle.io'];

function isRealGroup(group: string): boolean {
  return REAL_CATTLE_GROUPS.includes(group) || !group.endsWith('cattle.io');
}

/** A Steve type id (`elemental.cattle.io.managedosversion`, `namespace`, `batch.job`), singular or plural. */
export function isRealSteveType(id: string): boolean {
  const singular = id.replace(/s$/, '');

  if (EMULATED_VIRTUAL.includes(id) || EMULATED_VIRTUAL.includes(singular)) {
    return false;
  }
  if (REAL_CATTLE_GROUPS.some((group) => id.startsWith(`${ group }.`))) {
    return true;
  }

  return !id.includes('cattle.io');
}

/** A Kubernetes API path: /api/… is the core group; /apis/<group>/… by its group (/apis alone: discovery, the emulator's). */
export function isRealKubePath(path: string): boolean {
  if (path === '/api' || path.startsWith('/api/')) {
    return true;
  }
  const group = path.split('/')[2];

  return path.startsWith('/apis/') && !!group && isRealGroup(group);
}

export type SteveRoute = 'real' | 'emulator' | 'merge';

/**
 * Where a /v1 path goes: `merge` for the lists that name every type (schemas, counts), which both
 * answer and the emulator merges; a schema or a schema definition by its type id; any other path by
 * the type it names.
 */
export function steveRoute(path: string): SteveRoute {
  const [resource, id] = path.split('/').filter(Boolean).slice(1).map(decodeURIComponent);

  if (!resource) {
    return 'emulator';
  }
  if (resource === 'schemas' || resource === 'schemaDefinitions' || resource === 'schemadefinitions') {
    return id === undefined ? (resource === 'schemas' ? 'merge' : 'emulator') : isRealSteveType(id) ? 'real' : 'emulator';
  }
  if (resource === 'counts' || resource === 'count') {
    return 'merge';
  }

  return isRealSteveType(resource) ? 'real' : 'emulator';
}
