#!/usr/bin/env bash
# Everything the browser suite needs on a k3d cluster of this machine: cluster, Rancher, the
# Elemental operator and channels, this extension, the test users; then `test.sh` runs the suite.
# Settings: see lib.sh. The state (passwords, versions, the token) is in .e2e-rancher/env.
set -euo pipefail
dir=$(dirname "$0")
"$dir/cluster.sh"
"$dir/rancher.sh"
"$dir/elemental.sh"
"$dir/extension.sh"
"$dir/users.sh"
source "$dir/lib.sh"
load_state
log "ready: Rancher $RANCHER_SERVER_VERSION at $E2E_BASE_URL, Elemental operator $ELEMENTAL_OPERATOR_VERSION; now $dir/test.sh"
