#!/usr/bin/env bash
# Builds the dashboard without the os-upgrades package into dist/, as Rancher ships it, so the
# browser tests load the package the way Rancher does (uiplugins). Rebuilt only when the inputs change.
set -euo pipefail
source "$(dirname "$0")/toolchain.sh"
cd "$ROOT"

stamp=$(cat yarn.lock package.json vue.config.js babel.config.js | sha256sum | cut -c1-16)
if [ -f dist/index.html ] && [ "$(cat dist/.os-upgrades-stamp 2>/dev/null)" = "$stamp" ]; then
  log "dashboard build is up to date"
  exit 0
fi
mkdir -p .test-reports
EXCLUDES=os-upgrades yarn -s build >.test-reports/dashboard-build.log 2>&1 || { tail -50 .test-reports/dashboard-build.log; exit 1; }
echo "$stamp" > dist/.os-upgrades-stamp
