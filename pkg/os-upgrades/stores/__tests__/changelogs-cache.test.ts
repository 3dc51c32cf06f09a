/**
 * @jest-environment node
 */
/* global jest, beforeAll */
import 'fake-indexeddb/auto';
import { createPinia, setActivePinia } from 'pinia';
import { ChangelogClient } from '../../api/changelog-client';
import { PersistentFileCache } from '../../api/persistent-cache';
import { fakeHttp } from '../../api/__tests__/fake-http';
import { useChangelogsStore } from '../changelogs';

const SERVER = 'https://rancher.example.com';
const logUrl = (name: string) => `${ SERVER }/elemental/changelog/${ name }/${ name }.updates.log`;
const versions = Array.from({ length: 500 }, (_, i) => ({ name: `v${ i }`, namespace: 'fleet-default' }));
const shellStore = { dispatch: jest.fn().mockResolvedValue(undefined), getters: {} };

function newSession(routes: Parameters<typeof fakeHttp>[0]) {
  setActivePinia(createPinia());
  const fake = fakeHttp(routes);
  const store = useChangelogsStore();

  store.useClient(new ChangelogClient({
    serverOrigin: SERVER, adapter: fake.adapter, liveSources: ['default'], cache: new PersistentFileCache(), userId: 'admin'
  }));

  return { store, fake };
}

/** The IndexedDB transactions opened while `work` runs, by mode. */
async function transactionsDuring(work: () => Promise<void>): Promise<string[]> {
  const modes: string[] = [];
  const transaction = IDBDatabase.prototype.transaction;

  IDBDatabase.prototype.transaction = function(this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    modes.push(String(args[1] ?? 'readonly'));

    return transaction.apply(this, args);
  };
  try {
    await work();
  } finally {
    IDBDatabase.prototype.transaction = transaction;
  }

  return modes;
}

describe('a 500-image compare read from the file cache', () => {
  beforeAll(async() => {
    await new PersistentFileCache().clear();
    const { store } = newSession(Object.fromEntries(versions.map((version) => [logUrl(version.name), { status: 200, body: `[{"id":"SUSE-${ version.name }"}]` }])));

    await store.load(shellStore, 'log', versions, undefined);
    for (let i = 0; i < 200 && (await new PersistentFileCache().usage()).entries < versions.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('reads every file in two transactions in a new session (the first few, then the rest), and nothing on the next visit', async() => {
    const { store, fake } = newSession({});
    const first = await transactionsDuring(() => store.load(shellStore, 'log', versions, undefined));

    expect(fake.requests).toHaveLength(0);
    expect(store.progress('log', versions)).toEqual({ done: 500, total: 500 });
    expect(store.log(versions[499])).toEqual({ state: 'ok', value: [expect.objectContaining({ id: 'SUSE-v499' })] });
    // The index of entries once for the session, then the first files asked for and the others together.
    expect(first.filter((mode) => mode === 'readonly')).toHaveLength(3);

    const again = await transactionsDuring(() => store.load(shellStore, 'log', versions, undefined));

    expect(again).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});
