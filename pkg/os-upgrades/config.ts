export const PRODUCT_NAME = 'os-upgrades';

// The shell's name for "no particular cluster": the product lives in the management store.
export const BLANK_CLUSTER = '_';

export const TYPE = {
  CHANNEL:       'elemental.cattle.io.managedosversionchannel',
  VERSION:       'elemental.cattle.io.managedosversion',
  IMAGE:         'elemental.cattle.io.managedosimage',
  FLEET_CLUSTER: 'fleet.cattle.io.cluster',
  FLEET_GROUP:   'fleet.cattle.io.clustergroup',
  FLEET_BUNDLE:  'fleet.cattle.io.bundle',
  SETTING:       'management.cattle.io.setting',
} as const;

export const PAGE = {
  FLEET:       'fleet',
  CHANNELS:    'channels',
  CHANNEL:     'channel',
  COMPARE:     'compare',
  POOLS:       'pools',
  POOL_CREATE: 'pool-create',
  POOL:        'pool',
  POOL_EDIT:   'pool-edit',
  POOL_NODES:  'pool-nodes',
  SOURCES:     'sources',
} as const;

export function routeName(page: string): string {
  return `${ PRODUCT_NAME }-c-cluster-${ page }`;
}

/**
 * Where a link goes: a route of the product, in the shell's blank cluster (the product lives in the
 * management store). Only the params the route's path has: vue-router warns "Discarded invalid param(s)" of any other.
 */
export interface PageRoute {
  name: string;
  params: Record<string, string>;
  query?: Record<string, string>;
}

/** A pool or a channel, as a route names it. */
export interface ObjectRef {
  namespace: string;
  name: string;
}

/** A page without parameters: the fleet overview, the lists, the sources and the new pool form. */
export function pageRoute(page: typeof PAGE.FLEET | typeof PAGE.CHANNELS | typeof PAGE.POOLS | typeof PAGE.POOL_CREATE | typeof PAGE.SOURCES): PageRoute {
  return { name: routeName(page), params: { cluster: BLANK_CLUSTER } };
}

function objectRoute(page: string, { namespace, name }: ObjectRef, query?: Record<string, string>): PageRoute {
  return {
    name:   routeName(page),
    params: {
      cluster: BLANK_CLUSTER, namespace, name
    },
    ...(query ? { query } : {})
  };
}

export function poolRoute(pool: ObjectRef): PageRoute {
  return objectRoute(PAGE.POOL, pool);
}

/** The pool's edit form; `query` `{ as: 'yaml' }` opens its YAML view. */
export function poolEditRoute(pool: ObjectRef, query?: Record<string, string>): PageRoute {
  return objectRoute(PAGE.POOL_EDIT, pool, query);
}

export function poolNodesRoute(pool: ObjectRef): PageRoute {
  return objectRoute(PAGE.POOL_NODES, pool);
}

export function channelRoute(channel: ObjectRef): PageRoute {
  return objectRoute(PAGE.CHANNEL, channel);
}

/** The compare page of a channel; `images` the old and new image it opens with. */
export function compareRoute(channel: ObjectRef, images?: { old?: string; new?: string }): PageRoute {
  const query = images ? Object.fromEntries(Object.entries(images).filter(([, value]) => !!value)) as Record<string, string> : undefined;

  return objectRoute(PAGE.COMPARE, channel, query);
}
