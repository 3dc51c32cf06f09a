import { defineConfig } from '@playwright/test';

// Browser tests. By default they run against the Rancher API emulator serving the production
// dashboard build (dist/, built with EXCLUDES=os-upgrades) and the extension (dist-pkg/), started
// here on a port of its own. With E2E_BASE_URL set they run against that URL instead (a real
// Rancher, or `yarn dev` on https://localhost:8005) with the E2E_* credentials; the specs that
// need the emulator's control endpoints skip themselves there. See docs/emulator.md.

const externalUrl = process.env.E2E_BASE_URL;
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT || 8990);

export default defineConfig({
  testDir:       'tests/e2e',
  // The specs' file host for the channels and changelogs they publish (support/seed.ts).
  globalSetup:   './tests/e2e/support/global-setup.ts',
  outputDir:     process.env.E2E_OUTPUT_DIR || 'test-results',
  timeout:       90_000,
  expect:        { timeout: 15_000 },
  fullyParallel: false,
  workers:       Number(process.env.E2E_WORKERS || 1),
  retries:       process.env.CI ? 1 : 0,
  forbidOnly:    !!process.env.CI,
  reporter:      [['list'], ['html', { open: 'never', outputFolder: process.env.E2E_REPORT_DIR || 'playwright-report' }]],
  use:           {
    baseURL:           externalUrl || `http://localhost:${ emulatorPort }`,
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
  projects:  [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: externalUrl ? undefined : {
    command:             `node_modules/.bin/tsx tests/emulator/core/main.ts --port ${ emulatorPort } --ui dist --plugins dist-pkg`,
    url:                 `http://localhost:${ emulatorPort }/__emulator/health`,
    reuseExistingServer: !process.env.CI,
    timeout:             120_000,
    stdout:              'ignore',
    stderr:              'pipe',
    env:                 {
      EMULATOR_ROLLOUT_STEP_MS: '800',
      // A channel sync in 1.5 s instead of 15 s, through the same states.
      EMULATOR_TIME_SCALE:      '0.1',
    },
  },
});
