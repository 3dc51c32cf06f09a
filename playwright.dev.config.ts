import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The browser spec of the dashboard's dev server exactly as `scripts/run` starts it: the emulator
// (its own port) and `yarn dev` proxying to it, on https://localhost:$E2E_DEV_PORT. What a newcomer
// sees first; the main suite runs the production build on one origin and cannot see what the dev
// server's proxy leaves out (issue 24).
//
// The dev server's first compile took 248 s on this 2-core machine at a load of 14 (webpack's babel
// cache warm), the whole run 5.6 minutes; the web server's timeout leaves room for a cold cache on a
// CI machine. Its output (filtered by scripts/lib/dev-output.mjs) is shown, so a CI log says how
// long the compile took.

const devPort = Number(process.env.E2E_DEV_PORT || 8995);
const emulatorPort = Number(process.env.E2E_DEV_EMULATOR_PORT || 8996);

const DEV_COMPILE_TIMEOUT_MS = 900_000;

export default defineConfig({
  ...base,
  testDir:   'tests/e2e-dev',
  outputDir: process.env.E2E_OUTPUT_DIR || 'test-results/dev-server',
  reporter:  [['list'], ['html', { open: 'never', outputFolder: process.env.E2E_REPORT_DIR || 'playwright-report/dev-server' }]],
  // The dev build is not optimised: the dashboard's first boot compiles more in the browser.
  timeout:   180_000,
  // One project of every test (the main config's are the emulator's and the real Rancher mode's).
  projects:  [{ name: 'chromium', use: { browserName: 'chromium' } }],
  use:       { ...base.use, baseURL: `https://localhost:${ devPort }` },
  webServer: {
    command:             'scripts/run',
    url:                 `https://localhost:${ devPort }/`,
    ignoreHTTPSErrors:   true,
    // scripts/test starts it beside the other browser tests (E2E_DEV_SERVER_STARTED) and waits for its compile.
    reuseExistingServer: !process.env.CI || !!process.env.E2E_DEV_SERVER_STARTED,
    timeout:             DEV_COMPILE_TIMEOUT_MS,
    stdout:              'pipe',
    stderr:              'pipe',
    env:                 { EMULATOR_PORT: String(emulatorPort), DEV_PORT: String(devPort) },
  },
});
