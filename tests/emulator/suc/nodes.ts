// The machines of the emulated Fleet clusters: what suc-upgrade reads on a host
// (rancher/elemental framework/files/usr/sbin/suc-upgrade): IMAGE_REPO and IMAGE_TAG of
// /etc/os-release, and whether it booted in active mode (/run/cos/active_mode). Plus the node
// labels the system-upgrade-controller reads and writes (pkg/upgrade/plan/plan.go) and what a
// job on it is doing now. Never stored in the API: the control endpoints show them.
// At every boot Elemental's elemental-populate-node-labels (rancher/elemental
// framework/files/usr/sbin/elemental-populate-node-labels, a oneshot unit) writes node-label+
// `elemental.cattle.io/image=<IMAGE with / and : as ->`, `elemental.cattle.io/tag=<IMAGE_TAG>` and
// `plan.upgrade.cattle.io/os-upgrader=<the same>` into the RKE2/K3s config, and the agent patches
// the node with them at each start (k3s-io/k3s pkg/agent/run.go configureNode,
// updateMutableLabels). elemental-populate-node-labels does not shorten the image label: for
// registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12 it is 64 characters, over the 63 a
// label value may have (k8s.io/apimachinery pkg/util/validation IsValidLabelValue). The kubelet
// gets the labels as --node-labels and refuses to start with an invalid one (kubernetes
// cmd/kubelet/app/options/options.go ValidateKubeletFlags, "invalid node labels"), so bootInto
// keeps the labels of the older boot and marks the kubelet stopped: the Node turns Ready=Unknown
// (rancher/downstream.ts) and no pod runs on it, so its Job ends at its deadline (suc.ts).
// The kubelet reports osImage as /etc/os-release PRETTY_NAME
// (SL-Micro-release: "SUSE Linux Micro 6.1"), never the image tag.

import { labelValueErrors } from '../kube/validate';

export type NodeState = 'idle' | 'cordoned' | 'draining' | 'upgrading' | 'rebooting' | 'failed';

export interface OSRelease {
  /** IMAGE_REPO: the image without its tag. */
  repo: string;
  /** IMAGE_TAG. */
  tag: string;
}

export interface EmulatedNode {
  /** The Fleet cluster's namespace and name. */
  namespace: string;
  cluster: string;
  name: string;
  release: OSRelease;
  active: boolean;
  state: NodeState;
  /**
   * spec.unschedulable: set by a cordoning or draining Job's init containers, cleared only when a
   * Job of a Plan that cordons or drains completes on the node (rancher/system-upgrade-controller
   * pkg/upgrade/handle_batch.go). A Job that fails or is deleted (its Plan removed or moved to
   * another version) leaves the node cordoned until someone uncordons it.
   */
  unschedulable: boolean;
  /** The last thing the upgrade script printed (or the failure), '' before any job. */
  message: string;
  labels: Record<string, string>;
  /** Set by POST /__emulator/nodes/fail: the next job on this node fails with it… */
  failNext?: string;
  /** …and so many jobs after it (Infinity: every job). */
  failTimes?: number;
  /** Set by POST /__emulator/nodes/fail with reason DeadlineExceeded: the next job hangs, printing it. */
  hangNext?: string;
  /** Why the kubelet does not run since the last boot (it exits at start), unset while it runs. */
  kubeletStopped?: string;
}

/** What GET /__emulator/nodes reports of a node. */
export interface NodeReport {
  cluster: string;
  node: string;
  image: string;
  tag: string;
  active: boolean;
  state: NodeState;
  /** spec.unschedulable (cordoned), which outlives the Job that set it when that Job does not complete. */
  unschedulable: boolean;
  message: string;
  /** The kubelet's exit message when it does not run (bootInto). */
  kubeletStopped?: string;
}

/** The image of a cluster's nodes when no seeded pool says otherwise. */
export const DEFAULT_RELEASE: OSRelease = { repo: 'registry.suse.com/suse/sl-micro/6.1/base-os-container', tag: '2.2.0-3.8' };

/** `repo:tag` → IMAGE_REPO and IMAGE_TAG, the tag being `latest` when there is none (getImageVersion's rule). */
export function releaseOf(image: string): OSRelease {
  const slash = image.indexOf('/');
  const registry = slash >= 0 ? image.slice(0, slash + 1) : '';
  const rest = slash >= 0 ? image.slice(slash + 1) : image;
  const colon = rest.indexOf(':');

  return colon < 0 ? { repo: registry + rest, tag: 'latest' } : { repo: registry + rest.slice(0, colon), tag: rest.slice(colon + 1) };
}

/** The distribution's PRETTY_NAME, as the kubelet reports it in status.nodeInfo.osImage. */
export function prettyName(release: OSRelease): string {
  const version = /\/sl-micro\/(\d+\.\d+)\//.exec(`${ release.repo }/`)?.[1];

  return version ? `SUSE Linux Micro ${ version }` : 'SUSE Linux Micro';
}

/** The labels elemental-populate-node-labels writes for a host running `release`. */
export function populatedLabels(release: OSRelease): Record<string, string> {
  const image = `${ release.repo }:${ release.tag }`.replace(/[/:]/g, '-');

  return {
    'elemental.cattle.io/image': image, 'elemental.cattle.io/tag': release.tag, 'plan.upgrade.cattle.io/os-upgrader': image
  };
}

/** The kubelet's complaints about the labels populated for `release` (ValidateKubeletFlags); none when it starts. */
export function invalidNodeLabels(release: OSRelease): string[] {
  return Object.entries(populatedLabels(release)).flatMap(([key, value]) => labelValueErrors(value).map((error) => `${ key }=${ value }: ${ error }`));
}

/**
 * The host boots `release`: elemental-populate-node-labels, then the kubelet starts with them as
 * --node-labels. With an invalid value the kubelet exits at start (kubernetes
 * cmd/kubelet/app/options/options.go ValidateKubeletFlags: "invalid node labels: <errors>"), so
 * the host runs the new OS but the node keeps the older boot's labels and posts no status.
 * True when the kubelet starts.
 */
export function bootInto(node: EmulatedNode, release: OSRelease): boolean {
  node.release = { ...release };
  const labels = populatedLabels(release);
  const errors = invalidNodeLabels(release);

  if (errors.length) {
    node.kubeletStopped = `invalid node labels: ${ errors.join('; ') }`;

    return false;
  }
  node.kubeletStopped = undefined;
  Object.assign(node.labels, labels);

  return true;
}

export class NodeRegistry {
  private readonly nodes = new Map<string, EmulatedNode[]>();

  /** The nodes of a cluster, created on first use: `count` of them, running `release`. */
  ensure(namespace: string, cluster: string, count: number, release: OSRelease = DEFAULT_RELEASE): EmulatedNode[] {
    const key = `${ namespace }/${ cluster }`;
    let list = this.nodes.get(key);

    if (!list) {
      list = [];
      for (let i = 1; i <= Math.max(1, count); i++) {
        const name = `${ cluster }-node-${ i }`;

        const node: EmulatedNode = {
          namespace,
          cluster,
          name,
          release:       { ...release },
          active:        true,
          state:         'idle',
          unschedulable: false,
          message:       '',
          labels:        { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' },
        };

        bootInto(node, release);
        list.push(node);
      }
      this.nodes.set(key, list);
    }

    return list;
  }

  of(namespace: string, cluster: string): EmulatedNode[] | undefined {
    return this.nodes.get(`${ namespace }/${ cluster }`);
  }

  find(cluster: string, node: string): EmulatedNode | undefined {
    for (const list of this.nodes.values()) {
      const found = list.find((n) => n.name === node && (n.cluster === cluster || `${ n.namespace }/${ n.cluster }` === cluster));

      if (found) {
        return found;
      }
    }

    return undefined;
  }

  all(): EmulatedNode[] {
    return [...this.nodes.values()].flat();
  }

  report(): NodeReport[] {
    return this.all().map((n) => ({
      cluster: n.cluster, node: n.name, image: n.release.repo, tag: n.release.tag, active: n.active, state: n.state, unschedulable: n.unschedulable, message: n.message, ...(n.kubeletStopped ? { kubeletStopped: n.kubeletStopped } : {})
    }));
  }

  clear(): void {
    this.nodes.clear();
  }
}
