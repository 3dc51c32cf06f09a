// Builds and starts an emulator from options: used by main.ts and by tests that run one in-process.

import { Emulator } from './emulator';
import { REPO_ROOT, loadFixtureDirs } from './fixtures';
import { EmulatorOptions } from './options';
import { scaleChannel } from './scale-channel';
import { EmulatorServer } from './server';
import { DashboardUi, PluginShelf } from './static';

export interface RunningEmulator {
  emulator: Emulator;
  server: EmulatorServer;
  url: string;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const fixtures = loadFixtureDirs(options.fixtureDirs);
  const ui = options.uiDir ? new DashboardUi(options.uiDir) : undefined;
  const plugins = options.pluginsDir ? new PluginShelf(options.pluginsDir, REPO_ROOT) : undefined;

  await plugins?.load();
  const emulator = new Emulator({
    fixtures,
    generated:     options.scaleVersions > 0 ? [scaleChannel(options.scaleVersions)] : [],
    origin:        `http://localhost:${ options.port }`,
    timeScale:     options.timeScale,
    sqlCache:      options.sqlCache,
    retryBaseMs:   options.retryBaseMs,
    rolloutStepMs: options.rolloutStepMs,
  });
  const server = new EmulatorServer(emulator, {
    ui, plugins, pingMs: options.pingMs, logErrors: options.logErrors, control: options.control
  });

  await emulator.start();
  await server.listen(options.port, options.host);
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    emulator,
    server,
    url:   `http://localhost:${ port }`,
    close: async() => {
      emulator.stop();
      await server.close();
    },
  };
}
