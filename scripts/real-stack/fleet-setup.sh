# Fleet on the real stack, sourced by scripts/real-stack/up (which gives STATE, BIN, LOGS, MODULES,
# BASE_PORT, APISERVER_PORT, KUBECONFIG_FILE, NODE, start, wait_for, log and api).
#
# As under Rancher: the fleet-controller Deployment's containers run as processes (rancher/fleet
# charts/fleet/templates/deployment.yaml: `fleetcontroller` and `fleetcontroller agentmanagement`,
# env NAMESPACE=cattle-fleet-system), configured by the ConfigMap fleet-controller (its
# configmap.yaml; apiServerURL and apiServerCA are this API server's). Rancher's own part is
# applied by fleet_manifest: a Fleet Cluster per cluster with a kubeconfig Secret
# (rancher/rancher pkg/controllers/provisioningv2/fleetcluster/fleetcluster.go), the local one in
# fleet-local and one "downstream" cluster in fleet-default, both pointing at this same API server.
# Fleet's agent management then registers each, manager-initiated (rancher/fleet
# internal/cmd/controller/agentmanagement/controllers/cluster/import.go importCluster): it writes
# the agent's ConfigMap, its bootstrap Secret and its Deployment into the cluster's agent
# namespace. kwok runs no containers, so fleet_start_agents runs the agent binary on the host
# instead, with that Deployment's environment; it registers itself (internal/cmd/agent/register)
# and deploys its cluster's BundleDeployments into this same API server.

FLEET_SYSTEM_NAMESPACE=cattle-fleet-system
# name, namespace, agent namespace, labels (JSON): the seed's clusters (tests/emulator/rancher/seed.ts
# and tests/fixtures/clusters/seed/fleet.yaml). Two agents share one API server, so each has its
# own agent namespace (the local one is Rancher's).
FLEET_CLUSTERS=(
  'local fleet-local cattle-fleet-local-system {"name":"local","management.cattle.io/cluster-name":"local","provider.cattle.io":"k3s"}'
  'edge-berlin-01 fleet-default cattle-fleet-edge-berlin-01-system {"management.cattle.io/cluster-name":"c-m-b3rl1n01","env":"production","site":"berlin","role":"edge"}'
)

# fleet_manifest FILE: writes the ConfigMap, the Clusters and their kubeconfig Secrets (JSON documents).
fleet_manifest() {
  local file=$1 ca server kubeconfig
  ca=$(base64 -w0 "$STATE/apiserver-certs/apiserver.crt")
  server="https://127.0.0.1:$APISERVER_PORT"
  kubeconfig=$(printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "%s", certificate-authority-data: "%s"}\nusers:\n- name: u\n  user: {token: real-stack-admin}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n' "$server" "$ca" | base64 -w0)
  {
    echo "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"$FLEET_SYSTEM_NAMESPACE\"}}"
    echo '---'
    # charts/fleet/templates/configmap.yaml with its values.yaml defaults; bootstrap off, as Rancher runs it.
    local config="{\"agentImage\":\"rancher/fleet-agent:v0.16.0\",\"agentImagePullPolicy\":\"IfNotPresent\",\"apiServerURL\":\"$server\",\"apiServerCA\":\"$ca\",\"agentCheckinInterval\":\"15s\",\"agentTLSMode\":\"strict\",\"ignoreClusterRegistrationLabels\":false,\"bootstrap\":{\"namespace\":\"-\"}}"
    echo "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fleet-controller\",\"namespace\":\"$FLEET_SYSTEM_NAMESPACE\"},\"data\":{\"config\":$(printf '%s' "$config" | "$NODE" -e 'process.stdout.write(JSON.stringify(require("fs").readFileSync(0,"utf8")))')}}"
    # An agent whose config names no client id registers with its cluster's kube-system uid
    # (internal/cmd/agent/register/register.go): the local cluster gets that one, so its agent is
    # matched to it whichever config it reads first.
    local entry name namespace agent_namespace labels client_id kube_system_uid
    kube_system_uid=$(api /api/v1/namespaces/kube-system | "$NODE" -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).metadata.uid)')
    for entry in "${FLEET_CLUSTERS[@]}"; do
      read -r name namespace agent_namespace labels <<<"$entry"
      client_id=real-stack-$name
      [ "$name" = local ] && client_id=$kube_system_uid
      echo '---'
      echo "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"$name-kubeconfig\",\"namespace\":\"$namespace\"},\"data\":{\"value\":\"$kubeconfig\"}}"
      echo '---'
      echo "{\"apiVersion\":\"fleet.cattle.io/v1alpha1\",\"kind\":\"Cluster\",\"metadata\":{\"name\":\"$name\",\"namespace\":\"$namespace\",\"labels\":$labels},\"spec\":{\"kubeConfigSecret\":\"$name-kubeconfig\",\"agentNamespace\":\"$agent_namespace\",\"clientID\":\"$client_id\"}}"
    done
  } >"$file"
}

# charts/fleet/values.yaml leaderElection, which deployment.yaml passes as env (the controller
# refuses to start without them, even with --leader-elect=false).
FLEET_ELECTION_ENV=(CATTLE_ELECTION_LEASE_DURATION=30s CATTLE_ELECTION_RETRY_PERIOD=10s CATTLE_ELECTION_RENEW_DEADLINE=25s)
# The agent management container's own (values.yaml agent.replicas, agent.leaderElection), which it
# writes into each agent's Deployment.
FLEET_AGENT_MANAGEMENT_ENV=(FLEET_AGENT_REPLICA_COUNT=1 FLEET_AGENT_ELECTION_LEASE_DURATION=30s FLEET_AGENT_ELECTION_RETRY_PERIOD=10s
  FLEET_AGENT_ELECTION_RENEW_DEADLINE=25s FLEET_PROPAGATE_DEBUG_SETTINGS_TO_AGENTS=false FLEET_DEBUG_DISABLE_SECURITY_CONTEXT=false
  FLEET_REGISTRATION_TOKEN_TTL_REQUIRED=false)

fleet_start_controllers() {
  start fleet-controller env NAMESPACE=$FLEET_SYSTEM_NAMESPACE KUBECONFIG="$KUBECONFIG_FILE" "${FLEET_ELECTION_ENV[@]}" \
    FLEET_HEALTHPROBE_BIND_ADDRESS="127.0.0.1:$((BASE_PORT + 7))" \
    "$BIN/fleetcontroller" --kubeconfig "$KUBECONFIG_FILE" --leader-elect=false --disable-metrics
  start fleet-agentmanagement env NAMESPACE=$FLEET_SYSTEM_NAMESPACE KUBECONFIG="$KUBECONFIG_FILE" "${FLEET_ELECTION_ENV[@]}" "${FLEET_AGENT_MANAGEMENT_ENV[@]}" \
    "$BIN/fleetcontroller" agentmanagement --kubeconfig "$KUBECONFIG_FILE" --disable-bootstrap
  wait_for fleet-controller 120 curl -sf "http://127.0.0.1:$((BASE_PORT + 7))/healthz"
}

# The environment of the agent Deployment agent management wrote (NAMESPACE is its fieldRef).
fleet_agent_env() {
  api "/apis/apps/v1/namespaces/$1/deployments/fleet-agent" | "$NODE" -e '
    const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const env = d.spec.template.spec.containers[0].env ?? [];
    for (const e of env) console.log(`${ e.name }=${ e.valueFrom ? d.metadata.namespace : e.value ?? "" }`);'
}

fleet_start_agents() {
  local entry name namespace agent_namespace labels port=$((BASE_PORT + 8)) i
  for entry in "${FLEET_CLUSTERS[@]}"; do
    read -r name namespace agent_namespace labels <<<"$entry"
    for ((i = 0; i < 240; i++)); do
      api "/apis/apps/v1/namespaces/$agent_namespace/deployments/fleet-agent" >/dev/null 2>&1 && break
      sleep 0.5
    done
    # The agent reads its clientID and labels from the ConfigMap fleet-agent once, when it registers
    # (internal/cmd/agent/register/register.go); started before agent management wrote it, it
    # registered with the kube-system uid and no labels, as a new Cluster no Bundle targets.
    for ((i = 0; i < 240; i++)); do
      api "/api/v1/namespaces/$agent_namespace/configmaps/fleet-agent" 2>/dev/null | grep -q clientID && break
      sleep 0.5
    done
    local agent_env
    if ! agent_env=$(fleet_agent_env "$agent_namespace"); then
      log "no fleet-agent Deployment in $agent_namespace: see $LOGS/fleet-agentmanagement.log"
      return 1
    fi
    # shellcheck disable=SC2086 # one NAME=value a line
    start "fleet-agent-$name" env $(echo "$agent_env" | tr '\n' ' ') KUBECONFIG="$KUBECONFIG_FILE" HOSTNAME="fleet-agent-$name" \
      FLEET_AGENT_PPROF_DISABLED=true FLEET_AGENT_METRICS_BIND_ADDRESS="127.0.0.1:$port" FLEET_AGENT_PROBE_BIND_ADDRESS="127.0.0.1:$((port + 1))" \
      "$BIN/fleetagent" --leader-elect=false
    port=$((port + 2))
  done
}
