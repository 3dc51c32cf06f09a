// ManagedOSImage writes on the Kubernetes API itself (/apis/…, which Rancher proxies at
// /k8s/clusters/local and Steve at its root): the answers a pool write gets from the API server,
// for each user: 201, 403 Forbidden, 422 Invalid with the field of each cause, 409 AlreadyExists
// and Conflict, a list by label selector.
import { SCENARIO_LABEL, Scenario, Step, UserName } from '../scenario';

const NAME = 'kube-writes';
const IMAGES = '/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages';
const MINE = `labelSelector=${ encodeURIComponent(`${ SCENARIO_LABEL }=${ NAME }`) }`;

function image(name: string, spec: Record<string, unknown>, resourceVersion?: string): Record<string, unknown> {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME }, ...(resourceVersion ? { resourceVersion } : {})
    },
    spec,
  };
}

function write(user: UserName, method: 'POST' | 'PUT', path: string, body: Record<string, unknown>, compare: 'object' | 'kube-error'): Step {
  return {
    compare,
    request: {
      user, method, path, body
    }
  };
}

function list(settleMs?: number): Step {
  return {
    compare: 'kube-list',
    settleMs,
    request: {
      user: 'viewer', method: 'GET', path: `${ IMAGES }?${ MINE }`
    }
  };
}

export const kubeWrites: Scenario = {
  name:  NAME,
  about: 'ManagedOSImage writes on the Kubernetes API for admin, viewer and editor: 201, 403, 422 with its causes, 409, and a list by label',
  steps: [
    write('editor', 'POST', IMAGES, image('conf-k-editor', { osImage: 'registry.example.test/os:v1.0.0' }), 'object'),
    write('viewer', 'POST', IMAGES, image('conf-k-viewer', { osImage: 'registry.example.test/os:v1.0.0' }), 'kube-error'),
    write('admin', 'POST', IMAGES, image('conf-k-invalid', { osImage: 7, concurrency: 'many' }), 'kube-error'),
    write('admin', 'POST', IMAGES, image('conf-k-editor', { osImage: 'registry.example.test/os:v1.0.0' }), 'kube-error'),
    write('admin', 'PUT', `${ IMAGES }/conf-k-editor`, image('conf-k-editor', { osImage: 'registry.example.test/os:v2.0.0' }, '1'), 'kube-error'),
    list(),
    {
      compare: 'status',
      request: {
        user: 'viewer', method: 'DELETE', path: `${ IMAGES }/conf-k-editor`
      }
    },
    {
      compare: 'status',
      request: {
        user: 'editor', method: 'DELETE', path: `${ IMAGES }/conf-k-editor`
      }
    },
    list(),
  ],
};
