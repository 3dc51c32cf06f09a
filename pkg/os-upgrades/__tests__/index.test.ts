/* global jest */
// The extension's setup on the plugin objects of the oldest and the newest declared shell
// (rancher/dashboard shell/core/plugin.ts): on Rancher 2.12's (shell 3.0.5, no
// enableServerSidePagination) it registers everything without throwing.
import setup from '../index';
import { VERSION_PAGINATION } from '../api/version-pagination';

jest.mock('@rancher/auto-import', () => ({ importTypes: jest.fn() }), { virtual: true });
jest.mock('../product', () => ({ init: jest.fn() }));
jest.mock('../routing/routes', () => []);
jest.mock('../stores/nav-hooks', () => ({ onLogin: jest.fn(), onLogout: jest.fn() }));

function shell305Plugin() {
  return {
    metadata: {}, addProduct: jest.fn(), addRoutes: jest.fn(), addNavHooks: jest.fn()
  };
}

describe('the extension\'s setup', () => {
  it('on shell 3.0.5 (Rancher 2.12) registers the product, routes and hooks without paging', () => {
    const plugin = shell305Plugin();

    expect(() => setup(plugin as never)).not.toThrow();
    expect(plugin.addProduct).toHaveBeenCalledTimes(1);
    expect(plugin.addRoutes).toHaveBeenCalledTimes(1);
    expect(plugin.addNavHooks).toHaveBeenCalledTimes(1);
  });

  it('on a shell with enableServerSidePagination (Rancher 2.13 and newer) has it page the versions', () => {
    const plugin = { ...shell305Plugin(), enableServerSidePagination: jest.fn() };

    setup(plugin as never);
    expect(plugin.enableServerSidePagination).toHaveBeenCalledWith(VERSION_PAGINATION);
    expect(plugin.addNavHooks).toHaveBeenCalledTimes(1);
  });

  it('keeps the shell\'s rewrite of an unchanged <html lang> from reaching the page (shell-fixes/unchanged-lang.ts)', () => {
    const html = document.documentElement;

    setup(shell305Plugin() as never);
    html.setAttribute('lang', 'en-us');
    const observer = new MutationObserver(() => undefined);

    observer.observe(html, { attributes: true });
    html.setAttribute('lang', 'en-us');
    expect(observer.takeRecords()).toHaveLength(0);
    html.setAttribute('lang', 'zh-hans');
    expect(observer.takeRecords()).toHaveLength(1);
    observer.disconnect();
  });
});
