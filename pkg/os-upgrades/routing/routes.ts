import { BLANK_CLUSTER, PAGE, PRODUCT_NAME, routeName } from '../config';

const base = `/${ PRODUCT_NAME }/c/:cluster`;
const meta = { product: PRODUCT_NAME, cluster: BLANK_CLUSTER };

// Every page is a lazy chunk: the package's entry stays small and loads only what a page needs.
const routes = [
  {
    name:      routeName(PAGE.CHANNELS),
    path:      `${ base }/channels`,
    component: () => import('../pages/channels.vue'),
    meta,
  },
  {
    name:      routeName(PAGE.POOLS),
    path:      `${ base }/pools`,
    component: () => import('../pages/pools.vue'),
    meta,
  },
];

export default routes;
