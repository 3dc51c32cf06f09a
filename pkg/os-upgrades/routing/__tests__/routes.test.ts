/* global jest */
// The side navigation's routes (product.ts) must resolve to the extension's pages without vue-router
// warnings ("Discarded invalid param(s)", "No match found"), which the dev server prints on every click.
import { createMemoryHistory, createRouter, RouteLocationRaw } from 'vue-router';
import routes from '../routes';
import { init } from '../../product';

function navRoutes(): RouteLocationRaw[] {
  const found: RouteLocationRaw[] = [];
  const record = (options: { to?: RouteLocationRaw; route?: RouteLocationRaw }) => {
    const target = options.to ?? options.route;

    if (target) {
      found.push(target);
    }
  };
  const plugin = {
    DSL: () => ({
      product: record, virtualType: record, basicType: () => undefined
    })
  };

  init(plugin as never, {});

  return found;
}

describe('the extension\'s routes', () => {
  it('every side-navigation entry resolves to a page of the extension, without a router warning', () => {
    const router = createRouter({ history: createMemoryHistory(), routes: [...routes] });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const targets = navRoutes();

    try {
      expect(targets.length).toBeGreaterThan(2);
      for (const target of targets) {
        const resolved = router.resolve(target);

        expect(resolved.matched.length).toBeGreaterThan(0);
        expect(resolved.path).toMatch(/^\/os-upgrades\/c\/_\//);
      }
      expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});
