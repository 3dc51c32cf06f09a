/** @jest-environment node */
/* global beforeAll, afterAll */
// --elemental none|<version>: a Rancher without the operator serves no elemental.cattle.io type
// (Steve: no schema, 404 for the type); an operator's Metadata names its version; an older
// operator's channel CRD prunes the fields it does not know.
import path from 'path';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';
import { parseElementalInstall } from '../../emulator/operator/elemental-install';
import { SYSTEM_ACTOR } from '../../emulator/rancher/users';

let running: RunningEmulator;
let cookie = '';

async function login(): Promise<string> {
  const res = await fetch(`${ running.url }/v1-public/login`, {
    method:  'POST',
    headers: { 'content-type': 'application/json' },
    body:    JSON.stringify({
      username: 'admin', password: 'password1234', responseType: 'cookie'
    }),
  });

  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

async function get(url: string): Promise<Response> {
  return await fetch(`${ running.url }${ url }`, { headers: { cookie } });
}

async function install(version: string): Promise<void> {
  const res = await fetch(`${ running.url }/__emulator/elemental`, { method: 'PUT', body: JSON.stringify({ version }) });

  expect(res.status).toBe(200);
}

async function schemaIds(): Promise<string[]> {
  const body = await (await get('/v1/schemas')).json() as { data: { id: string }[] };

  return body.data.map((s) => s.id);
}

beforeAll(async() => {
  running = await startEmulator(parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', '--elemental', 'none'], {}, path.resolve(__dirname, '../../..')));
  cookie = await login();
});

afterAll(async() => {
  await running.close();
});

describe('--elemental', () => {
  it('reads none, a minor version, a patch version; refuses anything else', () => {
    expect(parseElementalInstall('none')).toEqual({ installed: false });
    expect(parseElementalInstall('1.7')).toEqual({ installed: true, version: '1.7.0' });
    expect(parseElementalInstall('v1.6.2')).toEqual({ installed: true, version: '1.6.2' });
    expect(parseElementalInstall(undefined).installed).toBe(true);
    expect(() => parseElementalInstall('latest')).toThrow(/--elemental/);
  });

  it('none: no elemental schema, 404 for the types, both in Steve and the Kubernetes API', async() => {
    await install('none');
    const ids = await schemaIds();

    expect(ids.filter((id) => id.startsWith('elemental.cattle.io'))).toEqual([]);
    expect(ids).toContain('fleet.cattle.io.cluster');
    expect((await get('/v1/elemental.cattle.io.managedosimages')).status).toBe(404);
    expect((await get('/v1/schemas/elemental.cattle.io.managedosimage')).status).toBe(404);
    expect((await get('/apis/elemental.cattle.io/v1beta1/managedosimages')).status).toBe(404);
  });

  it('a version: the types are served and the chart\'s Metadata names it', async() => {
    await install('1.7.5');
    expect(await schemaIds()).toEqual(expect.arrayContaining(['elemental.cattle.io.managedosimage', 'elemental.cattle.io.metadata']));
    const metadata = await (await get('/v1/elemental.cattle.io.metadata/cattle-elemental-system/elemental-operator')).json() as { spec: { appVersion: string } };

    expect(metadata.spec.appVersion).toBe('1.7.5');
  });

  it('an operator before 1.6.2 has no Metadata; before 1.7 its channels lose enabled and registry', async() => {
    await install('1.6.0');
    expect((await get('/v1/elemental.cattle.io.metadata/cattle-elemental-system/elemental-operator')).status).toBe(404);
    const created = running.emulator.api.create(running.emulator.types.require('elemental.cattle.io.managedosversionchannel'), 'fleet-default', {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersionChannel',
      metadata:   { name: 'old-operator' },
      spec:       {
        type: 'json', enabled: false, registry: 'r.example', deleteNoLongerInSyncVersions: true, options: {}
      },
    }, SYSTEM_ACTOR);

    expect(created.spec).not.toHaveProperty('enabled');
    expect(created.spec).not.toHaveProperty('registry');
    expect(created.spec).not.toHaveProperty('deleteNoLongerInSyncVersions');
  });
});
