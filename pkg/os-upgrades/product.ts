import { IPlugin } from '@shell/core/types';
import {
  BLANK_CLUSTER, PAGE, PRODUCT_NAME, routeName, TYPE
} from './config';

export function init($plugin: IPlugin, store: unknown): void {
  const { product, virtualType, basicType } = $plugin.DSL(store, PRODUCT_NAME);
  // Only the params the extension's paths have: vue-router warns "Discarded invalid param(s)" of any other.
  const route = (page: string) => ({ name: routeName(page), params: { cluster: BLANK_CLUSTER } });

  product({
    icon:                'os-management',
    inStore:             'management',
    weight:              90,
    showClusterSwitcher: false,
    to:                  route(PAGE.FLEET),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.fleet',
    name:     PAGE.FLEET,
    weight:   3,
    route:    route(PAGE.FLEET),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.channels',
    name:     PAGE.CHANNELS,
    weight:   2,
    route:    route(PAGE.CHANNELS),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.pools',
    name:     PAGE.POOLS,
    weight:   1,
    route:    route(PAGE.POOLS),
  });

  // Only for people who may edit both channels and settings (the shell checks PUT on each schema).
  // (ifHaveVerb is in the shell's type-map, not in its typings, hence the variable.)
  const sources = {
    labelKey:   'osUpgrades.nav.sources',
    name:       PAGE.SOURCES,
    weight:     0,
    route:      route(PAGE.SOURCES),
    ifHaveType: [TYPE.CHANNEL, TYPE.SETTING],
    ifHaveVerb: 'PUT',
  };

  virtualType(sources);

  basicType([PAGE.FLEET, PAGE.CHANNELS, PAGE.POOLS, PAGE.SOURCES]);
}
