import { IPlugin } from '@shell/core/types';
import { BLANK_CLUSTER, PAGE, PRODUCT_NAME, routeName } from './config';

export function init($plugin: IPlugin, store: unknown): void {
  const { product, virtualType, basicType } = $plugin.DSL(store, PRODUCT_NAME);
  const route = (page: string) => ({ name: routeName(page), params: { product: PRODUCT_NAME, cluster: BLANK_CLUSTER } });

  product({
    icon:                'os-management',
    inStore:             'management',
    weight:              90,
    showClusterSwitcher: false,
    to:                  route(PAGE.CHANNELS),
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

  basicType([PAGE.CHANNELS, PAGE.POOLS]);
}
