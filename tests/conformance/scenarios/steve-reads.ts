// The other reads the extension makes: the namespaces a user may create pools in (Steve's
// checkPermissions, api/resources.ts creatableNamespacesOf), the pools and channels lists
// (stores/pool-list.ts, stores/channels.ts: findAll), and a channel's count when it has no
// versions (api/version-queries.ts countChannelVersions: a page of one).
import { SCENARIO_LABEL, Scenario, Step, UserName } from '../scenario';

const NAME = 'steve-reads';
const MINE = `filter=metadata.labels[${ SCENARIO_LABEL }]=${ NAME }`;
const IMAGES = '/v1/elemental.cattle.io.managedosimages';
const CHANNELS = '/v1/elemental.cattle.io.managedosversionchannels';
const VERSIONS = '/v1/elemental.cattle.io.managedosversions';
const USERS: UserName[] = ['admin', 'viewer', 'editor'];
const metadata = (name: string) => ({
  name, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME }
});

function create(path: string, body: Record<string, unknown>): Step {
  return {
    compare: 'object',
    request: {
      user: 'admin', method: 'POST', path, body
    }
  };
}

function remove(path: string): Step {
  return {
    compare: 'status',
    request: {
      user: 'admin', method: 'DELETE', path
    }
  };
}

function list(user: UserName, path: string, settleMs?: number): Step {
  return {
    compare: 'list',
    settleMs,
    request: {
      user, method: 'GET', path
    }
  };
}

export const steveReads: Scenario = {
  name:  NAME,
  about: 'The namespaces each user may create pools in (checkPermissions), the pools and channels lists, and the count of a channel without versions',
  steps: [
    ...USERS.map((user): Step => ({
      compare: 'permissions',
      request: {
        user, method: 'GET', path: '/v1/namespaces?checkPermissions=elemental.cattle.io.managedosimage&exclude=metadata.managedFields'
      },
    })),
    create(IMAGES, {
      type: 'elemental.cattle.io.managedosimage', metadata: metadata('conf-r-pool'), spec: { osImage: 'registry.example.test/os:v1.0.0' }
    }),
    create(CHANNELS, {
      type: 'elemental.cattle.io.managedosversionchannel', metadata: metadata('conf-r-channel'), spec: { type: 'custom', options: {} }
    }),
    // Steve's SQL cache sees the writes through its watch: the first list waits for it.
    ...USERS.map((user, i) => list(user, `${ IMAGES }?${ MINE }&exclude=metadata.managedFields`, i === 0 ? 1000 : undefined)),
    list('viewer', `${ CHANNELS }?${ MINE }&exclude=metadata.managedFields`),
    list('viewer', `${ VERSIONS }?filter=metadata.namespace=fleet-default&filter=metadata.labels[elemental.cattle.io/channel] IN (conf-r-channel)&page=1&pagesize=1&exclude=metadata.managedFields`),
    remove(`${ IMAGES }/fleet-default/conf-r-pool`),
    remove(`${ CHANNELS }/fleet-default/conf-r-channel`),
  ],
};
