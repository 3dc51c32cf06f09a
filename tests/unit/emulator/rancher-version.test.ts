/** @jest-environment node */
/* global beforeAll, afterAll */
// --rancher-version: the emulator imitates what that Rancher minor serves where minors differ
// (tests/emulator/rancher/rancher-version.ts names each source).
import path from 'path';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';
import { parseRancherVersion } from '../../emulator/rancher/rancher-version';

const ROOT = path.resolve(__dirname, '../../..');
const CREDENTIALS = JSON.stringify({
  username: 'admin', password: 'password1234', responseType: 'cookie'
});

function start(args: string[]): Promise<RunningEmulator> {
  return startEmulator(parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', ...args], {}, ROOT));
}

function post(running: RunningEmulator, url: string): Promise<Response> {
  return fetch(`${ running.url }${ url }`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: CREDENTIALS
  });
}

describe.each([
  ['2.12', false],
  ['2.15', true],
])('the emulator as Rancher %s', (minor, v1Public) => {
  let running: RunningEmulator;

  beforeAll(async() => {
    running = await start(['--rancher-version', minor]);
  });

  afterAll(async() => {
    await running.close();
  });

  it('logs in through /v3-public/localProviders/local?action=login, which every minor serves', async() => {
    const login = await post(running, '/v3-public/localProviders/local?action=login');

    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toContain('R_SESS=');
  });

  it(`${ v1Public ? 'logs in' : 'does not log in' } through /v1-public/login`, async() => {
    const login = await post(running, '/v1-public/login');

    expect(login.status === 200).toBe(v1Public);
    expect((login.headers.get('set-cookie') ?? '').includes('R_SESS=')).toBe(v1Public);
  });

  it('says its version in /rancherversion and the server-version setting', async() => {
    const version = await (await fetch(`${ running.url }/rancherversion`)).json();
    const setting = await (await fetch(`${ running.url }/v1/management.cattle.io.settings/server-version`)).json();

    expect(version.Version).toBe(`v${ minor }.0`);
    expect(setting.value).toBe(`v${ minor }.0`);
  });
});

describe('parseRancherVersion', () => {
  it('takes a minor or a release, with or without the v', () => {
    expect(parseRancherVersion('2.12')).toMatchObject({
      minor: '2.12', serverVersion: 'v2.12.0', v1Public: false
    });
    expect(parseRancherVersion('v2.12.12')).toMatchObject({ minor: '2.12', serverVersion: 'v2.12.12' });
    expect(parseRancherVersion('2.13')).toMatchObject({ v1Public: true, extTypes: true });
    expect(parseRancherVersion(undefined)).toMatchObject({ minor: '2.15', v1Public: true });
  });

  it('refuses a Rancher older than the package declares, and what is not a version', () => {
    expect(() => parseRancherVersion('2.11')).toThrow(/2\.12 or newer/);
    expect(() => parseRancherVersion('latest')).toThrow(/rancher-version/);
  });
});
