// ManagedOSChangelog objects (elemental-operator PR #891, draft) through the shell's store:
// whether the cluster has the type, who may create one, and reading one as it moves.
import { CHANGELOG_RESOURCE_TYPE, changelogResourceFor, KubeObject as DomainObject, newChangelogResource } from '../domain';
import {
  canCreate, findAll, findOne, ShellStore, WriteError, writeObject
} from './resources';

export function hasChangelogResources(store: ShellStore): boolean {
  const getter = store.getters['management/schemaFor'] as ((type: string) => unknown) | undefined;

  return !!getter?.(CHANGELOG_RESOURCE_TYPE);
}

export function canCreateChangelogResource(store: ShellStore): boolean {
  return hasChangelogResources(store) && canCreate(store, CHANGELOG_RESOURCE_TYPE);
}

function plain(object: unknown): DomainObject {
  return JSON.parse(JSON.stringify(object ?? {})) as DomainObject;
}

/** The ManagedOSChangelog of a version: one that exists, else a new one. Never two per version. */
export async function findOrCreateChangelogResource(store: ShellStore, channel: { name: string; namespace: string }, osVersion: string): Promise<DomainObject> {
  const existing = async() => changelogResourceFor((await findAll(store, CHANGELOG_RESOURCE_TYPE, { force: true })).map(plain), channel.namespace, osVersion);
  const found = await existing();

  if (found) {
    return found;
  }
  try {
    return plain(await writeObject(store, CHANGELOG_RESOURCE_TYPE, newChangelogResource(channel, osVersion), 'create'));
  } catch (err) {
    // Someone created it meanwhile (the name is fixed per version): use theirs.
    if (err instanceof WriteError && err.isConflict) {
      const raced = await existing();

      if (raced) {
        return raced;
      }
    }
    throw err;
  }
}

export async function readChangelogResource(store: ShellStore, namespace: string, name: string): Promise<DomainObject> {
  return plain(await findOne(store, CHANGELOG_RESOURCE_TYPE, `${ namespace }/${ name }`, { force: true }));
}
