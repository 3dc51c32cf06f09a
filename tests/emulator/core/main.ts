// Starts the emulator (see docs/emulator.md); what it serves imitates rancher/rancher, rancher/steve and rancher/elemental-operator.
// Entry point: `yarn emulator [options]` (see options.ts and docs/emulator.md).

import { startEmulator } from './app';
import { USAGE, parseOptions } from './options';
import { userBanner } from '../rancher/users';

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);

    return;
  }
  const options = parseOptions(process.argv.slice(2), process.env);
  const running = await startEmulator(options);
  const log = (line: string) => process.stdout.write(`[emulator] ${ line }\n`);

  log(`Rancher API emulator on ${ running.url } (fixtures: ${ options.fixtureDirs.join(', ') })`);
  if (running.httpsUrl) {
    log(`and on ${ running.httpsUrl } (TLS, HTTP/2 and HTTP/1.1, self-signed certificate)`);
  }
  if (options.uiDir) {
    log(`dashboard build from ${ options.uiDir }`);
  }
  if (options.pluginsDir) {
    log(`extensions from ${ options.pluginsDir }`);
  }
  log(options.elemental.installed ? `Elemental operator ${ options.elemental.version }` : 'no Elemental operator: the elemental.cattle.io types are not served');
  if (options.backend === 'real-stack') {
    log(`real stack: Steve and Kubernetes requests of its types go to its Steve and API server (${ options.realStackDownstream.length ? `and /k8s/clusters/${ options.realStackDownstream.join(', ') }` : 'docs/emulator.md, "What is real"' })`);
  }
  if (!options.control) {
    log('real Rancher mode: the control endpoints (/__emulator/) answer 404');
  }
  log('log in as:');
  userBanner().forEach((line) => log(`  ${ line }`));
  const stop = () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  };

  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`[emulator] ${ e instanceof Error ? e.stack ?? e.message : String(e) }\n`);
  process.exit(1);
});
