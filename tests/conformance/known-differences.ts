// Where the emulator answers differently from the recorded real programs, on purpose or not yet
// fixed: `<scenario>#<step index>` → why, and what it changes for a person (docs/emulator.md,
// "What is real"). The replay fails when one of these starts to match, so the list stays true.

// The real stack runs no Elemental operator yet; the emulator runs its ManagedOSVersionReconciler
// (rancher/elemental-operator controllers/managedosversion_controller.go), which puts the finalizer
// managedosversion.elemental.cattle.io on every ManagedOSVersion. So on the emulator a deleted
// version is Terminating for one reconcile: Steve answers its DELETE 200 with the object (rancher/steve
// pkg/stores/sqlproxy/proxy_store.go Delete) and a watch sees a change before the remove; on the
// real stack, with no finalizer, the version is gone at once (204, no change). For a person: none,
// the emulator is the one that behaves as a Rancher with the operator installed.
const NO_OPERATOR_VERSION_DELETE = 'no Elemental operator on the real stack: a deleted ManagedOSVersion has no finalizer there (204); the emulator\'s operator adds one (200, Terminating)';
const NO_OPERATOR_VERSION_EVENTS = 'no Elemental operator on the real stack: the emulator\'s operator adds and removes the version finalizer, a change event the real stack does not send';

// The real stack applies all 9 CRDs of elemental-operator v1.9.2 (config/crd/bases); the emulator
// serves only the types the extension reads (tests/fixtures/elemental/crds/ and the operator's
// metadata). For a person: nothing in the extension (api/operator.ts looks for those alone); the
// shell's own resource menus list no MachineInventories, MachineRegistrations or SeedImages.
const ONLY_EXTENSION_SCHEMAS = 'the emulator serves only the Elemental types the extension reads, not MachineInventory, MachineInventorySelector(Template), MachineRegistration and SeedImage';

// The emulator's management cluster serves no Nodes, Jobs or Pods: the extension reads those only on
// a downstream cluster (/k8s/clusters/<id>), where the emulator derives them, read-only, from its
// system-upgrade-controller (tests/emulator/rancher/downstream.ts). The real Job controller's
// answers recorded here decide what those derived Jobs show: a failed Job has FailureTarget and
// Failed, reason BackoffLimitExceeded, "Job has reached the specified backoff limit", failed 1.
// For a person: none; the pool's node table reads the Failed condition (domain/node-rollout.ts).
const NO_LOCAL_JOBS = 'the emulator\'s management cluster serves no Nodes, Jobs or Pods (its upgrade Jobs are derived on downstream clusters, downstream.ts)';

// downstream-rollout: the stack stands in for edge-berlin-01 with kwok nodes and the emulator's
// SUC client (tests/emulator/real-stack), which differ from a real cluster where the emulator does not.
//
// kwok runs no containers and serves no logs (no ClusterLogs configured): the real API server answers
// a pod's log 404 NotFound "pods/log" (measured on the stack with a plain pod on a kwok node too);
// a real kubelet serves the upgrade container's log, as the emulator does (its SUC's script output).
// For a person: on the stack the node table shows a failed node's Job message ("Job has reached the
// specified backoff limit") where a real cluster and the emulator show the script's last line
// (domain/node-rollout.ts failureText).
const KWOK_NO_LOGS = 'kwok serves no container logs: the stack\'s API server answers a pod\'s log 404, a real kubelet and the emulator the upgrade container\'s output';
// The stack's harness fails a pod by kwok's stage with the failure as the container's terminated
// message (tests/emulator/real-stack/suc-jobs.ts failingJob); on a host the SUC's upgrade container
// has the default terminationMessagePolicy File (job.go sets none) and the upgrade script writes no
// termination log, so the message is empty, as the emulator shows. For a person: nothing; the node
// table reads why from the pod's log, not from the container's state.
const HARNESS_POD_MESSAGE = 'the stack\'s kwok stage writes the failure as the container\'s terminated message; a host\'s (and the emulator\'s) is empty, the reason is in the log';

// A Bundle the scenario writes with empty `resources` and `targets`: the API server fills the CRD's
// default `targetCustomizationMode: FirstMatch` (rancher/fleet charts/fleet-crd), and real Fleet's
// controller writes the Bundle back through its Go types, whose empty lists are omitempty; the
// emulator keeps the spec as written. For a person: nothing, the extension reads a Bundle's
// targets and status, never an empty Bundle's spec (browser-requests#6, #28, #44).
const FLEET_BUNDLE_SPEC = 'real Fleet defaults targetCustomizationMode and writes an empty Bundle back without its empty lists; the emulator keeps the spec as written';

const DOWNSTREAM_ROLLOUT: Record<string, string> = {
  'downstream-rollout#8':  KWOK_NO_LOGS,
  'downstream-rollout#17': KWOK_NO_LOGS,
  'downstream-rollout#16': HARNESS_POD_MESSAGE,
};

export const KNOWN_DIFFERENCES: Record<string, string> = {
  ...DOWNSTREAM_ROLLOUT,
  'kube-controllers#20': NO_LOCAL_JOBS,
  'kube-controllers#21': NO_LOCAL_JOBS,
  'kube-controllers#22': NO_LOCAL_JOBS,
  'kube-controllers#23': NO_LOCAL_JOBS,
  'kube-controllers#24': NO_LOCAL_JOBS,
  'kube-controllers#25': NO_LOCAL_JOBS,
  'kube-controllers#26': NO_LOCAL_JOBS,
  'kube-controllers#27': NO_LOCAL_JOBS,
  'kube-controllers#28': NO_LOCAL_JOBS,
  'steve-schemas#9':     ONLY_EXTENSION_SCHEMAS,
  'steve-schemas#10':    ONLY_EXTENSION_SCHEMAS,
  'steve-schemas#11':    ONLY_EXTENSION_SCHEMAS,
  'steve-lists#14':      NO_OPERATOR_VERSION_DELETE,
  'steve-lists#15':      NO_OPERATOR_VERSION_DELETE,
  'steve-lists#16':      NO_OPERATOR_VERSION_DELETE,
  'steve-watch#3':       NO_OPERATOR_VERSION_DELETE,
  'steve-watch#6':       NO_OPERATOR_VERSION_DELETE,
  'steve-watch#11':      NO_OPERATOR_VERSION_DELETE,
  'steve-watch#8':       NO_OPERATOR_VERSION_EVENTS,
  'browser-requests#6':  FLEET_BUNDLE_SPEC,
  'browser-requests#28': FLEET_BUNDLE_SPEC,
  'browser-requests#44': FLEET_BUNDLE_SPEC,
  'browser-requests#40': ONLY_EXTENSION_SCHEMAS,
  'browser-requests#41': ONLY_EXTENSION_SCHEMAS,
  'browser-requests#50': NO_OPERATOR_VERSION_DELETE,
};
