// Start options of the emulator (docs/emulator.md); the modes they pick imitate rancher/steve
// (sql cache: pkg/sqlcache/), rancher/elemental-operator (changelog service: pkg/server/server.go answers
// "unknwon api" today) and rancher/rancher (no control endpoints: pkg/multiclustermanager/routes.go routes none).
// Command-line flags and environment variables (the flag wins). See docs/emulator.md.

import path from 'path';
import { RancherVersion, parseRancherVersion } from '../rancher/rancher-version';
import type { ChangelogMode } from '../operator/changelog-service';
import { DEFAULT_FIXTURE_DIRS } from '../data/fixtures';
import { ElementalInstall, parseElementalInstall } from '../operator/elemental-install';

export interface EmulatorOptions {
  port: number;
  host: string;
  fixtureDirs: string[];
  scaleVersions: number;
  /** Scale options beyond the versions: scale-channel.ts and scale-fleet.ts. */
  scaleChannels: number;
  scalePools: number;
  scaleClusters: number;
  /** 0: no TLS listener (https.ts). */
  httpsPort: number;
  uiDir?: string;
  pluginsDir?: string;
  /** Multiplies the channel sync's durations (1: real time). */
  timeScale: number;
  /** Steve's SQL cache (the ui-sql-cache feature): decides how watches without a revision start. */
  sqlCache: boolean;
  retryBaseMs: number;
  rolloutStepMs: number;
  pingMs: number;
  logErrors: boolean;
  changelogMode: ChangelogMode;
  changelogPodStartMs: number;
  /** False: every /__emulator/ path answers 404, as on a real Rancher (the "real Rancher mode"). */
  control: boolean;
  /** The Elemental operator the Rancher runs (elemental-install.ts). */
  elemental: ElementalInstall;
  /** The Rancher minor imitated where minors differ (rancher-version.ts). */
  rancher: RancherVersion;
  /** `real-stack`: Steve and Kubernetes requests go to the real programs (tests/emulator/real-stack/, docs/emulator.md). */
  backend: 'emulator' | 'real-stack';
  /** Cluster ids whose /k8s/clusters/<id> proxy is the real stack too (with --backend real-stack). */
  realStackDownstream: string[];
  /** Appends every distinct Steve and Kubernetes request and subscribe message to this file (core/request-log.ts). */
  requestLog?: string;
}

export const USAGE = `Usage: yarn emulator [options]

  --port N              EMULATOR_PORT             port (default 8989, the dashboard's default API)
  --host H              EMULATOR_HOST             interface (default 0.0.0.0)
  --fixtures A,B        EMULATOR_FIXTURES         fixture folders, later ones on top
                                                  (default tests/fixtures/elemental,tests/fixtures/synthetic,
                                                  tests/fixtures/clusters)
  --scale-versions N    EMULATOR_SCALE_VERSIONS   versions of the generated scale channels, in all (default 600, 0 = none)
  --scale-channels N    EMULATOR_SCALE_CHANNELS   how many channels share them (default 1)
  --scale-pools N       EMULATOR_SCALE_POOLS      generated ManagedOSImages over those channels (default 0)
  --scale-clusters N    EMULATOR_SCALE_CLUSTERS   generated Fleet clusters (default 0)
  --https-port N        EMULATOR_HTTPS_PORT       also serve TLS (HTTP/2 and HTTP/1.1) on this port (default 0 = off)
  --ui DIR              EMULATOR_UI               also serve this dashboard build (dist/)
  --plugins DIR         EMULATOR_PLUGINS          also serve these built extensions (dist-pkg/)
  --time-scale F        EMULATOR_TIME_SCALE       multiplies a channel sync's durations (default 1: real time, ~15 s)
  --retry-ms N          EMULATOR_RETRY_MS         first retry after a failed sync or image reconcile (default 4000, doubling;
                                                  a sync's retries are scaled by --time-scale too)
  --sql-cache on|off    EMULATOR_SQL_CACHE        the ui-sql-cache feature and its watch semantics (default on)
  --rollout-step-ms N   EMULATOR_ROLLOUT_STEP_MS  time per step of a ManagedOSImage rollout (default 1500)
  --ping-ms N           EMULATOR_PING_MS          websocket ping interval (default 30000)
  --log-errors          EMULATOR_LOG_ERRORS=1     log every 4xx/5xx answer to stderr
  --no-control          EMULATOR_NO_CONTROL=1     real Rancher mode: every /__emulator/ path answers 404
  --changelog-service M EMULATOR_CHANGELOG_SERVICE what /elemental/changelog is: operator (today's, 400 "unknwon api",
                                                  the default), pr891 (the ManagedOSChangelog protocol of PR #891)
                                                  or none (no operator: Rancher's index.html with 200)
  --changelog-pod-start-ms N EMULATOR_CHANGELOG_POD_START_MS  pr891: worker pod start time (default 4000)
  --elemental none|V    EMULATOR_ELEMENTAL        the Elemental operator installed: none (no elemental.cattle.io types)
                                                  or its version, e.g. 1.6.2 or 1.7 (default 1.9.2)
  --rancher-version V   EMULATOR_RANCHER_VERSION  the Rancher minor imitated where minors differ, e.g. 2.12
                                                  (login, users, version; default 2.15)
  --backend B           EMULATOR_BACKEND          emulator (default) or real-stack: Steve and Kubernetes requests
                                                  of the types the real stack serves go to scripts/real-stack/up's
                                                  Steve and API server (.real-stack/endpoints.env or REAL_STACK_*),
                                                  the channel operator is their client
  --real-stack-downstream IDS EMULATOR_REAL_STACK_DOWNSTREAM  cluster ids whose /k8s/clusters/<id> is that stack too
  --request-log FILE    EMULATOR_REQUEST_LOG      append every distinct Steve and Kubernetes request and subscribe
                                                  message to FILE (JSON lines; tests/conformance/coverage.ts reads it)
`;

const FLAGS: Record<string, string> = {
  port:                     'EMULATOR_PORT',
  host:                     'EMULATOR_HOST',
  fixtures:                 'EMULATOR_FIXTURES',
  'scale-versions':         'EMULATOR_SCALE_VERSIONS',
  'scale-channels':         'EMULATOR_SCALE_CHANNELS',
  'scale-pools':            'EMULATOR_SCALE_POOLS',
  'scale-clusters':         'EMULATOR_SCALE_CLUSTERS',
  'https-port':             'EMULATOR_HTTPS_PORT',
  ui:                       'EMULATOR_UI',
  plugins:                  'EMULATOR_PLUGINS',
  'time-scale':             'EMULATOR_TIME_SCALE',
  'sql-cache':              'EMULATOR_SQL_CACHE',
  'retry-ms':               'EMULATOR_RETRY_MS',
  'rollout-step-ms':        'EMULATOR_ROLLOUT_STEP_MS',
  'ping-ms':                'EMULATOR_PING_MS',
  'log-errors':             'EMULATOR_LOG_ERRORS',
  'no-control':             'EMULATOR_NO_CONTROL',
  'changelog-service':      'EMULATOR_CHANGELOG_SERVICE',
  'changelog-pod-start-ms': 'EMULATOR_CHANGELOG_POD_START_MS',
  elemental:                'EMULATOR_ELEMENTAL',
  'rancher-version':        'EMULATOR_RANCHER_VERSION',
  backend:                  'EMULATOR_BACKEND',
  'real-stack-downstream':  'EMULATOR_REAL_STACK_DOWNSTREAM',
  'request-log':            'EMULATOR_REQUEST_LOG',
};

const SWITCHES = ['log-errors', 'no-control'];
const isOn = (value: string | undefined) => ['1', 'true', 'yes'].includes(String(value ?? '').toLowerCase());

function numberOption(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') {
    return fallback;
  }
  const n = Number(value);

  if (!Number.isFinite(n) || n < 0) {
    throw new Error(`--${ name } must be a non-negative number, got "${ value }"`);
  }

  return n;
}

function onOff(value: string | undefined, fallback: boolean, name: string): boolean {
  const text = (value ?? '').toLowerCase();

  if (!text) {
    return fallback;
  }
  if (['on', '1', 'true', 'yes'].includes(text)) {
    return true;
  }
  if (['off', '0', 'false', 'no'].includes(text)) {
    return false;
  }
  throw new Error(`--${ name } must be on or off, got "${ value }"`);
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): EmulatorOptions {
  const values: Record<string, string | undefined> = {};

  for (const [flag, variable] of Object.entries(FLAGS)) {
    values[flag] = env[variable];
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.replace(/^--/, '').split(/=(.*)/s, 2);

    if (!arg.startsWith('--') || !(flag in FLAGS)) {
      throw new Error(`unknown option ${ arg }\n\n${ USAGE }`);
    }
    if (SWITCHES.includes(flag)) {
      values[flag] = inline ?? '1';
    } else {
      values[flag] = inline ?? argv[++i];
    }
  }
  const resolve = (p: string) => path.resolve(cwd, p);
  const changelogMode = values['changelog-service'] || 'operator';

  if (changelogMode !== 'operator' && changelogMode !== 'pr891' && changelogMode !== 'none') {
    throw new Error(`--changelog-service must be operator, pr891 or none, got "${ changelogMode }"`);
  }
  const backend = values.backend || 'emulator';

  if (backend !== 'emulator' && backend !== 'real-stack') {
    throw new Error(`--backend must be emulator or real-stack, got "${ backend }"`);
  }
  const fixtures = values.fixtures ? values.fixtures.split(',').map((p) => p.trim()).filter(Boolean).map(resolve) : DEFAULT_FIXTURE_DIRS;

  return {
    port:                numberOption(values.port, 8989, 'port'),
    host:                values.host || '0.0.0.0',
    fixtureDirs:         fixtures,
    scaleVersions:       numberOption(values['scale-versions'], 600, 'scale-versions'),
    scaleChannels:       numberOption(values['scale-channels'], 1, 'scale-channels') || 1,
    scalePools:          numberOption(values['scale-pools'], 0, 'scale-pools'),
    scaleClusters:       numberOption(values['scale-clusters'], 0, 'scale-clusters'),
    httpsPort:           numberOption(values['https-port'], 0, 'https-port'),
    uiDir:               values.ui ? resolve(values.ui) : undefined,
    pluginsDir:          values.plugins ? resolve(values.plugins) : undefined,
    timeScale:           numberOption(values['time-scale'], 1, 'time-scale'),
    sqlCache:            onOff(values['sql-cache'], true, 'sql-cache'),
    retryBaseMs:         numberOption(values['retry-ms'], 4000, 'retry-ms'),
    rolloutStepMs:       numberOption(values['rollout-step-ms'], 1500, 'rollout-step-ms'),
    pingMs:              numberOption(values['ping-ms'], 30000, 'ping-ms') || 30000,
    logErrors:           isOn(values['log-errors']),
    control:             !isOn(values['no-control']),
    changelogMode,
    changelogPodStartMs: numberOption(values['changelog-pod-start-ms'], 4000, 'changelog-pod-start-ms'),
    elemental:           parseElementalInstall(values.elemental),
    rancher:             parseRancherVersion(values['rancher-version']),
    backend,
    realStackDownstream: (values['real-stack-downstream'] ?? '').split(',').map((id) => id.trim()).filter(Boolean),
    requestLog:          values['request-log'] ? resolve(values['request-log']) : undefined,
  };
}
