import fc from 'fast-check';
import { creatableNamespaces, mayUpdate, objectRights } from '../index';

const IMAGE = 'elemental.cattle.io.managedosimage';
const self = 'https://rancher.example.test/v1/elemental.cattle.io.managedosimages/fleet-default/p';

describe('objectRights / mayUpdate', () => {
  it('reads the writes Steve offers from the object\'s links', () => {
    expect(objectRights({
      links: {
        self, update: self, remove: self, patch: self, view: '/apis/…'
      }
    })).toEqual({
      update: true, remove: true, patch: true
    });
    // A pool in a namespace the user may only read: Steve leaves self and view only.
    expect(objectRights({ links: { self, view: '/apis/…' } })).toEqual({
      update: false, remove: false, patch: false
    });
  });

  it('refuses Steve\'s "blocked" links and objects without links', () => {
    expect(mayUpdate({ links: { update: 'blocked' } })).toBe(false);
    expect(mayUpdate({ metadata: { name: 'p' } })).toBe(false);
    expect(mayUpdate(undefined)).toBe(false);
    expect(mayUpdate({ links: { update: '' } })).toBe(false);
  });

  it('never throws, and grants update only with an update link', () => {
    fc.assert(fc.property(fc.anything(), (value) => {
      const rights = objectRights(value);

      return typeof rights.update === 'boolean' && (!rights.update || typeof (value as { links: { update: unknown } }).links.update === 'string');
    }));
  });
});

describe('creatableNamespaces', () => {
  const ns = (name: string, verbs: string[]) => ({ metadata: { name }, resourcePermissions: { [IMAGE]: Object.fromEntries(verbs.map((v) => [v, `/apis/elemental.cattle.io/v1beta1/namespaces/${ name }/managedosimages`])) } });

  it('lists the namespaces whose checkPermissions answer grants create, sorted', () => {
    expect(creatableNamespaces([
      ns('fleet-local', ['get', 'list', 'watch']),
      ns('fleet-default', ['create', 'update', 'get']),
      ns('a-team', ['create']),
      { metadata: { name: 'plain' } },
    ], IMAGE)).toEqual(['a-team', 'fleet-default']);
  });

  it('ignores other types\' permissions and broken entries', () => {
    expect(creatableNamespaces([
      { metadata: { name: 'x' }, resourcePermissions: { other: { create: '/x' } } },
      null,
      { resourcePermissions: { [IMAGE]: { create: '/y' } } },
    ], IMAGE)).toEqual([]);
  });
});
