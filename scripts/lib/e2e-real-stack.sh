#!/usr/bin/env bash
# The channel, pool and rollout specs on the real stack (issue 28): the emulator as in real Rancher mode
# (scripts/lib/e2e-real-mode.sh: --no-control, no seeded channels or pools) with --backend real-stack,
# so every Steve and Kubernetes request of the Elemental, Fleet and core types goes to the Steve and
# API server scripts/real-stack/up started (REAL_STACK_DIR/endpoints.env), and the channel operator
# syncs the stack's channels (docs/emulator.md, "What is real"). Start the stack first.
# Port: E2E_REAL_STACK_EMULATOR_PORT (default E2E_EMULATOR_PORT + 8, a port no other step of scripts/test takes). Results: test-results/real-stack/.
# The downstream cluster E2E_REAL_STACK_DOWNSTREAM (default c-m-b3rl1n01, fleet-default/edge-berlin-01) is the stack too: its nodes
# are kwok nodes and the emulated SUC runs the Plans Fleet applies there as real Jobs (real-stack/stack-downstream.ts).
# Arguments go to Playwright; without any, the channel, pool and rollout specs run.
set -euo pipefail
source "$(dirname "$0")/toolchain.sh"
cd "$ROOT"

port=${E2E_REAL_STACK_EMULATOR_PORT:-$(( ${E2E_EMULATOR_PORT:-8990} + 8 ))}
results=${E2E_REAL_STACK_RESULTS:-test-results/real-stack}
url="http://localhost:$port"
mkdir -p "$results"
[ -f "${REAL_STACK_DIR:-$ROOT/.real-stack}/endpoints.env" ] || [ -n "${REAL_STACK_STEVE:-}" ] || {
  log "no real stack: run scripts/real-stack/up first (REAL_STACK_DIR names its folder)"
  exit 1
}

source "$(dirname "$0")/answers.sh"

if answers "$url/rancherversion" 0; then
  log "port $port is taken (set E2E_REAL_STACK_EMULATOR_PORT)"
  exit 1
fi
EMULATOR_ROLLOUT_STEP_MS=800 EMULATOR_TIME_SCALE=0.1 \
  node_modules/.bin/tsx tests/emulator/core/main.ts --port "$port" --ui dist --plugins dist-pkg --no-control \
    --fixtures tests/fixtures/clusters --scale-versions 0 --backend real-stack --log-errors \
    --real-stack-downstream "${E2E_REAL_STACK_DOWNSTREAM:-c-m-b3rl1n01}" >"$results/emulator.log" 2>&1 &
emulator=$!
trap 'kill "$emulator" 2>/dev/null || true' EXIT
answers "$url/rancherversion" 120 || { cat "$results/emulator.log"; log "the emulator did not start on port $port"; exit 1; }

# `specs -- playwright options`, as scripts/e2e takes them: Playwright itself takes no `--`.
args=()
for arg in "$@"; do
  [ "$arg" = "--" ] || args+=("$arg")
done
set -- ${args[@]+"${args[@]}"}
# Without specs: the channel, pool and rollout flows (issue 28's "done when").
[ "$#" -gt 0 ] || set -- tests/e2e/channels.spec.ts tests/e2e/channel-sync.spec.ts tests/e2e/sync.spec.ts \
  tests/e2e/pools.spec.ts tests/e2e/pool-detail.spec.ts tests/e2e/rollout.spec.ts tests/e2e/node-rollout.spec.ts
E2E_REAL_STACK=1 E2E_BASE_URL="$url" E2E_DASHBOARD_PREFIX='' E2E_RESULTS_DIR="$results" scripts/e2e-rancher/test.sh "$@"
