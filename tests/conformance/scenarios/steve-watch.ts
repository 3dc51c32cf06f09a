// Steve's subscribe websocket as the extension's stores use it: a watch by label selector
// (stores/channel-versions.ts through the shell), resource.changes mode with a debounce (the
// shell's paginated lists, api/version-queries.ts), and a re-watch from a list's revision, in either mode.
import { RequestStep, SCENARIO_LABEL, Scenario, UserName } from '../scenario';

const NAME = 'steve-watch';
const TYPE = 'elemental.cattle.io.managedosversion';
const PATH = `/v1/${ TYPE }s`;
const SELECTOR = `${ SCENARIO_LABEL }=${ NAME }`;

function create(name: string): RequestStep {
  return {
    compare: 'object',
    request: {
      user:   'admin',
      method: 'POST',
      path:   PATH,
      body:   {
        type:     TYPE,
        metadata: {
          name, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME }
        },
        spec: {
          version: 'v1.0.0', type: 'container', metadata: { upgradeImage: 'registry.example.test/os:v1.0.0' }
        },
      },
    },
  };
}

function relabel(name: string): RequestStep {
  return {
    compare: 'object',
    request: {
      user: 'admin', method: 'PATCH', path: `${ PATH }/fleet-default/${ name }`, contentType: 'application/merge-patch+json', body: { metadata: { labels: { step: 'patched' } } }
    },
  };
}

function remove(name: string): RequestStep {
  return {
    compare: 'status',
    request: {
      user: 'admin', method: 'DELETE', path: `${ PATH }/fleet-default/${ name }`
    }
  };
}

const viewer: UserName = 'viewer';

export const steveWatch: Scenario = {
  name:  NAME,
  about: 'ManagedOSVersion watches on /v1/subscribe: by label selector, resource.changes mode, and again from a list\'s revision',
  steps: [
    {
      compare: 'list',
      request: {
        user: viewer, method: 'GET', path: `${ PATH }?filter=metadata.labels[${ SCENARIO_LABEL }]=${ NAME }`
      }
    },
    {
      watch:     { user: viewer, subscribe: [{ resourceType: TYPE, selector: SELECTOR }] },
      during:    [create('conf-watch-1'), relabel('conf-watch-1'), remove('conf-watch-1')],
      collectMs: 2000,
    },
    {
      watch: {
        user:      viewer,
        subscribe: [{
          resourceType: TYPE, mode: 'resource.changes', debounceMs: 100
        }]
      },
      during:    [create('conf-watch-2'), remove('conf-watch-2')],
      collectMs: 2000,
    },
    {
      watch: {
        user: viewer, subscribe: [{ resourceType: TYPE, selector: SELECTOR }], atLastRevision: true
      },
      during:    [],
      collectMs: 2000,
    },
    // The shell's paginated list of versions re-watches in resource.changes mode from the page's revision.
    {
      compare: 'list',
      request: {
        user: viewer, method: 'GET', path: `${ PATH }?filter=metadata.labels[${ SCENARIO_LABEL }]=${ NAME }&page=1&pagesize=10`
      }
    },
    {
      watch: {
        user:      viewer,
        subscribe: [{
          resourceType: TYPE, mode: 'resource.changes', debounceMs: 100
        }],
        atLastRevision: true,
      },
      during:    [create('conf-watch-3'), remove('conf-watch-3')],
      collectMs: 2000,
    },
  ],
};
