#!/usr/bin/env bash
# Runs the browser suite against the Rancher at E2E_BASE_URL, with the test users' credentials
# (E2E_ADMIN_*, E2E_VIEWER_*, E2E_EDITOR_*): what .github/workflows/e2e-rancher.yml runs on each
# Rancher version, and what scripts/test runs against the emulator's real Rancher mode.
# Specs that need the emulator's control endpoints skip themselves (tests/e2e/support/emulator.ts).
# Reads .e2e-rancher/env (written by up.sh) when E2E_BASE_URL is not set. Extra arguments go to
# Playwright (a spec file, --grep …). Results: $E2E_RESULTS_DIR (playwright.json, report/, artifacts/).
set -euo pipefail
cd "$(dirname "$0")/../.."

state=${E2E_RANCHER_STATE:-.e2e-rancher}
if [ -z "${E2E_BASE_URL:-}" ] && [ -f "$state/env" ]; then
  # shellcheck disable=SC1091
  source "$state/env"
fi
: "${E2E_BASE_URL:?set E2E_BASE_URL to the Rancher URL (or run scripts/e2e-rancher/up.sh first)}"
export E2E_BASE_URL

results=${E2E_RESULTS_DIR:-test-results/e2e-rancher}
mkdir -p "$results"
export E2E_OUTPUT_DIR="$results/artifacts" E2E_REPORT_DIR="$results/report"
export PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json"
export PLAYWRIGHT_HTML_OUTPUT_DIR="$results/report" PLAYWRIGHT_HTML_OPEN=never

echo "[e2e-rancher] browser suite against $E2E_BASE_URL as ${E2E_ADMIN_USER:-admin}, ${E2E_VIEWER_USER:-viewer}, ${E2E_EDITOR_USER:-editor}"
exec node_modules/.bin/playwright test --reporter=list,json,html "$@"
