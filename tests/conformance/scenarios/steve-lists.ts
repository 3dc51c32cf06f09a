// Steve's SQL-cache lists as the extension reads ManagedOSVersions (docs/shell-queries.md):
// a channel by label (api/version-queries.ts), pins by name OR-ed (stores/pool-list.ts), a count
// with pagesize=1 (countChannelVersions), the counts of every channel from Steve's summary
// (countVersionsByChannel), pages and sort.
import { SCENARIO_LABEL, Scenario, Step } from '../scenario';

const NAME = 'steve-lists';
const TYPE = '/v1/elemental.cattle.io.managedosversions';
const CHANNEL_LABEL = 'elemental.cattle.io/channel';
const MINE = `filter=metadata.labels[${ SCENARIO_LABEL }]=${ NAME }`;

function version(name: string, channel: string, version: string): Step {
  return {
    compare: 'object',
    request: {
      user:   'admin',
      method: 'POST',
      path:   TYPE,
      body:   {
        type:     'elemental.cattle.io.managedosversion',
        metadata: {
          name, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME, [CHANNEL_LABEL]: channel }
        },
        spec: {
          version, type: 'container', metadata: { upgradeImage: `registry.example.test/os:${ version }` }
        },
      },
    },
  };
}

function list(query: string, settleMs?: number): Step {
  return {
    compare: 'list',
    settleMs,
    request: {
      user: 'viewer', method: 'GET', path: `${ TYPE }?${ MINE }&${ query }`
    }
  };
}

function remove(name: string): Step {
  return {
    compare: 'status',
    request: {
      user: 'admin', method: 'DELETE', path: `${ TYPE }/fleet-default/${ name }`
    }
  };
}

export const steveLists: Scenario = {
  name:  NAME,
  about: 'ManagedOSVersion lists through Steve\'s SQL cache: label filters, name filters OR-ed, count, pages, sort, namespace',
  steps: [
    version('conf-l-a1', 'conf-a', 'v1.0.0'),
    version('conf-l-a2', 'conf-a', 'v1.0.1'),
    version('conf-l-b1', 'conf-b', 'v2.0.0'),
    list(`filter=metadata.labels[${ CHANNEL_LABEL }] IN (conf-a)&exclude=metadata.managedFields`, 2000),
    list('filter=metadata.name=conf-l-a1,metadata.name=conf-l-b1&sort=metadata.name'),
    list('filter=metadata.namespace=fleet-default&page=1&pagesize=1'),
    list('sort=metadata.name&page=2&pagesize=2'),
    list('sort=-metadata.name'),
    list(`filter=metadata.labels[${ CHANNEL_LABEL }]&filter=!metadata.labels[no-such-label]&sort=metadata.name`),
    list('projectsornamespaces=fleet-local'),
    // The channels list's counts: Steve's summary of the channel label (countVersionsByChannel).
    {
      compare: 'list',
      request: {
        user: 'viewer', method: 'GET', path: `${ TYPE }/fleet-default?${ MINE }&summary=metadata.labels%5B${ encodeURIComponent(CHANNEL_LABEL) }%5D&summaryonly=true`
      }
    },
    list(`summary=metadata.labels[${ CHANNEL_LABEL }]&summarynamespaced=true&pagesize=1`),
    list(`summary=metadata.labels[${ CHANNEL_LABEL }]&summarynamespaced=true&summaryonly=true`),
    list('filter=metadata.name=no-such-version'),
    remove('conf-l-a1'),
    remove('conf-l-a2'),
    remove('conf-l-b1'),
    list('sort=metadata.name', 2000),
  ],
};
