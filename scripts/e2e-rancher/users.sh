#!/usr/bin/env bash
# Step 5: the test users, created as an administrator creates them, through Rancher's API:
#   viewer  reads everything the extension shows, writes nothing
#   editor  reads the same, and creates, updates and deletes ManagedOSImages in fleet-default only
# Each is a local user (POST /v3/users) with the global role "user-base" (may log in), a member of
# the local cluster (POST /v3/clusterroletemplatebindings, role "cluster-member"). Their rights on
# the Elemental and Fleet types are Kubernetes RBAC on the local cluster, bound to the Rancher user
# id, which is the user Rancher impersonates there.
source "$(dirname "$0")/lib.sh"
need kubectl curl jq
load_state
: "${RANCHER_ADMIN_TOKEN:?run rancher.sh first}"
remember E2E_VIEWER_USER "${E2E_VIEWER_USER:-viewer}"
remember E2E_EDITOR_USER "${E2E_EDITOR_USER:-editor}"
password_for E2E_VIEWER_PASSWORD
password_for E2E_EDITOR_PASSWORD

# ensure_user NAME PASSWORD: prints the user's id, creating the user and its bindings if needed.
ensure_user() {
  local name=$1 password=$2 id
  id=$(rancher_api GET "/v3/users?username=$name" | jq -r '.data[0].id // empty')
  if [ -z "$id" ]; then
    id=$(rancher_api POST /v3/users "$(jq -n --arg u "$name" --arg p "$password" \
      '{type: "user", username: $u, name: $u, password: $p, mustChangePassword: false, enabled: true}')" | jq -re .id)
    rancher_api POST /v3/globalrolebindings "$(jq -n --arg id "$id" \
      '{type: "globalRoleBinding", globalRoleId: "user-base", userId: $id}')" >/dev/null
    rancher_api POST /v3/clusterroletemplatebindings "$(jq -n --arg id "$id" \
      '{type: "clusterRoleTemplateBinding", clusterId: "local", roleTemplateId: "cluster-member", userId: $id}')" >/dev/null
    log "user $name ($id) created"
  else
    rancher_api POST "/v3/users/$id?action=setpassword" "$(jq -n --arg p "$password" '{newPassword: $p}')" >/dev/null
    log "user $name ($id) exists; password set"
  fi
  echo "$id"
}
viewer_id=$(ensure_user "$E2E_VIEWER_USER" "$E2E_VIEWER_PASSWORD")
editor_id=$(ensure_user "$E2E_EDITOR_USER" "$E2E_EDITOR_PASSWORD")

kubectl apply -f - <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: os-upgrades-e2e-read
rules:
  - apiGroups: [elemental.cattle.io]
    resources: [managedosversionchannels, managedosversions, managedosimages]
    verbs: [get, list, watch]
  - apiGroups: [fleet.cattle.io]
    resources: [clusters, clustergroups, bundles]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [namespaces]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: os-upgrades-e2e-read
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: os-upgrades-e2e-read}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: User, name: $viewer_id}
  - {apiGroup: rbac.authorization.k8s.io, kind: User, name: $editor_id}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: os-upgrades-e2e-pool-editor
  namespace: $FLEET_NS
rules:
  - apiGroups: [elemental.cattle.io]
    resources: [managedosimages]
    verbs: [get, list, watch, create, update, patch, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: os-upgrades-e2e-pool-editor
  namespace: $FLEET_NS
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: os-upgrades-e2e-pool-editor}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: User, name: $editor_id}
YAML
log "users: $E2E_VIEWER_USER (read-only), $E2E_EDITOR_USER (ManagedOSImages in $FLEET_NS)"
