#!/usr/bin/env bash
# Deletes the k3d cluster and stops the extension's file server; keeps nothing of the state.
source "$(dirname "$0")/lib.sh"
if [ -f "$STATE/file-server.pid" ]; then
  kill "$(cat "$STATE/file-server.pid")" 2>/dev/null || true
fi
k3d cluster delete "$K3D_CLUSTER" || true
rm -rf "$STATE"
