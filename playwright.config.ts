import { defineConfig, PlaywrightTestConfig } from '@playwright/test';

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, { command: string }>;

// Browser tests. By default they run as scripts/test runs them, each against an emulator started
// here on a port of its own and serving the production dashboard build (dist/, built with
// EXCLUDES=os-upgrades) and the extension (dist-pkg/): the tests tagged @emulator (project
// `emulator`) on the emulator with its control endpoints and the demo's data; every other test
// (project `real-rancher-mode`) on the emulator as a fresh Rancher without control endpoints, as
// scripts/lib/e2e-real-mode.sh starts it, where the specs create what they need. So
// `yarn playwright test <spec>` runs any spec alone. E2E_MODE=emulator keeps only the first (what
// scripts/test runs beside its real Rancher mode runs). With E2E_BASE_URL set they run against that
// URL instead (a real Rancher, or `yarn dev` on https://localhost:8005) with the E2E_* credentials;
// the specs that need the emulator's control endpoints skip themselves there. See docs/emulator.md.

const externalUrl = process.env.E2E_BASE_URL;
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT || 8990);
const realModePort = Number(process.env.E2E_REAL_RANCHER_PORT || emulatorPort + 1);
const onlyEmulator = process.env.E2E_MODE === 'emulator';
const EMULATOR_TAG = /@emulator/;
/** The project of the tests run as on a real Rancher (tests/e2e/support/env.ts reads its name). */
const REAL_RANCHER_MODE = 'real-rancher-mode';

const emulatorEnv = {
  EMULATOR_ROLLOUT_STEP_MS: '800',
  // A channel sync in 1.5 s instead of 15 s, through the same states.
  EMULATOR_TIME_SCALE:      '0.1',
};

/** An emulator on `port` with `options` (tests/emulator/core/main.ts), up when it answers `url`. */
function emulator(port: number, options: string, url: string): WebServer {
  return {
    command:             `node_modules/.bin/tsx tests/emulator/core/main.ts --port ${ port } --ui dist --plugins dist-pkg${ options }`,
    url:                 `http://localhost:${ port }${ url }`,
    reuseExistingServer: !process.env.CI,
    timeout:             120_000,
    stdout:              'ignore',
    stderr:              'pipe',
    env:                 emulatorEnv,
  };
}

const chromium = { browserName: 'chromium' as const };

function projects(): PlaywrightTestConfig['projects'] {
  if (externalUrl) {
    return [{ name: 'chromium', use: chromium }];
  }
  const onEmulator = {
    name: 'emulator', grep: EMULATOR_TAG, use: { ...chromium, baseURL: `http://localhost:${ emulatorPort }` }
  };

  return onlyEmulator ? [onEmulator] : [
    onEmulator,
    {
      name: REAL_RANCHER_MODE, grepInvert: EMULATOR_TAG, use: { ...chromium, baseURL: `http://localhost:${ realModePort }` }
    },
  ];
}

function webServers(): PlaywrightTestConfig['webServer'] {
  if (externalUrl) {
    return undefined;
  }
  const servers = [emulator(emulatorPort, '', '/__emulator/health')];

  if (!onlyEmulator) {
    // scripts/lib/e2e-real-mode.sh's Rancher: registered clusters with the operator, no channel, version or pool.
    servers.push(emulator(realModePort, ' --no-control --fixtures tests/fixtures/clusters --scale-versions 0', '/rancherversion'));
  }

  return servers;
}

export default defineConfig({
  testDir:       'tests/e2e',
  // The specs' file host for the channels and changelogs they publish (support/seed.ts).
  globalSetup:   './tests/e2e/support/global-setup.ts',
  outputDir:     process.env.E2E_OUTPUT_DIR || 'test-results',
  timeout:       90_000,
  expect:        { timeout: 15_000 },
  fullyParallel: false,
  workers:       Number(process.env.E2E_WORKERS || 1),
  // CI's clean clone builds two dashboards and compiles the dev server beside the browser tests on
  // two cores: four tests failed twice there on a commit whose every test passed on a clean clone here.
  retries:       process.env.CI ? 2 : 0,
  forbidOnly:    !!process.env.CI,
  reporter:      [['list'], ['html', { open: 'never', outputFolder: process.env.E2E_REPORT_DIR || 'playwright-report' }]],
  use:           {
    baseURL:           externalUrl,
    ignoreHTTPSErrors: true,
    viewport:          { width: 1400, height: 900 },
    screenshot:        'only-on-failure',
    // Recording every action's DOM costs the browser time on every test: only when a failed test runs again.
    trace:             'on-first-retry',
    actionTimeout:     20_000,
    navigationTimeout: 60_000,
    launchOptions:     {
      // Debian's chromium: Playwright never downloads a browser for this project.
      executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
      args:           ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
  projects:  projects(),
  webServer: webServers(),
});
