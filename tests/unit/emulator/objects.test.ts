/** @jest-environment node */
import { objectApi, thrown } from './helpers';
import { parseLabelSelector } from '../../emulator/kube/labels';
import { SYSTEM_ACTOR, USERS, userActor } from '../../emulator/rancher/users';

const admin = userActor(USERS[0]);
const viewer = userActor(USERS[1]);

function setup() {
  const { api, registry } = objectApi();

  return {
    api, image: registry.require('elemental.cattle.io.managedosimage'), channel: registry.require('elemental.cattle.io.managedosversionchannel'), version: registry.require('elemental.cattle.io.managedosversion')
  };
}

describe('object semantics', () => {
  it('creates with generateName, uid, creationTimestamp, resourceVersion, generation; drops status', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', {
      metadata: { generateName: 'pool-' }, spec: { osImage: 'x' }, status: { conditions: [] }
    }, admin);

    expect(created.metadata.name).toMatch(/^pool-[a-z0-9]{5}$/);
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toMatch(/Z$/);
    expect(created.metadata.generation).toBe(1);
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.apiVersion).toBe('elemental.cattle.io/v1beta1');
    expect(created.status).toBeUndefined();
  });

  it('answers 409 AlreadyExists, 404 NotFound, 404 for a missing namespace', () => {
    const { api, image } = setup();

    api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin);
    expect(thrown(() => api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin)).reason).toBe('AlreadyExists');
    expect(thrown(() => api.get(image, 'fleet-default', 'nope')).toStatus()).toMatchObject({
      code: 404, reason: 'NotFound', message: 'managedosimages.elemental.cattle.io "nope" not found'
    });
    expect(thrown(() => api.create(image, 'nowhere', { metadata: { name: 'p' }, spec: {} }, admin)).message).toBe('namespaces "nowhere" not found');
  });

  it('answers 409 Conflict on a stale resourceVersion, and requires one for custom resources', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin);
    const updated = api.update(image, 'fleet-default', 'p', { ...created, spec: { osImage: 'y' } }, admin);

    expect(updated.metadata.generation).toBe(2);
    const error = thrown(() => api.update(image, 'fleet-default', 'p', { ...created, spec: { osImage: 'z' } }, admin));

    expect(error.toStatus()).toMatchObject({
      code:    409,
      reason:  'Conflict',
      details: {
        name: 'p', group: 'elemental.cattle.io', kind: 'managedosimages'
      }
    });
    expect(error.toSteve()).toMatchObject({
      type: 'error', code: 'Conflict', status: 409
    });
    const { resourceVersion: _rv, ...withoutVersion } = updated.metadata;

    expect(thrown(() => api.update(image, 'fleet-default', 'p', { ...updated, metadata: withoutVersion }, admin)).status).toBe(422);
  });

  it('answers 403 for the viewer\'s writes, with Kubernetes\' Forbidden (Steve passes it through)', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin);
    const error = thrown(() => api.update(image, 'fleet-default', 'p', created, viewer));

    expect(error.toStatus()).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(error.message).toBe('managedosimages.elemental.cattle.io "p" is forbidden: User "u-8mx2p" cannot update resource "managedosimages" in API group "elemental.cattle.io" in the namespace "fleet-default"');
    // rancher/steve pkg/stores/proxy/error_wrapper.go: the Status reason becomes the code, its message the message.
    expect(error.toSteve()).toEqual({
      type: 'error', code: 'Forbidden', message: error.message, status: 403
    });
    expect(thrown(() => api.create(image, 'fleet-default', { metadata: { name: 'q' } }, viewer)).status).toBe(403);
    expect(thrown(() => api.delete(image, 'fleet-default', 'p', viewer)).status).toBe(403);
    expect(api.get(image, 'fleet-default', 'p').metadata.name).toBe('p');
  });

  it('answers 422 Invalid with causes, and stores nothing', () => {
    const { api, image } = setup();
    const error = thrown(() => api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { concurrency: 'abc' } }, admin));

    expect(error.toStatus()).toMatchObject({
      code:    422,
      reason:  'Invalid',
      message: 'ManagedOSImage.elemental.cattle.io "p" is invalid: spec.concurrency: Invalid value: "string": spec.concurrency in body must be of type integer: "string"',
      details: { causes: [{ field: 'spec.concurrency', reason: 'FieldValueInvalid' }] },
    });
    expect(api.find(image, 'fleet-default', 'p')).toBeUndefined();
  });

  it('keeps the status on writes to the object and the spec on writes to the status', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin);
    const withStatus = api.update(image, 'fleet-default', 'p', {
      ...created, spec: { osImage: 'ignored' }, status: { conditions: [] }
    }, SYSTEM_ACTOR, 'status');

    expect(withStatus.spec).toMatchObject({ osImage: 'x' });
    expect(withStatus.metadata.generation).toBe(1);
    const respec = api.update(image, 'fleet-default', 'p', {
      ...withStatus, spec: { osImage: 'y' }, status: { bogus: true }
    }, admin);

    expect(respec.status).toEqual({ conditions: [] });
    expect(respec.metadata.generation).toBe(2);
  });

  it('does not bump the resourceVersion for a no-op update', () => {
    const { api, image } = setup();
    const created = api.create(image, 'fleet-default', { metadata: { name: 'p' }, spec: { osImage: 'x' } }, admin);

    expect(api.update(image, 'fleet-default', 'p', created, admin).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('patches with merge and JSON patches; strategic merge is refused for custom resources', () => {
    const { api, image } = setup();

    api.create(image, 'fleet-default', { metadata: { name: 'p', labels: { a: '1' } }, spec: { osImage: 'x', concurrency: 1 } }, admin);
    const merged = api.patch(image, 'fleet-default', 'p', { metadata: { labels: { a: null, b: '2' } }, spec: { concurrency: 3 } }, 'merge', admin);

    expect(merged.metadata.labels).toEqual({ b: '2' });
    expect(merged.spec).toMatchObject({ osImage: 'x', concurrency: 3 });
    const patched = api.patch(image, 'fleet-default', 'p', [{
      op: 'replace', path: '/spec/osImage', value: 'y'
    }], 'json', admin);

    expect(patched.spec).toMatchObject({ osImage: 'y' });
    expect(thrown(() => api.patch(image, 'fleet-default', 'p', {}, 'strategic', admin)).status).toBe(415);
    expect(thrown(() => api.patch(image, 'fleet-default', 'p', { metadata: { resourceVersion: '1' } }, 'merge', admin)).reason).toBe('Conflict');
  });

  it('lists by namespace and label selector, in etcd order', () => {
    const { api, version } = setup();

    for (const [name, channel] of [['b', 'one'], ['a', 'one'], ['c', 'two']]) {
      api.create(version, 'fleet-default', { metadata: { name, labels: { 'elemental.cattle.io/channel': channel } }, spec: {} }, admin);
    }
    const { items } = api.list(version, { namespace: 'fleet-default', labelSelector: parseLabelSelector('elemental.cattle.io/channel=one') });

    expect(items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(api.list(version, { labelSelector: parseLabelSelector('elemental.cattle.io/channel notin (one)') }).items.map((o) => o.metadata.name)).toEqual(['c']);
  });

  it('garbage-collects the dependents of a deleted owner', async() => {
    const { api, channel, version } = setup();
    const owner = api.create(channel, 'fleet-default', { metadata: { name: 'ch' }, spec: { type: 'json' } }, admin);

    api.create(version, 'fleet-default', {
      metadata: {
        name:            'v',
        ownerReferences: [{
          apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: 'ch', uid: owner.metadata.uid, controller: true
        }]
      },
      spec: {},
    }, admin);
    api.create(version, 'fleet-default', { metadata: { name: 'orphan' }, spec: {} }, admin);
    api.delete(channel, 'fleet-default', 'ch', admin);
    await new Promise((resolve) => setImmediate(resolve));
    expect(api.list(version).items.map((o) => o.metadata.name)).toEqual(['orphan']);
  });
});
