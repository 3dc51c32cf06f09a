// Channels' version lists kept across sessions in IndexedDB (rule "Kept version list"): one entry
// per channel, the last read of it. A missing, refused or stuck IndexedDB keeps nothing and never
// fails or holds back a read.
import { createStore, get, set, UseStore } from 'idb-keyval';
import type { KeptVersionList } from '../domain';

const LISTS_DB = 'os-upgrades-version-lists';
/** A read not answered by then is a miss: the list is read from the server instead. */
const READ_TIMEOUT_MS = 1000;

export interface VersionListCache {
  get(key: string): Promise<KeptVersionList | undefined>;
  put(key: string, list: KeptVersionList): Promise<void>;
}

class IndexedDbVersionLists implements VersionListCache {
  private readonly lists: UseStore = createStore(LISTS_DB, 'lists');

  async get(key: string): Promise<KeptVersionList | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), READ_TIMEOUT_MS);
    });

    try {
      return await Promise.race([get<KeptVersionList>(key, this.lists).catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async put(key: string, list: KeptVersionList): Promise<void> {
    // Plain data only: a version's upgradeContainer may be a reactive proxy, which IndexedDB cannot clone.
    await set(key, JSON.parse(JSON.stringify(list)), this.lists).catch(() => undefined);
  }
}

class NoVersionLists implements VersionListCache {
  async get(): Promise<undefined> {
    return undefined;
  }

  async put(): Promise<void> {
    return undefined;
  }
}

let shared: VersionListCache | undefined;

/** The session's kept version lists (none where there is no IndexedDB). */
export function versionListCache(): VersionListCache {
  if (!shared) {
    shared = typeof indexedDB === 'undefined' ? new NoVersionLists() : new IndexedDbVersionLists();
  }

  return shared;
}
