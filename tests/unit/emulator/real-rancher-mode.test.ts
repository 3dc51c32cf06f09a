/** @jest-environment node */
/* global beforeAll, afterAll */
// The emulator started with --no-control answers as a real Rancher: nothing under /__emulator/,
// while the Rancher endpoints the browser suite and scripts/e2e-rancher wait on still answer.
import path from 'path';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';

let running: RunningEmulator;

beforeAll(async() => {
  running = await startEmulator(parseOptions(['--port', '0', '--host', '127.0.0.1', '--scale-versions', '0', '--no-control'], {}, path.resolve(__dirname, '../../..')));
});

afterAll(async() => {
  await running.close();
});

describe('real Rancher mode (--no-control)', () => {
  it.each([
    ['GET', '/__emulator/health'],
    ['GET', '/__emulator/state'],
    ['POST', '/__emulator/reset'],
    ['POST', '/__emulator/faults'],
    ['PUT', '/__emulator/channels/x'],
    ['GET', '/__emulator/channel-files/sl-micro-6.1-base.json'],
  ])('%s %s answers 404', async(method, url) => {
    const res = await fetch(`${ running.url }${ url }`, { method, body: method === 'GET' ? undefined : '{}' });

    expect(res.status).toBe(404);
  });

  it('still serves /rancherversion and logs in (what the suite and the scripts wait on)', async() => {
    const version = await fetch(`${ running.url }/rancherversion`);

    expect(version.status).toBe(200);
    expect(await version.json()).toMatchObject({ Version: expect.stringMatching(/^v2\./) });
    const login = await fetch(`${ running.url }/v1-public/login`, {
      method:  'POST',
      headers: { 'content-type': 'application/json' },
      body:    JSON.stringify({
        username: 'admin', password: 'password1234', responseType: 'json'
      })
    });

    expect(login.status).toBe(201); // a token was created (responseType json)
  });
});
