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

export const KNOWN_DIFFERENCES: Record<string, string> = {
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
};
