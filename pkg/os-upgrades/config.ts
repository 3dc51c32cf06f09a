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
