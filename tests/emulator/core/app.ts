// Wires the emulated systems together (rancher/rancher, rancher/steve, rancher/elemental-operator, rancher/fleet); each module cites the real file it imitates.
// Builds and starts an emulator from options: used by main.ts and by tests that run one in-process.

import { Emulator } from './emulator';
import { REPO_ROOT, loadFixtureDirs } from '../data/fixtures';
import { EmulatorOptions } from './options';
import { HttpsListener, listenHttps } from './https';
import { scaleChannels } from '../data/scale-channel';
import { scaleClusters, scalePools } from '../data/scale-fleet';
import { EmulatorServer } from './server';
import { DashboardUi, PluginShelf } from '../rancher/static';
import { realStackEndpoints } from '../real-stack/endpoints';
import { startStackDownstream } from '../real-stack/stack-downstream';
import { RealStackProxy } from '../real-stack/proxy';
import { RealStackRoutes } from '../real-stack/real-stack-routes';
import { requestLog } from './request-log';

export interface RunningEmulator {
  emulator: Emulator;
  server: EmulatorServer;
  url: string;
  /** The TLS listener's URL (`--https-port`), when there is one. */
  httpsUrl?: string;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  requestLog.open(options.requestLog);
  const fixtures = loadFixtureDirs(options.fixtureDirs);
  const ui = options.uiDir ? new DashboardUi(options.uiDir) : undefined;
  const plugins = options.pluginsDir ? new PluginShelf(options.pluginsDir, REPO_ROOT) : undefined;

  await plugins?.load();
  const stack = options.backend === 'real-stack' ? realStackEndpoints(process.env, REPO_ROOT) : undefined;
  const generated = scaleChannels(options.scaleVersions, options.scaleChannels);
  const emulator = new Emulator({
    fixtures: {
      ...fixtures,
      seed: [...fixtures.seed, ...scaleClusters(options.scaleClusters), ...scalePools(options.scalePools, generated, options.scaleClusters)],
    },
    generated,
    origin:              `http://localhost:${ options.port }`,
    timeScale:           options.timeScale,
    sqlCache:            options.sqlCache,
    retryBaseMs:         options.retryBaseMs,
    rolloutStepMs:       options.rolloutStepMs,
    changelogMode:       options.changelogMode,
    changelogPodStartMs: options.changelogPodStartMs,
    elemental:           options.elemental,
    pingMs:              options.pingMs,
    serverVersion:       options.rancher.serverVersion,
    remoteKube:          stack ? { url: stack.kubeApi, token: stack.adminToken } : undefined,
  });
  const server = new EmulatorServer(emulator, {
    ui,
    plugins,
    pingMs:    options.pingMs,
    logErrors: options.logErrors,
    control:   options.control,
    rancher:   options.rancher,
    realStack: stack ? new RealStackRoutes(new RealStackProxy(stack), options.realStackDownstream) : undefined,
  });

  await emulator.start();
  const downstream = stack && options.realStackDownstream.length ? await startStackDownstream({ url: stack.kubeApi, token: stack.adminToken }, options.realStackDownstream, emulator.nodes, (id) => {
    const fleet = emulator.api.list(emulator.types.require('fleet.cattle.io.cluster')).items.find((c) => c.metadata.labels?.['management.cattle.io/cluster-name'] === id);

    return fleet && { namespace: fleet.metadata.namespace ?? '', name: fleet.metadata.name };
  }) : undefined;

  await server.listen(options.port, options.host);
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const https: HttpsListener | undefined = options.httpsPort ? await listenHttps(server, options.httpsPort, options.host) : undefined;

  return {
    emulator,
    server,
    url:      `http://localhost:${ port }`,
    httpsUrl: https ? `https://localhost:${ https.port }` : undefined,
    close:    async() => {
      emulator.stop();
      downstream?.stop();
      await Promise.all([server.close(), https?.close()]);
    },
  };
}
