// The columns of every table, in the shell's header shape (rancher/dashboard shell/config/table-headers.js):
// `name` (the cell slot `cell:<name>`), `labelKey` (l10n), `value` (the row field shown and searched),
// `sort` (row fields, `:desc` reverses one), `breakpoint` (hidden below that width), `align`.
// A table takes its list from here; a page or component only fills the cells that need more than text.
import { COLUMN_BREAKPOINTS } from '@shell/types/store/type-map';

export interface TableHeader {
  name: string;
  labelKey: string;
  value?: string;
  sort?: string[];
  breakpoint?: string;
  align?: 'left' | 'center' | 'right';
}

// Secondary columns hide below the shell's desktop width (1281 px), so each table fits a 1024 px screen;
// what they say then reads elsewhere in the row (each table's comment says where).
const SECONDARY = { breakpoint: COLUMN_BREAKPOINTS.DESKTOP };

/** The pools page: when narrow, the namespace and the targets read under the name, the nodes under the state. */
export const POOL_HEADERS: TableHeader[] = [
  {
    name: 'name', labelKey: 'osUpgrades.pools.name', value: 'name', sort: ['name']
  },
  {
    name: 'namespace', labelKey: 'osUpgrades.pools.namespace', value: 'namespace', sort: ['namespace'], ...SECONDARY
  },
  {
    name: 'targets', labelKey: 'osUpgrades.pools.targets', ...SECONDARY
  },
  {
    name: 'nodeSelector', labelKey: 'osUpgrades.pools.nodeSelector', value: 'nodeSelector', ...SECONDARY
  },
  {
    name: 'pin', labelKey: 'osUpgrades.pools.pin', value: 'pool.pin', sort: ['pool.pin']
  },
  {
    name: 'selector', labelKey: 'osUpgrades.pools.selector', value: 'pool.selectorText', sort: ['upgradeAvailable:desc', 'name']
  },
  {
    name: 'state', labelKey: 'osUpgrades.pools.state', value: 'rollout.phase', sort: ['rollout.phase']
  },
  {
    name: 'nodes', labelKey: 'osUpgrades.pools.nodes', ...SECONDARY
  },
];

/** The channels page: when narrow, the namespace reads under the name. */
export const CHANNEL_HEADERS: TableHeader[] = [
  {
    name: 'name', labelKey: 'osUpgrades.channels.name', value: 'name', sort: ['name', 'namespace']
  },
  {
    name: 'namespace', labelKey: 'osUpgrades.channels.namespace', value: 'namespace', sort: ['namespace', 'name'], ...SECONDARY
  },
  {
    name: 'type', labelKey: 'osUpgrades.channels.type', value: 'type', sort: ['type', 'name'], ...SECONDARY
  },
  {
    name: 'source', labelKey: 'osUpgrades.channels.source', value: 'source', sort: ['source']
  },
  {
    name: 'enabled', labelKey: 'osUpgrades.channels.enabled', value: 'enabled', sort: ['enabled', 'name'], ...SECONDARY
  },
  {
    name: 'syncInterval', labelKey: 'osUpgrades.channels.syncInterval', value: 'syncInterval', sort: ['syncInterval'], ...SECONDARY
  },
  {
    name: 'lastSync', labelKey: 'osUpgrades.channels.lastSync', value: 'lastSync', sort: ['lastSync']
  },
  {
    name: 'syncState', labelKey: 'osUpgrades.channels.syncState', value: 'syncState', sort: ['syncState', 'failedAttempts']
  },
  {
    name: 'versions', labelKey: 'osUpgrades.channels.versions', value: 'versions', sort: ['name'], align: 'right'
  },
];

/**
 * The fleet overview's pools, in rank order: when narrow, how far behind reads under the pinned
 * image and the pool's page has its history.
 */
export const EXPOSURE_HEADERS: TableHeader[] = [
  {
    name: 'rank', labelKey: 'osUpgrades.fleet.table.rank', value: 'rank', sort: ['rank'], ...SECONDARY
  },
  {
    name: 'pool', labelKey: 'osUpgrades.fleet.table.pool', value: 'name', sort: ['name', 'namespace']
  },
  {
    name: 'pin', labelKey: 'osUpgrades.fleet.table.pin', value: 'exposure.pinName', sort: ['exposure.pinName']
  },
  {
    name: 'behind', labelKey: 'osUpgrades.fleet.table.behind', value: 'exposure.behind', sort: ['exposure.behind:desc', 'rank'], ...SECONDARY
  },
  {
    name: 'advisories', labelKey: 'osUpgrades.fleet.table.advisories', value: 'rank', sort: ['rank']
  },
  { name: 'rollout', labelKey: 'osUpgrades.fleet.table.rollout' },
  { name: 'offer', labelKey: 'osUpgrades.fleet.table.offer' },
  {
    name: 'history', labelKey: 'osUpgrades.fleet.table.history', ...SECONDARY
  },
];

/** A pool's nodes, one row per targeted node. */
export const NODE_ROLLOUT_HEADERS: TableHeader[] = [
  {
    name: 'cluster', labelKey: 'osUpgrades.nodes.cluster', value: 'cluster', sort: ['cluster', 'node']
  },
  {
    name: 'node', labelKey: 'osUpgrades.nodes.node', value: 'node', sort: ['node']
  },
  {
    name: 'image', labelKey: 'osUpgrades.nodes.image', value: 'image', sort: ['image', 'node']
  },
  {
    name: 'state', labelKey: 'osUpgrades.nodes.state', value: 'stateLabel', sort: ['stateRank:desc', 'cluster', 'node']
  },
  {
    name: 'since', labelKey: 'osUpgrades.nodes.since', value: 'sinceText', sort: ['since', 'node']
  },
  {
    name: 'message', labelKey: 'osUpgrades.nodes.message', value: 'message', sort: ['message']
  },
];
