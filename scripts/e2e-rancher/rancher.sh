#!/usr/bin/env bash
# Step 2: cert-manager and Rancher from their Helm charts, then what an administrator does on the
# first login, through Rancher's API: log in with the bootstrap password, set the admin's own
# password (E2E_ADMIN_PASSWORD), the server URL, the EULA and telemetry settings.
source "$(dirname "$0")/lib.sh"
need helm kubectl curl jq
load_state
: "${RANCHER_CHART:?run cluster.sh first}" "${RANCHER_URL:?run cluster.sh first}"
remember E2E_ADMIN_USER admin
password_for E2E_ADMIN_PASSWORD
password_for RANCHER_BOOTSTRAP_PASSWORD

helm repo add --force-update jetstack https://charts.jetstack.io >/dev/null
log "cert-manager"
helm upgrade --install cert-manager jetstack/cert-manager --namespace cert-manager --create-namespace \
  --set crds.enabled=true --wait --timeout 10m

log "Rancher $RANCHER_CHART_VERSION on $RANCHER_URL"
helm upgrade --install rancher "$RANCHER_CHART" --version "$RANCHER_CHART_VERSION" \
  --namespace cattle-system --create-namespace \
  --set hostname="$RANCHER_HOSTNAME" --set bootstrapPassword="$RANCHER_BOOTSTRAP_PASSWORD" --set replicas=1 \
  --wait --timeout 20m
kubectl -n cattle-system rollout status deploy/rancher --timeout=15m
retry 900 10 sh -c "curl -fsk '$RANCHER_URL/ping' | grep -q pong"
# Rancher installs its webhook and Fleet itself, after it is up; both must run before any write.
retry 900 10 kubectl -n cattle-system get deploy/rancher-webhook >/dev/null 2>&1
kubectl -n cattle-system rollout status deploy/rancher-webhook --timeout=10m
retry 900 10 kubectl -n cattle-fleet-system get deploy/fleet-controller >/dev/null 2>&1
kubectl -n cattle-fleet-system rollout status deploy/fleet-controller --timeout=10m
retry 600 10 kubectl get namespace "$FLEET_NS" >/dev/null 2>&1

# The first login: the bootstrap password, then the admin's own one, as the setup page does it
# (an ext.cattle.io PasswordChangeRequest on Rancher 2.13 and newer, rancher/rancher v2.13.0
# pkg/apis/ext.cattle.io/v1/types.go; the v3 changepassword action on 2.12, v2.12.12
# pkg/auth/api/user/user_actions.go).
if ! token=$(login "$E2E_ADMIN_USER" "$E2E_ADMIN_PASSWORD" 2>/dev/null); then
  token=$(retry 300 10 login "$E2E_ADMIN_USER" "$RANCHER_BOOTSTRAP_PASSWORD") || fail "cannot log in to $RANCHER_URL as $E2E_ADMIN_USER"
  RANCHER_ADMIN_TOKEN=$token
  admin_id=$(rancher_api GET "/v3/users?username=$E2E_ADMIN_USER" | jq -r '.data[0].id')
  change=$(jq -n --arg id "$admin_id" --arg c "$RANCHER_BOOTSTRAP_PASSWORD" --arg n "$E2E_ADMIN_PASSWORD" \
    '{type: "ext.cattle.io.passwordchangerequest", spec: {userID: $id, currentPassword: $c, newPassword: $n}}')
  rancher_api POST /v1/ext.cattle.io.passwordchangerequests "$change" >/dev/null \
    || rancher_api POST "/v3/users?action=changepassword" "$(jq -n --arg c "$RANCHER_BOOTSTRAP_PASSWORD" --arg n "$E2E_ADMIN_PASSWORD" \
      '{currentPassword: $c, newPassword: $n}')" >/dev/null \
    || fail "cannot set the password of $E2E_ADMIN_USER"
  token=$(retry 60 5 login "$E2E_ADMIN_USER" "$E2E_ADMIN_PASSWORD") || fail "cannot log in with the new password of $E2E_ADMIN_USER"
fi
remember RANCHER_ADMIN_TOKEN "$token"

setting() { rancher_api PUT "/v3/settings/$1" "$(jq -n --arg n "$1" --arg v "$2" '{name: $n, value: $v}')" >/dev/null; }
setting server-url "$RANCHER_URL"
setting eula-agreed "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
setting telemetry-opt out
setting first-login false
must_change=$(rancher_api GET "/v3/users?username=$E2E_ADMIN_USER" | jq -r '.data[0].mustChangePassword')
[ "$must_change" != true ] || fail "Rancher still asks $E2E_ADMIN_USER to change the password"
remember E2E_BASE_URL "$RANCHER_URL"
rancher_version=$(curl -fsSk "$RANCHER_URL/rancherversion" | jq -r .Version)
remember RANCHER_SERVER_VERSION "$rancher_version"
log "Rancher $rancher_version is up at $RANCHER_URL (admin: $E2E_ADMIN_USER)"
