// The downstream cluster's machines as kwok nodes on the real stack (`--backend real-stack`): the
// names and labels the emulator seeds (suc/nodes.ts NodeRegistry), annotated so kwok manages them
// (scripts/real-stack/up: --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake); kwok's
// node-initialize and node-heartbeat stages (sigs.k8s.io/kwok kustomize/stage/node) make them Ready.
// No taint: kwok's own examples taint their nodes, but the SUC's pods tolerate only
// node.kubernetes.io/unschedulable (rancher/system-upgrade-controller pkg/upgrade/job/job.go).

import { JsonObject } from '../core/json';
import { EmulatedNode, prettyName } from '../suc/nodes';

export const KWOK_ANNOTATION = 'kwok.x-k8s.io/node';

export function kwokNode(host: EmulatedNode): JsonObject {
  return {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name: host.name, labels: { ...host.labels, type: 'kwok' }, annotations: { [KWOK_ANNOTATION]: 'fake' }
    },
    spec:   {},
    // The kubelet's report of /etc/os-release PRETTY_NAME (suc/nodes.ts), which kwok keeps.
    status: {
      nodeInfo: {
        osImage: prettyName(host.release), operatingSystem: 'linux', architecture: 'amd64'
      }
    },
  };
}
