#!/usr/bin/env bash
# Step 3: the Elemental operator from its published charts (ELEMENTAL_VERSION, default the newest),
# and ManagedOSVersionChannels from the channels Elemental publishes: a channel image (type custom,
# synced by the operator's syncer pod) and a channel file (type json), both from
# rancher/elemental-channels. Waits until each channel has synced its ManagedOSVersions.
source "$(dirname "$0")/lib.sh"
need helm kubectl jq
load_state

ELEMENTAL_CHARTS=${ELEMENTAL_CHARTS:-oci://registry.suse.com/rancher}
CHANNEL_IMAGE=${CHANNEL_IMAGE:-registry.suse.com/rancher/elemental-channel/sl-micro:6.1-base}
CHANNEL_JSON=${CHANNEL_JSON:-https://raw.githubusercontent.com/rancher/elemental-channels/main/channels/sl-micro-62-base.json}
version=()
[ -z "${ELEMENTAL_VERSION:-}" ] || version=(--version "$ELEMENTAL_VERSION")

log "Elemental operator ${ELEMENTAL_VERSION:-(newest)} from $ELEMENTAL_CHARTS"
helm upgrade --install elemental-operator-crds "$ELEMENTAL_CHARTS/elemental-operator-crds-chart" "${version[@]}" \
  --namespace cattle-elemental-system --create-namespace --wait --timeout 10m
helm upgrade --install elemental-operator "$ELEMENTAL_CHARTS/elemental-operator-chart" "${version[@]}" \
  --namespace cattle-elemental-system --wait --timeout 10m
kubectl -n cattle-elemental-system rollout status deploy/elemental-operator --timeout=10m
remember ELEMENTAL_OPERATOR_VERSION "$(helm -n cattle-elemental-system list -f '^elemental-operator$' -o json | jq -r '.[0].app_version')"

kubectl apply -f - <<YAML
apiVersion: elemental.cattle.io/v1beta1
kind: ManagedOSVersionChannel
metadata:
  name: e2e-sl-micro-6.1-base
  namespace: $FLEET_NS
spec:
  type: custom
  syncInterval: 1h
  options:
    image: $CHANNEL_IMAGE
---
apiVersion: elemental.cattle.io/v1beta1
kind: ManagedOSVersionChannel
metadata:
  name: e2e-sl-micro-6.2-base
  namespace: $FLEET_NS
spec:
  type: json
  syncInterval: 1h
  options:
    uri: $CHANNEL_JSON
YAML

synced_versions() {
  [ "$(kubectl -n "$FLEET_NS" get managedosversions -l "elemental.cattle.io/channel=$1" -o name | wc -l)" -gt 0 ]
}
for channel in e2e-sl-micro-6.1-base e2e-sl-micro-6.2-base; do
  retry 600 10 synced_versions "$channel" || {
    kubectl -n "$FLEET_NS" get managedosversionchannel "$channel" -o yaml >&2
    fail "channel $channel synced no ManagedOSVersion"
  }
  log "channel $channel: $(kubectl -n "$FLEET_NS" get managedosversions -l "elemental.cattle.io/channel=$channel" -o name | wc -l) versions"
done
