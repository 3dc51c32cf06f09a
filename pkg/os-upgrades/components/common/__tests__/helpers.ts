// Shared by the component tests of channels, changelogs and comparisons.
import { ChangelogClient } from '../../../api/changelog-client';
import { fakeHttp, Reply } from '../../../api/__tests__/fake-http';
import { useChangelogsStore } from '../../../stores/changelogs';

export const SERVER = 'http://localhost';

export const logUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.updates.log`;
export const packagesUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.packages`;

/** `t` as the tests see it: the key, then the values as JSON. */
export function t(key: string, values?: Record<string, unknown>): string {
  return values && Object.keys(values).length ? `${ key } ${ JSON.stringify(values) }` : key;
}

export function shellStore(dispatch: (action: string, payload?: unknown) => Promise<unknown> = () => Promise.resolve(undefined), theme = 'light') {
  return {
    dispatch,
    getters: {
      'prefs/theme':          theme,
      'management/schemaFor': () => undefined,
      'i18n/t':               t,
      'i18n/exists':          () => true,
      'prefs/get':            ((_name: string) => undefined) as (name: string) => unknown,
    },
  };
}

/**
 * Serves changelog files from a table through the real client, into the changelogs store. The
 * table is a live source (its 404s are missing files); `probe: true` lets the client probe it first.
 */
export function serveFiles(routes: Record<string, Reply>, options: { probe?: boolean } = {}) {
  const fake = fakeHttp(routes);

  useChangelogsStore().useClient(new ChangelogClient({
    serverOrigin: SERVER, adapter: fake.adapter, liveSources: options.probe ? [] : ['default']
  }));

  return fake;
}

/** jsdom has no ResizeObserver; the virtual list measures rows with it. */
export function installResizeObserver(): void {
  (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe(): void {}

    unobserve(): void {}

    disconnect(): void {}
  };
}

/** What every mounted component of these pages needs from the shell. */
export function mountGlobals(store = shellStore()) {
  return {
    mocks: { t, $store: store }, directives: { cleanHtml: {} }, stubs: { t: true }
  };
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
