// What kube-controller-manager does on its own time, which the emulator imitates: owner-reference
// garbage collection (the Bundle an image owns goes with it; background as Steve deletes, and
// foreground), a finalizer holding a dependent, a namespace's deletion removing what is in it, and
// a Job whose pod succeeds and one whose pod fails (the status the emulator's upgrade Jobs show).
// kwok runs the pods on a node it manages: its pod-complete stage succeeds a Job's pod, its
// pod-container-running-failed stage fails a pod labelled for it (tests/real-stack/kwok).
import { SCENARIO_LABEL, Scenario, Step } from '../scenario';
import { Answer, conditionTrue, deleting, itemNames } from './answers';

const NAME = 'kube-controllers';
const GROUP_API = '/apis/fleet.cattle.io/v1alpha1';
const GROUPS = `${ GROUP_API }/namespaces/fleet-default/clustergroups`;
const MINE = `labelSelector=${ encodeURIComponent(`${ SCENARIO_LABEL }=${ NAME }`) }`;
const HOLD = 'conformance.os-upgrades.cattle.io/hold';
const NAMESPACE = 'conf-kube-controllers';
const NODE = 'conf-kwok-node';
const JOBS = '/apis/batch/v1/namespaces/cattle-system/jobs';
/**
 * kube-controller-manager acts within a second or two; kwok's pod stages each wait 1 s plus up to
 * 5 s of jitter, and on a loaded machine with Debian's etcd 3.4 (no watch streams, see
 * scripts/real-stack/lib.sh) its informers see a pod late: a Job took up to a minute.
 */
const WITHIN_MS = 120000;

const names = itemNames;
/** A Job's condition is True; or the Job is not served at all (the emulator's management cluster has no Jobs). */
const hasCondition = (type: string) => (answer: Answer) => answer.status >= 400 || conditionTrue(answer, type);

function group(name: string, options: { owner?: string; hold?: boolean; namespace?: string } = {}): Record<string, unknown> {
  return {
    apiVersion: 'fleet.cattle.io/v1alpha1',
    kind:       'ClusterGroup',
    metadata:   {
      name,
      namespace: options.namespace ?? 'fleet-default',
      labels:    { [SCENARIO_LABEL]: NAME },
      ...(options.owner ? {
        ownerReferences: [{
          apiVersion: 'fleet.cattle.io/v1alpha1', kind: 'ClusterGroup', name: options.owner, uid: `{uid:${ options.owner }}`, blockOwnerDeletion: true
        }]
      } : {}),
      ...(options.hold ? { finalizers: [HOLD] } : {}),
    },
    spec: { selector: { matchLabels: { [SCENARIO_LABEL]: NAME } } },
  };
}

function post(path: string, body: Record<string, unknown>): Step {
  return {
    compare: 'kube-object',
    request: {
      user: 'admin', method: 'POST', path, body
    }
  };
}

function get(path: string, compare: 'kube-object' | 'kube-list' | 'kube-job', until?: (answer: Answer) => boolean): Step {
  return {
    compare,
    request: {
      user: 'admin', method: 'GET', path
    },
    ...(until ? { poll: { withinMs: WITHIN_MS, until } } : {}),
  };
}

/** Lets the held dependent go: its finalizer removed (a merge patch, as a controller would). */
function release(name: string): Step {
  return {
    compare: 'status',
    request: {
      user: 'admin', method: 'PATCH', path: `${ GROUPS }/${ name }`, body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json'
    }
  };
}

function job(name: string, fails: boolean): Record<string, unknown> {
  return {
    apiVersion: 'batch/v1',
    kind:       'Job',
    metadata:   { name, labels: { [SCENARIO_LABEL]: NAME } },
    spec:       {
      backoffLimit: 0,
      template:     {
        metadata: { labels: fails ? { 'pod-container-running-failed.stage.kwok.x-k8s.io': 'true' } : {} },
        spec:     {
          nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'upgrade', image: 'registry.example.test/os-upgrade:v1.0.0' }]
        },
      },
    },
  };
}

const groupsLeft = `${ GROUPS }?${ MINE }`;

export const kubeControllers: Scenario = {
  name:  NAME,
  needs: ['kube-controller-manager', 'kwok'],
  about: 'kube-controller-manager: owner-reference garbage collection (background through Steve, foreground on the API), a finalizer holding a dependent, namespace deletion, a Job that succeeds and one that fails on a kwok node',
  steps: [
    // Background: Steve deletes as the dashboard does; the collector deletes the dependents, and
    // a dependent with a finalizer stays Terminating until it is released.
    post(GROUPS, group('conf-gc-owner')),
    post(GROUPS, group('conf-gc-dep-1', { owner: 'conf-gc-owner' })),
    post(GROUPS, group('conf-gc-dep-2', { owner: 'conf-gc-owner', hold: true })),
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'DELETE', path: '/v1/fleet.cattle.io.clustergroups/fleet-default/conf-gc-owner'
      }
    },
    get(groupsLeft, 'kube-list', (a) => names(a).join() === 'conf-gc-dep-2'),
    get(`${ GROUPS }/conf-gc-dep-2`, 'kube-object', deleting),
    release('conf-gc-dep-2'),
    get(groupsLeft, 'kube-list', (a) => names(a).length === 0),
    // Foreground: the owner waits, Terminating with the foregroundDeletion finalizer, until its
    // dependents are gone.
    post(GROUPS, group('conf-fg-owner')),
    post(GROUPS, group('conf-fg-dep', { owner: 'conf-fg-owner', hold: true })),
    {
      compare: 'kube-object',
      request: {
        user:   'admin',
        method: 'DELETE',
        path:   `${ GROUPS }/conf-fg-owner`,
        body:   {
          apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground'
        }
      }
    },
    get(`${ GROUPS }/conf-fg-dep`, 'kube-object', deleting),
    get(`${ GROUPS }/conf-fg-owner`, 'kube-object'),
    release('conf-fg-dep'),
    get(groupsLeft, 'kube-list', (a) => names(a).length === 0),
    // A namespace: Terminating while the namespace controller deletes its content, then gone.
    post('/api/v1/namespaces', {
      apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE, labels: { [SCENARIO_LABEL]: NAME } }
    }),
    post(`${ GROUP_API }/namespaces/${ NAMESPACE }/clustergroups`, group('conf-ns-group', { namespace: NAMESPACE })),
    {
      compare: 'kube-object',
      request: {
        user: 'admin', method: 'DELETE', path: `/api/v1/namespaces/${ NAMESPACE }`
      }
    },
    get(`${ GROUP_API }/namespaces/${ NAMESPACE }/clustergroups`, 'kube-list', (a) => names(a).length === 0),
    get(`/api/v1/namespaces/${ NAMESPACE }`, 'kube-object', (a) => a.status === 404),
    // Jobs on a node kwok manages (no kubelet: the pods' states are kwok's stages).
    post('/api/v1/nodes', {
      apiVersion: 'v1',
      kind:       'Node',
      metadata:   {
        name: NODE, labels: { [SCENARIO_LABEL]: NAME }, annotations: { 'kwok.x-k8s.io/node': 'fake' }
      }
    }),
    post(JOBS, job('conf-job-succeeds', false)),
    post(JOBS, job('conf-job-fails', true)),
    get(`${ JOBS }/conf-job-succeeds`, 'kube-job', hasCondition('Complete')),
    get(`${ JOBS }/conf-job-fails`, 'kube-job', hasCondition('Failed')),
    {
      compare: 'status',
      request: {
        user:   'admin',
        method: 'DELETE',
        path:   `${ JOBS }/conf-job-succeeds`,
        body:   {
          apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background'
        }
      }
    },
    {
      compare: 'status',
      request: {
        user:   'admin',
        method: 'DELETE',
        path:   `${ JOBS }/conf-job-fails`,
        body:   {
          apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background'
        }
      }
    },
    get(`/api/v1/namespaces/cattle-system/pods?labelSelector=${ encodeURIComponent('batch.kubernetes.io/job-name in (conf-job-succeeds,conf-job-fails)') }`, 'kube-list', (a) => names(a).length === 0),
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'DELETE', path: `/api/v1/nodes/${ NODE }`
      }
    },
  ],
};
