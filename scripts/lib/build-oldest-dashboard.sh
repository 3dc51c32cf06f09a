#!/usr/bin/env bash
# Builds the dashboard of the oldest @rancher/shell the package declares (Rancher 2.12's; the
# manifest and lockfile in tests/oldest-shell/) into .cache/shell-<version>/dist, as
# build-dashboard.sh builds dist/ for the newest: without the package, which loads through
# /v1/uiplugins. Installed and rebuilt only when tests/oldest-shell/ changes. Prints the build's path.
set -euo pipefail
source "$(dirname "$0")/toolchain.sh"
cd "$ROOT"

src=tests/oldest-shell
version=$(node -p "require('./$src/package.json').dependencies['@rancher/shell']")
dir=.cache/shell-$version
stamp=$(cat "$src/package.json" "$src/yarn.lock" "$src/vue.config.js" "$src/babel.config.js" | sha256sum | cut -c1-16)
if [ -f "$dir/dist/index.html" ] && [ "$(cat "$dir/dist/.os-upgrades-stamp" 2>/dev/null)" = "$stamp" ]; then
  log "dashboard of shell $version is up to date"
  echo "$dir/dist"
  exit 0
fi
mkdir -p "$dir" .test-reports
cp "$src/package.json" "$src/yarn.lock" "$src/vue.config.js" "$src/babel.config.js" "$dir/"
log "installing shell $version into $dir"
(cd "$dir" && CYPRESS_INSTALL_BINARY=0 yarn install --frozen-lockfile --non-interactive --network-timeout 600000) >.test-reports/oldest-shell-install.log 2>&1 \
  || { tail -50 .test-reports/oldest-shell-install.log; exit 1; }
log "building the dashboard of shell $version"
(cd "$dir" && rm -rf dist && ./node_modules/.bin/vue-cli-service build) >.test-reports/oldest-shell-build.log 2>&1 \
  || { tail -50 .test-reports/oldest-shell-build.log; exit 1; }
echo "$stamp" >"$dir/dist/.os-upgrades-stamp"
echo "$dir/dist"
