import { hasPluginMethod } from '../index';

// The plugin objects of two shells, as far as this rule looks at them (rancher/dashboard
// shell/core/plugin.ts): release-2.12's (shell 3.0.5) has no enableServerSidePagination.
const shell305 = {
  addProduct: () => undefined, addRoutes: () => undefined, addNavHooks: () => undefined
};
const shell3013 = { ...shell305, enableServerSidePagination: () => undefined };

describe('hasPluginMethod', () => {
  it('finds enableServerSidePagination on a shell that has it (Rancher 2.13 and newer)', () => {
    expect(hasPluginMethod(shell3013, 'enableServerSidePagination')).toBe(true);
  });

  it('does not find it on release-2.12\'s shell, so the extension skips the call instead of throwing', () => {
    expect(hasPluginMethod(shell305, 'enableServerSidePagination')).toBe(false);
  });

  it('finds it on a class instance, where the shell defines its methods on the prototype', () => {
    class Plugin {
      enableServerSidePagination(): void {}
    }

    expect(hasPluginMethod(new Plugin(), 'enableServerSidePagination')).toBe(true);
  });

  it('does not take a property of another kind for the method', () => {
    expect(hasPluginMethod({ enableServerSidePagination: true }, 'enableServerSidePagination')).toBe(false);
    expect(hasPluginMethod(undefined, 'enableServerSidePagination')).toBe(false);
    expect(hasPluginMethod(null, 'enableServerSidePagination')).toBe(false);
  });
});
