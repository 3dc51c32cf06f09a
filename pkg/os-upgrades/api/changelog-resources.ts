// ManagedOSChangelog objects (elemental-operator PR #891, draft) through the shell's store:
// whether the cluster has the type, who may create one, and reading one as it moves.
import {
  CHANGELOG_RESOURCE_TYPE, changelogResourceFor, jsonCopy, KubeObject as DomainObject, newChangelogResource, WriteVerdict
} from '../domain';
import {
  canCreate, findAll, findOne, ShellStore, WriteError
} from './resources';
import { asIs, write } from './write';

/** A create without a clear answer: `written` is what a read afterwards showed (`notWritten` or `unknown`). */
export class UnclearCreate extends Error {
  constructor(message: string, public readonly written: WriteVerdict) {
    super(message);
    this.name = 'UnclearCreate';
  }
}

export function hasChangelogResources(store: ShellStore): boolean {
  const getter = store.getters['management/schemaFor'] as ((type: string) => unknown) | undefined;

  return !!getter?.(CHANGELOG_RESOURCE_TYPE);
}

export function canCreateChangelogResource(store: ShellStore): boolean {
  return hasChangelogResources(store) && canCreate(store, CHANGELOG_RESOURCE_TYPE);
}

/** The ManagedOSChangelog of a version: one that exists, else a new one. Never two per version. */
export async function findOrCreateChangelogResource(store: ShellStore, channel: { name: string; namespace: string }, osVersion: string): Promise<DomainObject> {
  const existing = async() => changelogResourceFor((await findAll(store, CHANGELOG_RESOURCE_TYPE, { force: true })).map(jsonCopy), channel.namespace, osVersion);
  const found = await existing();

  if (found) {
    return found;
  }
  const result = await write(store, {
    type: CHANGELOG_RESOURCE_TYPE, plan: asIs(newChangelogResource(channel, osVersion)), mode: 'create', plain: jsonCopy
  });

  switch (result.kind) {
  case 'written':
    return result.stored;
  case 'conflict':
  case 'failed':
  case 'timeout':
  case 'cancelled': {
    // Created meanwhile, by this write or someone else's (the name is fixed per version): use it.
    const written: WriteVerdict = 'written' in result ? result.written : 'other';
    const raced = written !== 'notWritten' ? await existing().catch(() => undefined) : undefined;

    if (raced) {
      return raced;
    }
    if (result.kind === 'conflict') {
      throw new WriteError(result.message, 409, 'Conflict');
    }
    throw new UnclearCreate(result.message, written);
  }
  case 'refused':
    throw new WriteError(result.reason.key, 422, 'Invalid');
  default:
    throw new WriteError(result.message, result.kind === 'forbidden' ? 403 : result.kind === 'unauthorized' ? 401 : 422, result.kind);
  }
}

export async function readChangelogResource(store: ShellStore, namespace: string, name: string): Promise<DomainObject> {
  return jsonCopy(await findOne(store, CHANGELOG_RESOURCE_TYPE, `${ namespace }/${ name }`, { force: true }));
}
