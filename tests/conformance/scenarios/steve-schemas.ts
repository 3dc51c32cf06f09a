// The schemas Steve gives each user: the extension shows or hides every write (Approve, Edit,
// Delete, Withdraw) by the methods of a type's schema (the shell's canCreate/canUpdate), which
// Steve derives from the user's RBAC in any namespace (rancher/steve pkg/schema/factory.go).
import { Scenario, UserName } from '../scenario';

const TYPES = ['elemental.cattle.io.managedosimage', 'elemental.cattle.io.managedosversion', 'elemental.cattle.io.managedosversionchannel'];
const USERS: UserName[] = ['admin', 'viewer', 'editor'];

export const steveSchemas: Scenario = {
  name:  'steve-schemas',
  about: 'The Elemental types\' schemas for admin, viewer and editor: which methods each is given, and which Elemental schemas the list has (the operator\'s presence, api/operator.ts)',
  steps: [
    ...USERS.flatMap((user) => TYPES.map((type) => ({
      compare: 'schema' as const,
      request: {
        user, method: 'GET' as const, path: `/v1/schemas/${ type }`
      },
    }))),
    ...USERS.map((user) => ({
      compare: 'schema-ids' as const,
      request: {
        user, method: 'GET' as const, path: '/v1/schemas'
      },
    })),
  ],
};
