import { readFileSync } from 'fs';
import { join } from 'path';
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// One full flow per page on the dashboard of the oldest shell the package declares (Rancher 2.12's,
// built by scripts/lib/build-oldest-dashboard.sh into .cache/shell-<version>/dist), the extension
// from dist-pkg/ loaded through /v1/uiplugins, against the emulator imitating Rancher 2.12
// (--rancher-version 2.12: no /v1-public, tests/emulator/rancher/rancher-version.ts). The main suite runs on
// the newest shell (playwright.config.ts).

const shellVersion: string = JSON.parse(readFileSync(join(__dirname, 'tests/oldest-shell/package.json'), 'utf8')).dependencies['@rancher/shell'];
const emulatorPort = Number(process.env.E2E_OLDEST_EMULATOR_PORT || 8997);

// The specs' helpers (tests/e2e/support/emulator.ts) reach the emulator's control endpoints on E2E_EMULATOR_PORT.
process.env.E2E_EMULATOR_PORT = String(emulatorPort);

export default defineConfig({
  ...base,
  testDir:   'tests/e2e-oldest',
  outputDir: process.env.E2E_OUTPUT_DIR || 'test-results/oldest-shell',
  reporter:  [['list'], ['html', { open: 'never', outputFolder: process.env.E2E_REPORT_DIR || 'playwright-report/oldest-shell' }]],
  // One project of every test (the main config's are the emulator's and the real Rancher mode's).
  projects:  [{ name: 'chromium', use: { browserName: 'chromium' } }],
  use:       { ...base.use, baseURL: `http://localhost:${ emulatorPort }` },
  webServer: {
    command:             `node_modules/.bin/tsx tests/emulator/core/main.ts --port ${ emulatorPort } --ui .cache/shell-${ shellVersion }/dist --plugins dist-pkg --rancher-version 2.12`,
    url:                 `http://localhost:${ emulatorPort }/__emulator/health`,
    reuseExistingServer: !process.env.CI,
    timeout:             120_000,
    stdout:              'ignore',
    stderr:              'pipe',
    env:                 { EMULATOR_ROLLOUT_STEP_MS: '800', EMULATOR_TIME_SCALE: '0.1' },
  },
});
