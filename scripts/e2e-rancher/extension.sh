#!/usr/bin/env bash
# Step 4: builds this extension and installs it as a Rancher administrator installs a release:
# `yarn publish-pkgs` makes the Helm chart and the extension files exactly as the release workflow
# (.github/workflows/build-extension-charts.yml) does, a file server on this machine serves the files
# (Rancher reaches it as host.k3d.internal), and the chart is installed with its endpoint pointed
# there. Rancher then downloads the files (files.txt) into its cache and serves them under
# /v1/uiplugins/os-upgrades/<version>/, as for an extension installed from a repository.
source "$(dirname "$0")/lib.sh"
need helm kubectl jq yq git python3 curl
load_state
: "${RANCHER_ADMIN_TOKEN:?run rancher.sh first}"
cd "$ROOT"

name=$(jq -r .name pkg/os-upgrades/package.json)
version=$(jq -r .version pkg/os-upgrades/package.json)
slug=${GITHUB_REPOSITORY:-$(git config --get remote.origin.url | sed -E 's#(\.git)?$##; s#^.*[:/]([^/]+/[^/]+)$#\1#')}
log "building $name $version (chart as published from $slug)"
yarn -s publish-pkgs -s "$slug" -b gh-pages -f -n >"$STATE/publish-pkgs.log" 2>&1 || { tail -40 "$STATE/publish-pkgs.log"; fail "publish-pkgs failed"; }
chart="assets/$name/$name-$version.tgz"
if [ ! -f "$chart" ] || [ ! -f "extensions/$name/$version/files.txt" ]; then
  fail "publish-pkgs made no $chart and extensions/$name/$version/files.txt"
fi

if [ -f "$STATE/file-server.pid" ] && kill -0 "$(cat "$STATE/file-server.pid")" 2>/dev/null; then
  kill "$(cat "$STATE/file-server.pid")"
fi
python3 -m http.server "$PKG_PORT" --bind 0.0.0.0 --directory extensions >"$STATE/file-server.log" 2>&1 &
echo $! > "$STATE/file-server.pid"
retry 30 1 curl -fs "http://127.0.0.1:$PKG_PORT/$name/$version/files.txt" -o /dev/null

endpoint="http://host.k3d.internal:$PKG_PORT/$name/$version"
log "chart $chart, endpoint $endpoint"
helm upgrade --install "$name" "$chart" --namespace cattle-ui-plugin-system --create-namespace \
  --set plugin.endpoint="$endpoint" --set plugin.compressedEndpoint="$endpoint.tgz" --wait
# Rancher lists it in /v1/uiplugins once it has cached the files, and then serves them itself.
served() {
  rancher_api GET /v1/uiplugins | jq -e --arg n "$name" '.entries[$n]' >/dev/null \
    && curl -fsk -o /dev/null -H "Authorization: Bearer $RANCHER_ADMIN_TOKEN" \
      "$RANCHER_URL/v1/uiplugins/$name/$version/plugin/$name-$version.umd.min.js"
}
retry 300 5 served || {
  kubectl -n cattle-ui-plugin-system get uiplugins -o yaml >&2
  fail "Rancher does not serve $name $version under /v1/uiplugins"
}
log "$name $version is installed; Rancher serves it from /v1/uiplugins/$name/$version/"

# The specs publish their channels on a file host of their own, started by Playwright on this machine
# (tests/e2e/support/global-setup.ts). The Elemental operator in the cluster fetches the channel files
# from it as Rancher fetches the extension's, through host.k3d.internal; the browser on this machine
# reads the changelogs at 127.0.0.1. test.sh reads these from the state.
remember E2E_FILES_HOST 0.0.0.0
remember E2E_FILES_PORT "$E2E_FILES_PORT"
remember E2E_FILES_CLUSTER_URL "http://host.k3d.internal:$E2E_FILES_PORT"
