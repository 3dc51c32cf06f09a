#!/usr/bin/env bash
# Step 5: the test users, created as an administrator creates them in Rancher (2.12 and later):
#   viewer  reads everything the extension shows, writes nothing
#   editor  reads the same, and creates, updates and deletes ManagedOSImages in fleet-default only
# As the dashboard's user form does (shell edit/management.cattle.io.user.vue), in the API the
# Rancher has:
# - 2.13 and newer: the user through Steve (management.cattle.io.user, no password field), its
#   password in a Secret named after it in cattle-local-user-passwords (rancher/rancher v2.13.0
#   pkg/auth/providers/local/pbkdf2/pbkdf2.go), found by its ext.cattle.io types' schema;
# - 2.12, which has neither (v2.12.12 keeps the password on the User): the user through
#   /v3/users with its password, which Rancher hashes (v2.12.12 pkg/auth/api/user/user_store.go).
# Then the global role "user-base" (may log in; /v3/globalrolebindings), and membership of the
# local cluster (/v3/clusterroletemplatebindings, "cluster-member"). Their rights on the Elemental
# and Fleet types are Kubernetes RBAC on the local cluster, bound to the Rancher user id, the user
# Rancher impersonates there.
source "$(dirname "$0")/lib.sh"
need kubectl curl jq
load_state
: "${RANCHER_ADMIN_TOKEN:?run rancher.sh first}"
remember E2E_VIEWER_USER "${E2E_VIEWER_USER:-viewer}"
remember E2E_EDITOR_USER "${E2E_EDITOR_USER:-editor}"
password_for E2E_VIEWER_PASSWORD
password_for E2E_EDITOR_PASSWORD

# Rancher 2.13 and newer serve the ext.cattle.io types and keep local passwords in Secrets.
if rancher_api GET /v1/schemas/ext.cattle.io.passwordchangerequest >/dev/null 2>&1; then password_secrets=yes; else password_secrets=no; fi

# ensure_user NAME PASSWORD: prints the user's id, creating the user, its password and bindings.
ensure_user() {
  local name=$1 password=$2 id
  id=$(rancher_api GET /v1/management.cattle.io.users | jq -r --arg u "$name" 'first(.data[] | select(.username == $u) | .id) // empty')
  if [ -z "$id" ]; then
    if [ "$password_secrets" = yes ]; then
      id=$(rancher_api POST /v1/management.cattle.io.users "$(jq -n --arg u "$name" \
        '{type: "management.cattle.io.user", username: $u, displayName: $u, enabled: true, mustChangePassword: false}')" | jq -re .id)
      rancher_api POST /v1/secrets "$(jq -n --arg id "$id" --arg p "$(printf %s "$password" | base64 | tr -d '\n')" \
        '{type: "secret", metadata: {namespace: "cattle-local-user-passwords", name: $id}, data: {password: $p}}')" >/dev/null
    else
      id=$(rancher_api POST /v3/users "$(jq -n --arg u "$name" --arg p "$password" \
        '{type: "user", username: $u, name: $u, password: $p, enabled: true, mustChangePassword: false}')" | jq -re .id)
    fi
    rancher_api POST /v3/globalrolebindings "$(jq -n --arg id "$id" \
      '{type: "globalRoleBinding", globalRoleId: "user-base", userId: $id}')" >/dev/null
    rancher_api POST /v3/clusterroletemplatebindings "$(jq -n --arg id "$id" \
      '{type: "clusterRoleTemplateBinding", clusterId: "local", roleTemplateId: "cluster-member", userId: $id}')" >/dev/null
    log "user $name ($id) created"
  fi
  retry 120 5 login "$name" "$password" >/dev/null || fail "$name ($id) cannot log in with the password in $STATE/env"
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
