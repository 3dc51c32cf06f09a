import { IPlugin } from '@shell/core/types';
import { PAGE, pageRoute, PRODUCT_NAME, TYPE } from './config';

export function init($plugin: IPlugin, store: unknown): void {
  const { product, virtualType, basicType } = $plugin.DSL(store, PRODUCT_NAME);

  product({
    icon:                'os-management',
    inStore:             'management',
    weight:              90,
    showClusterSwitcher: false,
    to:                  pageRoute(PAGE.FLEET),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.fleet',
    name:     PAGE.FLEET,
    weight:   3,
    route:    pageRoute(PAGE.FLEET),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.channels',
    name:     PAGE.CHANNELS,
    weight:   2,
    route:    pageRoute(PAGE.CHANNELS),
  });

  virtualType({
    labelKey: 'osUpgrades.nav.pools',
    name:     PAGE.POOLS,
    weight:   1,
    route:    pageRoute(PAGE.POOLS),
  });

  // Only for people who may edit both channels and settings (the shell checks PUT on each schema).
  // (ifHaveVerb is in the shell's type-map, not in its typings, hence the variable.)
  const sources = {
    labelKey:   'osUpgrades.nav.sources',
    name:       PAGE.SOURCES,
    weight:     0,
    route:      pageRoute(PAGE.SOURCES),
    ifHaveType: [TYPE.CHANNEL, TYPE.SETTING],
    ifHaveVerb: 'PUT',
  };

  virtualType(sources);

  basicType([PAGE.FLEET, PAGE.CHANNELS, PAGE.POOLS, PAGE.SOURCES]);
}
