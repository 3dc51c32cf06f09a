/** @jest-environment node */
/* global beforeAll, afterAll */
import http2 from 'http2';
import https from 'https';
import path from 'path';
import { RunningEmulator, startEmulator } from '../../emulator/core/app';
import { parseOptions } from '../../emulator/core/options';
import { SCALE_CHANNEL, scaleChannel, scaleChannels } from '../../emulator/data/scale-channel';
import { scaleClusters, scalePools } from '../../emulator/data/scale-fleet';

const VERSIONS = 'elemental.cattle.io.managedosversions';
const CHANNEL_LABEL = 'elemental.cattle.io/channel';

describe('scale options', () => {
  it('spreads the versions over the channels, the first one being the scale channel', () => {
    const channels = scaleChannels(2003, 4);

    expect(channels.map((c) => c.name)).toEqual([SCALE_CHANNEL, 'sl-micro-6.0-kvm-scale', 'sl-micro-6.0-rt-scale', 'sl-micro-6.0-baremetal-scale']);
    expect(channels.map((c) => c.entries.length)).toEqual([503, 500, 500, 500]);
    expect(scaleChannels(600, 1)[0].entries).toEqual(scaleChannel(600).entries);
    const names = channels.flatMap((c) => c.entries.map((e) => e.metadata.name));

    expect(new Set(names).size).toBe(2003);
    const kvm = channels[1];
    const newest = kvm.entries[0].metadata.name;

    expect(newest).toBe('scale-kvm-6.0-v2.2.0-7.500-os');
    expect(kvm.packages(newest)).toContain('|');
    expect(kvm.changelog('scale-kvm-6.0-v2.2.0-7.3-os')).toContain('"id"');
    expect(kvm.changelog('scale-kvm-6.0-v2.2.0-7.50-os')).toBeUndefined();
    // Each channel answers only for its own versions.
    expect(kvm.packages('scale-v2.2.0-7.1-os')).toBeUndefined();
    expect(channels[0].packages(newest)).toBeUndefined();
    expect(scaleChannels(0, 40)).toEqual([]);
  });

  it('serves a version the same files however many others were asked for in between', () => {
    const [channel] = scaleChannels(3000, 1);
    const first = channel.entries[channel.entries.length - 1].metadata.name;
    const log = channel.changelog(first);
    const packages = channel.packages(first);

    expect(channel.packages(first)).toBe(packages);
    // More logs than it keeps made, so the first one is made again.
    channel.entries.forEach((entry) => channel.changelog(entry.metadata.name));
    expect(channel.changelog(first)).toBe(log);
    expect(scaleChannels(3000, 1)[0].changelog(first)).toBe(log);
  });

  it('generates clusters and pools that point at existing versions and clusters', () => {
    const channels = scaleChannels(400, 4);
    const clusters = scaleClusters(10);
    const pools = scalePools(20, channels, 10);
    const versionNames = new Set(channels.flatMap((c) => c.entries.map((e) => e.metadata.name)));
    const clusterNames = new Set(clusters.map((c) => (c.metadata as { name: string }).name));

    expect(clusters).toHaveLength(10);
    expect(pools).toHaveLength(20);
    for (const pool of pools) {
      const spec = pool.spec as { managedOSVersionName: string; clusterTargets: { clusterName?: string }[] };

      expect(versionNames.has(spec.managedOSVersionName)).toBe(true);
      if (spec.clusterTargets[0].clusterName) {
        expect(clusterNames.has(spec.clusterTargets[0].clusterName)).toBe(true);
      }
    }
    expect(pools.filter((p) => (p.metadata as { annotations?: object }).annotations)).toHaveLength(10);
  });

  it('reads the scale and TLS flags', () => {
    const options = parseOptions(['--scale-versions', '20000', '--scale-channels', '40', '--scale-pools', '200', '--scale-clusters', '50', '--https-port', '8443'], {});

    expect(options).toMatchObject({
      scaleVersions: 20000, scaleChannels: 40, scalePools: 200, scaleClusters: 50, httpsPort: 8443
    });
    expect(parseOptions([], {})).toMatchObject({
      scaleVersions: 600, scaleChannels: 1, scalePools: 0, scaleClusters: 0, httpsPort: 0
    });
  });
});

describe('a scaled emulator over TLS', () => {
  let running: RunningEmulator;
  let token = '';

  beforeAll(async() => {
    const options = parseOptions([
      '--port', '0', '--https-port', '0', '--host', '127.0.0.1', '--scale-versions', '120', '--scale-channels', '3', '--scale-pools', '6', '--scale-clusters', '4', '--time-scale', '0', '--rollout-step-ms', '20'
    ], {}, path.resolve(__dirname, '../../..'));

    // Port 0 means "off" for TLS: ask for a free port instead.
    running = await startEmulator({ ...options, httpsPort: await freePort() });
    const login = await fetch(`${ running.url }/v1-public/login`, {
      method:  'POST',
      headers: { 'content-type': 'application/json' },
      body:    JSON.stringify({
        type: 'localProvider', username: 'admin', password: 'password1234', responseType: 'json'
      }),
    });

    token = (await login.json() as { token: string }).token;
  }, 60000);

  afterAll(async() => {
    await running.close();
  });

  it('seeds the generated channels, pools and clusters', async() => {
    const list = async(type: string, query = '') => (await (await fetch(`${ running.url }/v1/${ type }${ query }`, { headers: { authorization: `Bearer ${ token }` } })).json()) as { count: number; data: { metadata: { name: string } }[] };

    expect((await list('elemental.cattle.io.managedosversionchannels')).data.map((c) => c.metadata.name)).toEqual(expect.arrayContaining([SCALE_CHANNEL, 'sl-micro-6.0-kvm-scale', 'sl-micro-6.0-rt-scale']));
    expect((await list(VERSIONS, `?labelSelector=${ CHANNEL_LABEL }=sl-micro-6.0-rt-scale`)).count).toBe(40);
    expect((await list(VERSIONS, `?filter=metadata.labels[${ CHANNEL_LABEL }]=sl-micro-6.0-kvm-scale&pagesize=5`)).data).toHaveLength(5);
    expect((await list('elemental.cattle.io.managedosimages')).data.filter((p) => p.metadata.name.startsWith('scale-pool-'))).toHaveLength(6);
    expect((await list('fleet.cattle.io.clusters')).data.filter((c) => c.metadata.name.startsWith('scale-cluster-'))).toHaveLength(4);
  });

  it('answers HTTP/2 and HTTP/1.1 on the TLS port, with the session cookie marked Secure', async() => {
    const origin = running.httpsUrl ?? '';
    const client = http2.connect(origin, { rejectUnauthorized: false });
    const h2 = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = client.request({ ':path': '/rancherversion' });
      let body = '';
      let status = 0;

      req.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => resolve({ status, body }));
      req.on('error', reject);
    });

    client.close();
    expect(h2.status).toBe(200);
    expect(JSON.parse(h2.body)).toMatchObject({ Version: 'v2.15.0' });
    const h1 = await new Promise<{ status: number; cookies: string[] }>((resolve, reject) => {
      const req = https.request(`${ origin }/v1-public/login`, {
        method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' }
      }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cookies: res.headers['set-cookie'] ?? [] }));
      });

      req.on('error', reject);
      req.end(JSON.stringify({
        type: 'localProvider', username: 'admin', password: 'password1234', responseType: 'cookie'
      }));
    });

    expect(h1.status).toBe(200);
    expect(h1.cookies.find((c) => c.startsWith('R_SESS='))).toMatch(/; Secure/);
  });
});

async function freePort(): Promise<number> {
  const net = await import('net');

  return new Promise((resolve) => {
    const server = net.createServer();

    server.listen(0, '127.0.0.1', () => {
      const address = server.address();

      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
