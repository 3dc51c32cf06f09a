/** @jest-environment node */
// Steve's metadata.relationships on an owner: one `toId` entry per object it owns, and none when a
// list asks `exclude=metadata.relationships` (rancher/steve pkg/summarycache/summarycache.go,
// pkg/resources/common/formatter.go excludeFields).
import { excludeFields, toSteve } from '../../emulator/steve/steve-format';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';
import { objectApi } from './helpers';

function setup() {
  const { api, registry } = objectApi();
  const channelType = registry.require('elemental.cattle.io.managedosversionchannel');
  const versionType = registry.require('elemental.cattle.io.managedosversion');
  const channel = api.create(channelType, 'fleet-default', { metadata: { name: 'base' }, spec: { type: 'json' } }, SYSTEM_ACTOR);
  const owned = (name: string) => api.create(versionType, 'fleet-default', {
    metadata: {
      name,
      ownerReferences: [{
        apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: 'base', uid: channel.metadata.uid
      }],
    },
    spec: { version: name, type: 'container' },
  }, SYSTEM_ACTOR);
  const present = () => toSteve(channelType, api.store.sharedOne(channelType.id, 'fleet-default', 'base')!, 'https://x', SYSTEM_ACTOR, { ownedBy: (uid) => api.store.sharedOwnedBy(uid) });
  const relationships = (object: Record<string, unknown>) => (object.metadata as { relationships?: Record<string, unknown>[] }).relationships;

  return {
    api, versionType, owned, present, relationships
  };
}

describe('Steve relationships of an owner', () => {
  it('lists each owned object by id and type, with its state, and follows creates and deletes', () => {
    const {
      api, versionType, owned, present, relationships
    } = setup();

    owned('v1');
    owned('v2');
    expect(relationships(present())).toEqual([
      expect.objectContaining({
        toId: 'fleet-default/v1', toType: 'elemental.cattle.io.managedosversion', rel: 'owner', state: 'active'
      }),
      expect.objectContaining({
        toId: 'fleet-default/v2', toType: 'elemental.cattle.io.managedosversion', rel: 'owner', state: 'active'
      }),
    ]);
    api.delete(versionType, 'fleet-default', 'v1', SYSTEM_ACTOR);
    expect(relationships(present())?.map((rel) => rel.toId)).toEqual(['fleet-default/v2']);
  });

  it('leaves them out when the request excludes metadata.relationships, and keeps the rest', () => {
    const { owned, present, relationships } = setup();

    owned('v1');
    const shown = excludeFields(present(), ['metadata.managedFields', 'metadata.relationships']);

    expect(relationships(shown)).toBeUndefined();
    expect((shown.metadata as { name: string }).name).toBe('base');
    expect(shown.spec).toMatchObject({ type: 'json' });
  });
});
