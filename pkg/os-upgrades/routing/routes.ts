import { gated } from './gated';
import { BLANK_CLUSTER, PAGE, PRODUCT_NAME, routeName } from '../config';

const base = `/${ PRODUCT_NAME }/c/:cluster`;
const meta = { product: PRODUCT_NAME, cluster: BLANK_CLUSTER };

// Every page is a lazy chunk: the package's entry stays small and loads only what a page needs.
const routes = [
  {
    // The product's landing page (product.ts).
    name:      routeName(PAGE.FLEET),
    path:      `${ base }/fleet`,
    component: gated(() => import('../pages/fleet.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.CHANNELS),
    path:      `${ base }/channels`,
    component: gated(() => import('../pages/channels.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.CHANNEL),
    path:      `${ base }/channels/:namespace/:name`,
    component: gated(() => import('../pages/channel.vue')),
    meta,
  },
  {
    // ?old=<version name>&new=<version name>, so a comparison can be shared as a link
    name:      routeName(PAGE.COMPARE),
    path:      `${ base }/channels/:namespace/:name/compare`,
    component: gated(() => import('../pages/compare.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.POOLS),
    path:      `${ base }/pools`,
    component: gated(() => import('../pages/pools.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.POOL_CREATE),
    path:      `${ base }/pools/create`,
    component: gated(() => import('../pages/pool-edit.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.POOL_NODES),
    path:      `${ base }/pools/:namespace/:name/nodes`,
    component: gated(() => import('../pages/pool-nodes.vue')),
    meta,
  },
  {
    // ?as=yaml opens the YAML view
    name:      routeName(PAGE.POOL_EDIT),
    path:      `${ base }/pools/:namespace/:name/edit`,
    component: gated(() => import('../pages/pool-edit.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.POOL),
    path:      `${ base }/pools/:namespace/:name`,
    component: gated(() => import('../pages/pool.vue')),
    meta,
  },
  {
    name:      routeName(PAGE.SOURCES),
    path:      `${ base }/sources`,
    component: gated(() => import('../pages/sources.vue')),
    meta,
  },
];

export default routes;
