# shellcheck shell=bash
# Shared by the scripts of scripts/e2e-rancher/ (sourced, not run). Settings, with their defaults:
#   RANCHER_VERSION   a Rancher minor (2.12), an exact version (2.15.1), or "latest" (default)
#   RANCHER_REPO      Helm repository of the Rancher chart: latest (default), stable, alpha, prime
#   K3D_CLUSTER       k3d cluster name (default os-upgrades-e2e)
#   K3S_IMAGE         k3s image; default: the newest k3s the Rancher chart's kubeVersion allows
#   RANCHER_HOSTNAME  Rancher's hostname; default <the k3d server's address>.sslip.io, which this
#                     machine and the cluster's pods both reach (Linux); with Docker Desktop use
#                     RANCHER_HOSTNAME=rancher.127.0.0.1.sslip.io RANCHER_PORT=8443
#   RANCHER_PORT      Rancher's HTTPS port in its URL (default 443); 8443 here maps to it too
#   PKG_PORT          port on this machine that serves the built extension to Rancher (default 4500)
#   E2E_FILES_PORT    port of the specs' file host (tests/e2e/support/file-server.ts), which serves the
#                     channel files and changelogs the specs publish, to the browser and to the
#                     Elemental operator in the cluster (default 4501)
#   E2E_*_PASSWORD    the test users' passwords (default: generated, kept in .e2e-rancher/env)
#   E2E_RANCHER_STATE state folder (default .e2e-rancher): env, versions, the file server's pid
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STATE=${E2E_RANCHER_STATE:-$ROOT/.e2e-rancher}
mkdir -p "$STATE"

RANCHER_VERSION=${RANCHER_VERSION:-latest}
RANCHER_REPO=${RANCHER_REPO:-latest}
K3D_CLUSTER=${K3D_CLUSTER:-os-upgrades-e2e}
RANCHER_PORT=${RANCHER_PORT:-443}
PKG_PORT=${PKG_PORT:-4500}
E2E_FILES_PORT=${E2E_FILES_PORT:-4501}
# The namespace of Fleet's downstream clusters, where Elemental keeps its channels and images.
export FLEET_NS=fleet-default

log() { echo "[e2e-rancher] $*" >&2; }
fail() { log "error: $*"; exit 1; }

need() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null || fail "$cmd is needed (see README, \"Browser tests against real Rancher versions\")"
  done
}

# retry SECONDS DELAY COMMAND…: runs COMMAND until it succeeds, at most SECONDS.
retry() {
  local deadline=$(( SECONDS + $1 )) delay=$2
  shift 2
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || { log "gave up after waiting for: $*"; return 1; }
    sleep "$delay"
  done
}

# Saves NAME=VALUE in $STATE/env (read by the later steps and by test.sh) and exports it.
remember() {
  local name=$1 value=$2
  touch "$STATE/env"
  grep -v "^export $name=" "$STATE/env" > "$STATE/env.new" || true
  printf 'export %s=%q\n' "$name" "$value" >> "$STATE/env.new"
  mv "$STATE/env.new" "$STATE/env"
  export "$name=$value"
}

load_state() {
  if [ -f "$STATE/env" ]; then
    # shellcheck disable=SC1091
    source "$STATE/env"
  fi
}

# A password Rancher accepts (at least 12 characters), generated once and kept in the state.
password_for() {
  local name=$1 value=${!1:-}
  if [ -z "$value" ]; then
    value="e2e-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  fi
  remember "$name" "$value"
}

# rancher_api METHOD PATH [JSON]: Rancher's API as the admin (token from rancher.sh), JSON out.
rancher_api() {
  local method=$1 path=$2 body=${3:-}
  curl -fsSk -X "$method" "$RANCHER_URL$path" \
    -H "Authorization: Bearer $RANCHER_ADMIN_TOKEN" -H 'Content-Type: application/json' \
    ${body:+--data "$body"}
}

# login USER PASSWORD: prints a token of a local user, as the login page gets one.
login() {
  curl -fsSk "$RANCHER_URL/v3-public/localProviders/local?action=login" -H 'Content-Type: application/json' \
    --data "$(jq -n --arg u "$1" --arg p "$2" '{username: $u, password: $p, responseType: "json"}')" | jq -re .token
}
