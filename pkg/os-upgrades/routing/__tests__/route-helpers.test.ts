/* global jest */
// The links the pages build (config.ts) open the page they name, with its object and query, and
// without vue-router's warnings ("Discarded invalid param(s)", "No match found").
import { createMemoryHistory, createRouter } from 'vue-router';
import routes from '../routes';
import {
  channelRoute, compareRoute, PAGE, pageRoute, PageRoute, poolEditRoute, poolNodesRoute, poolRoute
} from '../../config';

const pool = { namespace: 'fleet-default', name: 'edge-canary' };
const channel = { namespace: 'fleet-default', name: 'sl-micro-6.1-base' };

function resolve(route: PageRoute) {
  const router = createRouter({ history: createMemoryHistory(), routes: [...routes] });
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

  try {
    const resolved = router.resolve(route);

    expect(warn).not.toHaveBeenCalled();

    return resolved;
  } finally {
    warn.mockRestore();
  }
}

describe('route helpers', () => {
  it.each([
    [poolRoute(pool), '/os-upgrades/c/_/pools/fleet-default/edge-canary'],
    [poolEditRoute(pool), '/os-upgrades/c/_/pools/fleet-default/edge-canary/edit'],
    [poolNodesRoute(pool), '/os-upgrades/c/_/pools/fleet-default/edge-canary/nodes'],
    [channelRoute(channel), '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-base'],
    [compareRoute(channel), '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-base/compare'],
    [pageRoute(PAGE.POOLS), '/os-upgrades/c/_/pools'],
    [pageRoute(PAGE.POOL_CREATE), '/os-upgrades/c/_/pools/create'],
    [pageRoute(PAGE.SOURCES), '/os-upgrades/c/_/sources'],
  ])('%j opens %s', (route, path) => {
    expect(resolve(route).path).toBe(path);
  });

  it('the compare link carries the two images, and leaves out the old one when there is none', () => {
    expect(resolve(compareRoute(channel, { old: 'v1', new: 'v2' })).query).toEqual({ old: 'v1', new: 'v2' });
    expect(resolve(compareRoute(channel, { old: undefined, new: 'v2' })).query).toEqual({ new: 'v2' });
  });

  it('the edit link can open the YAML view', () => {
    expect(resolve(poolEditRoute(pool, { as: 'yaml' })).fullPath).toBe('/os-upgrades/c/_/pools/fleet-default/edge-canary/edit?as=yaml');
  });
});
