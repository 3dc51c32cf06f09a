// Writes the extension makes to ManagedOSImages through Steve, each user's answer: the pool form
// and approve dialog (api/pools.ts), their 409 on a stale resourceVersion, 422 from the CRD's
// schema, and 403 where RBAC refuses (the viewer everywhere, the editor outside fleet-default).
import {
  Comparison, SCENARIO_LABEL, Scenario, Step, UserName
} from '../scenario';

const NAME = 'steve-writes';
const TYPE = '/v1/elemental.cattle.io.managedosimages';

function pool(name: string, namespace: string, spec: Record<string, unknown> = { osImage: 'registry.example.test/os:v1.0.0' }) {
  return {
    type:     'elemental.cattle.io.managedosimage',
    metadata: {
      name, namespace, labels: { [SCENARIO_LABEL]: NAME }
    },
    spec
  };
}

function create(user: UserName, body: unknown, compare: Comparison = 'object'): Step {
  return {
    compare,
    request: {
      user, method: 'POST', path: TYPE, body
    }
  };
}

export const steveWrites: Scenario = {
  name:  NAME,
  about: 'ManagedOSImage create, get, update, patch and delete through Steve for admin, viewer and editor: 201, 200, 404, 409, 422, 403',
  steps: [
    create('admin', pool('conf-w-admin', 'fleet-default')),
    {
      compare: 'object',
      request: {
        user: 'viewer', method: 'GET', path: `${ TYPE }/fleet-default/conf-w-admin`
      }
    },
    {
      compare: 'error',
      request: {
        user: 'viewer', method: 'GET', path: `${ TYPE }/fleet-default/conf-w-missing`
      }
    },
    create('admin', pool('conf-w-admin', 'fleet-default'), 'error'),
    {
      compare: 'error',
      request: {
        user:   'admin',
        method: 'PUT',
        path:   `${ TYPE }/fleet-default/conf-w-admin`,
        body:   {
          ...pool('conf-w-admin', 'fleet-default'),
          metadata: {
            name: 'conf-w-admin', namespace: 'fleet-default', resourceVersion: '1'
          }
        }
      },
    },
    create('admin', pool('conf-w-invalid', 'fleet-default', { osImage: 5 }), 'error'),
    create('viewer', pool('conf-w-viewer', 'fleet-default'), 'error'),
    create('editor', pool('conf-w-editor', 'fleet-local'), 'error'),
    create('editor', pool('conf-w-editor', 'fleet-default')),
    {
      compare: 'object',
      request: {
        user: 'editor', method: 'PATCH', path: `${ TYPE }/fleet-default/conf-w-admin`, contentType: 'application/merge-patch+json', body: { spec: { osImage: 'registry.example.test/os:v1.0.1' } }
      },
    },
    {
      compare: 'error',
      request: {
        user: 'viewer', method: 'DELETE', path: `${ TYPE }/fleet-default/conf-w-admin`
      }
    },
    {
      compare: 'status',
      request: {
        user: 'editor', method: 'DELETE', path: `${ TYPE }/fleet-default/conf-w-editor`
      }
    },
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'DELETE', path: `${ TYPE }/fleet-default/conf-w-admin`
      }
    },
  ],
};
