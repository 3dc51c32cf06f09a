// The users `limited` and `member` in the management cluster (README "Users"): they read it as the
// viewer does, so the pools list shows them the admin's pool, the pools' schema offers no write,
// and a write is refused (403), which the extension relies on to hide or refuse its buttons.
// Their downstream limits are not Steve's of this cluster (docs/emulator.md).
import { SCENARIO_LABEL, Scenario, Step, UserName } from '../scenario';

const NAME = 'steve-reader-users';
const POOLS = '/v1/elemental.cattle.io.managedosimages';
const USERS: UserName[] = ['limited', 'member'];

function pool(name: string) {
  return {
    type:     'elemental.cattle.io.managedosimage',
    metadata: {
      name, namespace: 'fleet-default', labels: { [SCENARIO_LABEL]: NAME }
    },
    spec: { osImage: 'registry.example.test/os:v1.0.0' }
  };
}

function asUser(user: UserName): Step[] {
  return [
    {
      compare: 'list',
      request: {
        user, method: 'GET', path: `${ POOLS }/fleet-default?filter=metadata.labels[${ SCENARIO_LABEL }]=${ NAME }`
      }
    },
    {
      compare: 'schema',
      request: {
        user, method: 'GET', path: '/v1/schemas/elemental.cattle.io.managedosimage'
      }
    },
    {
      compare: 'error',
      request: {
        user, method: 'POST', path: POOLS, body: pool(`conf-r-${ user }`)
      }
    },
    {
      compare: 'error',
      request: {
        user, method: 'DELETE', path: `${ POOLS }/fleet-default/conf-r-admin`
      }
    },
  ];
}

export const steveReaderUsers: Scenario = {
  name:  NAME,
  about: 'limited and member in the management cluster: the pools list, the pools\' schema, and a pool create and delete refused (403)',
  steps: [
    {
      compare: 'object',
      request: {
        user: 'admin', method: 'POST', path: POOLS, body: pool('conf-r-admin')
      }
    },
    ...USERS.flatMap(asUser),
    {
      compare: 'status',
      request: {
        user: 'admin', method: 'DELETE', path: `${ POOLS }/fleet-default/conf-r-admin`
      }
    },
  ],
};
