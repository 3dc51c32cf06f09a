// `--real-stack-downstream <id>`: that downstream cluster's machines and system-upgrade-controller
// on the real stack. Its nodes (as the emulator seeds them, suc/nodes.ts) are created as kwok nodes,
// afresh at each start so a run starts from the seed, and the SUC client (real-suc.ts) runs the
// Plans the real Fleet agent applies there. The cluster's /k8s/clusters/<id> is the stack's
// (real-stack-routes.ts), so the nodes, Jobs and Pods the extension reads are the stack's.

import { EmulatedNode, NodeRegistry, prettyName } from '../suc/nodes';
import { KubeEndpoint, RemoteControllerApi } from './remote-api';
import { kwokNode } from './kwok-nodes';
import { RealStackSuc, sucTypes } from './real-suc';

export interface StackDownstream {
  suc: RealStackSuc;
  api: RemoteControllerApi;
  stop(): void;
}

/** A Rancher cluster id's Fleet cluster (its label management.cattle.io/cluster-name), as the emulator seeds it. */
export type FleetClusterOf = (id: string) => { namespace: string; name: string } | undefined;

/** Creates the clusters' nodes on the stack and starts the SUC client. */
export async function startStackDownstream(endpoint: KubeEndpoint, ids: string[], registry: NodeRegistry, fleetClusterOf: FleetClusterOf): Promise<StackDownstream> {
  const types = sucTypes();
  const node = types.require('node');
  const api = new RemoteControllerApi(endpoint, types, ['upgrade.cattle.io.plan', 'node', 'batch.job', 'pod'].map((id) => types.require(id)));
  const hosts = new Map<string, EmulatedNode>();

  await api.start();
  for (const id of ids) {
    const cluster = fleetClusterOf(id);

    for (const host of (cluster && registry.of(cluster.namespace, cluster.name)) ?? []) {
      hosts.set(host.name, host);
      await api.delete(node, undefined, host.name);
      await api.create(node, undefined, kwokNode(host));
      // A node's status is not taken on create: the kubelet (here the harness) reports it.
      await api.patch(node, undefined, host.name, { status: { nodeInfo: { osImage: prettyName(host.release) } } }, 'status');
    }
  }
  const suc = new RealStackSuc(api, types, hosts);

  suc.start();

  return {
    suc,
    api,
    stop: () => {
      suc.stop();
      api.stop();
    }
  };
}
