#!/usr/bin/env bash
# Step 1: picks the Rancher chart version for RANCHER_VERSION and creates a k3d cluster with the
# newest k3s that chart allows (its kubeVersion), its HTTPS port also on port 8443 of this machine;
# then fixes Rancher's hostname and URL (see lib.sh).
source "$(dirname "$0")/lib.sh"
need helm k3d kubectl curl jq
load_state

declare -A REPO_URLS=(
  [latest]=https://releases.rancher.com/server-charts/latest
  [stable]=https://releases.rancher.com/server-charts/stable
  [alpha]=https://releases.rancher.com/server-charts/alpha
  [prime]=https://charts.rancher.com/server-charts/prime
)
repo_url=${REPO_URLS[$RANCHER_REPO]:-}
[ -n "$repo_url" ] || fail "RANCHER_REPO must be one of ${!REPO_URLS[*]}, got $RANCHER_REPO"
helm repo add --force-update "rancher-$RANCHER_REPO" "$repo_url" >/dev/null

# helm lists the newest first; alpha also lists release candidates, the others final releases only.
devel=()
pattern='^[0-9]+\.[0-9]+\.[0-9]+$'
if [ "$RANCHER_REPO" = alpha ]; then
  devel=(--devel)
  pattern='^[0-9]+\.[0-9]+\.[0-9]+'
fi
versions=$(helm search repo "rancher-$RANCHER_REPO/rancher" --versions "${devel[@]}" -o json | jq -r --arg p "$pattern" '.[].version | select(test($p))')
case "$RANCHER_VERSION" in
  latest) chart_version=$(head -1 <<<"$versions") ;;
  *.*.*) chart_version=$(grep -Fx -m1 "${RANCHER_VERSION#v}" <<<"$versions" || true) ;;
  *) chart_version=$(grep -E -m1 "^${RANCHER_VERSION#v}\." <<<"$versions" || true) ;;
esac
[ -n "$chart_version" ] || fail "rancher-$RANCHER_REPO has no Rancher chart for $RANCHER_VERSION (it has: $(head -5 <<<"$versions" | paste -sd ' ') …)"
remember RANCHER_CHART "rancher-$RANCHER_REPO/rancher"
remember RANCHER_CHART_VERSION "$chart_version"
log "Rancher chart $RANCHER_CHART $chart_version"

if [ -z "${K3S_IMAGE:-}" ]; then
  # kubeVersion reads like ">= 1.28.0-0 < 1.34.0-0": take the minor below the upper bound.
  kube_range=$(helm show chart "$RANCHER_CHART" --version "$chart_version" | sed -n 's/^kubeVersion: *//p' | tr -d "'\"")
  upper=$(grep -oE '<[[:space:]]*1\.[0-9]+' <<<"$kube_range" | grep -oE '[0-9]+$' | head -1 || true)
  [ -n "$upper" ] || fail "cannot read the highest Kubernetes minor from kubeVersion '$kube_range'; set K3S_IMAGE"
  minor="1.$(( upper - 1 ))"
  tag=$(curl -fsSL "https://hub.docker.com/v2/repositories/rancher/k3s/tags?page_size=100&name=v$minor." \
    | jq -r --arg m "$minor" '.results[].name | select(test("^v" + ($m | gsub("\\."; "\\.")) + "\\.[0-9]+-k3s[0-9]+$"))' | sort -V | tail -1)
  [ -n "$tag" ] || fail "no rancher/k3s image for Kubernetes $minor; set K3S_IMAGE"
  K3S_IMAGE="rancher/k3s:$tag"
fi
remember K3S_IMAGE "$K3S_IMAGE"

if k3d cluster list "$K3D_CLUSTER" >/dev/null 2>&1; then
  log "k3d cluster $K3D_CLUSTER exists; using it"
else
  log "k3d cluster $K3D_CLUSTER with $K3S_IMAGE"
  k3d cluster create "$K3D_CLUSTER" --image "$K3S_IMAGE" --port "8443:443@loadbalancer" --wait --timeout 300s
fi
kubectl config use-context "k3d-$K3D_CLUSTER" >/dev/null
retry 300 5 kubectl wait --for=condition=Ready nodes --all --timeout=10s >/dev/null

if [ -z "${RANCHER_HOSTNAME:-}" ]; then
  # As rancher/kubewarden-ui's workflow does: the server node's address, named through sslip.io.
  address=$(k3d cluster list "$K3D_CLUSTER" -o json | jq -r '[.[].nodes[] | select(.role == "server").IP.IP] | first')
  if [ -z "$address" ] || [ "$address" = null ]; then
    fail "no address of the k3d server node; set RANCHER_HOSTNAME"
  fi
  RANCHER_HOSTNAME="$address.sslip.io"
fi
remember RANCHER_HOSTNAME "$RANCHER_HOSTNAME"
if [ "$RANCHER_PORT" = 443 ]; then
  remember RANCHER_URL "https://$RANCHER_HOSTNAME"
else
  remember RANCHER_URL "https://$RANCHER_HOSTNAME:$RANCHER_PORT"
fi
log "Rancher will be $RANCHER_URL"
