#!/usr/bin/env bash
# The browser suite in real Rancher mode: the emulator started with --no-control (every path under
# /__emulator/ answers 404, as on a real Rancher) and the specs run through scripts/e2e-rancher/test.sh
# with E2E_BASE_URL, exactly as .github/workflows/e2e-rancher.yml runs them against a real Rancher.
# Every spec must run or skip itself; one that calls a control endpoint fails here. The emulator starts
# as a fresh Rancher with the Elemental operator and registered clusters, and no channel, version or
# pool (tests/fixtures/clusters): the specs create what they need (tests/e2e/support/seed.ts).
# Port: E2E_REAL_RANCHER_PORT (default E2E_EMULATOR_PORT + 1). Results: test-results/real-rancher-mode/.
set -euo pipefail
source "$(dirname "$0")/toolchain.sh"
cd "$ROOT"

port=${E2E_REAL_RANCHER_PORT:-$(( ${E2E_EMULATOR_PORT:-8990} + 1 ))}
results=${E2E_REAL_RANCHER_RESULTS:-test-results/real-rancher-mode}
url="http://localhost:$port"
mkdir -p "$results"

source "$(dirname "$0")/answers.sh"

if answers "$url/rancherversion" 0; then
  log "port $port is taken (set E2E_REAL_RANCHER_PORT)"
  exit 1
fi
EMULATOR_ROLLOUT_STEP_MS=800 EMULATOR_TIME_SCALE=0.1 \
  node_modules/.bin/tsx tests/emulator/core/main.ts --port "$port" --ui dist --plugins dist-pkg --no-control \
    --fixtures tests/fixtures/clusters --scale-versions 0 >"$results/emulator.log" 2>&1 &
emulator=$!
trap 'kill "$emulator" 2>/dev/null || true' EXIT
answers "$url/rancherversion" 120 || { cat "$results/emulator.log"; log "the emulator did not start on port $port"; exit 1; }

# The emulator serves the dashboard at / (a real Rancher at /dashboard/).
E2E_BASE_URL="$url" E2E_DASHBOARD_PREFIX='' E2E_RESULTS_DIR="$results" scripts/e2e-rancher/test.sh "$@"
