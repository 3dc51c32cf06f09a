/** @jest-environment node */
import { isRealKubePath, isRealSteveType, steveRoute } from '../../emulator/real-stack/routing';
import { downstreamIdentity } from '../../emulator/real-stack/real-stack-routes';
import { USERS, User } from '../../emulator/rancher/users';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { mergeCounts, mergeSchemas } from '../../emulator/real-stack/proxy';
import { realStackEndpoints } from '../../emulator/real-stack/endpoints';
import { parseOptions } from '../../emulator/core/options';

describe('--backend real-stack: which requests the real stack answers', () => {
  it('sends the Elemental, Fleet, SUC, core and Kubernetes types to real Steve and keeps Rancher\'s own', () => {
    for (const id of ['elemental.cattle.io.managedosversionchannel', 'elemental.cattle.io.managedosversions', 'fleet.cattle.io.bundle',
      'upgrade.cattle.io.plan', 'namespace', 'namespaces', 'node', 'pod', 'batch.job', 'apps.deployment']) {
      expect([id, isRealSteveType(id)]).toEqual([id, true]);
    }
    for (const id of ['management.cattle.io.setting', 'management.cattle.io.clusters', 'provisioning.cattle.io.cluster', 'catalog.cattle.io.app',
      'ext.cattle.io.selfuser', 'schema', 'schemas', 'count', 'counts', 'userpreference', 'userpreferences']) {
      expect([id, isRealSteveType(id)]).toEqual([id, false]);
    }
  });

  it('routes a /v1 path by the type it names, and merges the lists that name every type', () => {
    expect(steveRoute('/v1/elemental.cattle.io.managedosversions/fleet-default/a')).toBe('real');
    expect(steveRoute('/v1/management.cattle.io.settings/ui-brand')).toBe('emulator');
    expect(steveRoute('/v1/schemas')).toBe('merge');
    expect(steveRoute('/v1/counts')).toBe('merge');
    expect(steveRoute('/v1/schemas/elemental.cattle.io.managedosimage')).toBe('real');
    expect(steveRoute('/v1/schemas/management.cattle.io.setting')).toBe('emulator');
    expect(steveRoute('/v1/schemaDefinitions/fleet.cattle.io.bundle')).toBe('real');
    expect(steveRoute('/v1/userpreferences')).toBe('emulator');
  });

  it('sends /api and the stack\'s /apis groups to the API server, not Rancher\'s groups or discovery', () => {
    expect(isRealKubePath('/api/v1/namespaces')).toBe(true);
    expect(isRealKubePath('/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages')).toBe(true);
    expect(isRealKubePath('/apis/batch/v1/jobs')).toBe(true);
    expect(isRealKubePath('/apis/management.cattle.io/v3/settings')).toBe(false);
    expect(isRealKubePath('/apis')).toBe(false);
  });

  it('merges the schema list: the emulator\'s schemas of its types, real Steve\'s of the stack\'s', () => {
    const emulated = { type: 'collection', data: [{ id: 'management.cattle.io.setting' }, { id: 'elemental.cattle.io.managedosimage', collectionMethods: ['GET', 'POST'] }] };
    const real = { type: 'collection', data: [{ id: 'elemental.cattle.io.managedosimage', collectionMethods: ['GET'] }, { id: 'namespace' }, { id: 'management.cattle.io.setting', fromReal: true }] };

    expect(mergeSchemas(emulated, real).data).toEqual([
      { id: 'elemental.cattle.io.managedosimage', collectionMethods: ['GET'] }, { id: 'management.cattle.io.setting' }, { id: 'namespace' },
    ]);
  });

  it('merges the counts the same way, in a collection and as the count object', () => {
    const emulated = { id: 'count', counts: { 'management.cattle.io.setting': { summary: { count: 3 } }, 'elemental.cattle.io.managedosversion': { summary: { count: 600 } } } };
    const real = { data: [{ id: 'count', counts: { 'elemental.cattle.io.managedosversion': { summary: { count: 6 } }, 'management.cattle.io.setting': { summary: { count: 0 } } } }] };

    expect(mergeCounts(emulated, real).counts).toEqual({ 'management.cattle.io.setting': { summary: { count: 3 } }, 'elemental.cattle.io.managedosversion': { summary: { count: 6 } } });
    expect(mergeCounts({ data: [emulated] }, real)).toEqual({ data: [{ ...emulated, counts: mergeCounts(emulated, real).counts }] });
  });

  it('takes --backend real-stack and its downstream clusters, and refuses another backend', () => {
    expect(parseOptions([], {})).toMatchObject({ backend: 'emulator', realStackDownstream: [] });
    expect(parseOptions(['--backend', 'real-stack', '--real-stack-downstream', 'c-m-1, c-m-2'], {})).toMatchObject({ backend: 'real-stack', realStackDownstream: ['c-m-1', 'c-m-2'] });
    expect(() => parseOptions(['--backend', 'rancher'], {})).toThrow('--backend must be emulator or real-stack');
  });

  it('reads the endpoints scripts/real-stack/up wrote, and only on loopback', () => {
    const dir = mkdtempSync(join(tmpdir(), 'real-stack-'));

    writeFileSync(join(dir, 'endpoints.env'), 'REAL_STACK_KUBE_API=https://127.0.0.1:9933\nREAL_STACK_STEVE=https://127.0.0.1:9936/\n');
    expect(realStackEndpoints({ REAL_STACK_DIR: dir }, '/nowhere')).toEqual({
      steve: 'https://127.0.0.1:9936', kubeApi: 'https://127.0.0.1:9933', adminToken: 'real-stack-admin'
    });
    expect(() => realStackEndpoints({ REAL_STACK_DIR: dir, REAL_STACK_STEVE: 'https://steve.example.com' }, '/nowhere')).toThrow('loopback');
    expect(() => realStackEndpoints({ REAL_STACK_DIR: join(dir, 'none') }, '/nowhere')).toThrow('scripts/real-stack/up');
  });
});

describe('--backend real-stack: who a user is in a stand-in downstream cluster', () => {
  it('passes a user whose rights differ downstream as its own identity there, every other user as itself', () => {
    const member = USERS.find((u) => u.username === 'member') as User;
    const viewer = USERS.find((u) => u.username === 'viewer') as User;

    expect(downstreamIdentity(member).id).toBe('downstream:u-m3b9r');
    expect(downstreamIdentity(viewer)).toBe(viewer);
  });
});
