// Steve (/v1) and Norman (/v3) schemas. A Steve schema's resourceMethods/collectionMethods and
// attributes.verbs reflect what the logged-in user may do with the type.

import { JsonObject } from './json';
import { ResourceType } from './resource-types';
import { Actor, Verb } from './users';

/** Types Steve serves that are not stored Kubernetes objects. */
export const VIRTUAL_TYPES = ['schema', 'count', 'userpreference', 'ext.cattle.io.selfuser'];

function methods(verbs: Verb[]): { resourceMethods: string[]; collectionMethods: string[] } {
  const resourceMethods: string[] = [];
  const collectionMethods: string[] = [];

  if (verbs.includes('get')) {
    resourceMethods.push('GET');
  }
  if (verbs.includes('delete')) {
    resourceMethods.push('DELETE');
  }
  if (verbs.includes('update')) {
    resourceMethods.push('PUT');
  }
  if (verbs.includes('patch')) {
    resourceMethods.push('PATCH');
  }
  if (verbs.includes('list')) {
    collectionMethods.push('GET');
  }
  if (verbs.includes('create')) {
    collectionMethods.push('POST');
  }

  return { resourceMethods, collectionMethods };
}

function schemaLinks(base: string, id: string, collection: boolean): Record<string, string> {
  const links: Record<string, string> = { self: `${ base }/v1/schemas/${ id }` };

  if (collection) {
    links.collection = `${ base }/v1/${ id }s`;
  }

  return links;
}

export function steveSchema(type: ResourceType, base: string, actor: Actor): JsonObject {
  const verbs = actor.verbs(type.id);
  const { resourceMethods, collectionMethods } = methods(verbs);

  return {
    id:             type.id,
    type:           'schema',
    links:          schemaLinks(base, type.id, collectionMethods.includes('GET')),
    pluralName:     `${ type.id }s`,
    resourceMethods,
    collectionMethods,
    resourceFields: null,
    attributes:     {
      columns:    type.columns ?? [],
      group:      type.group,
      kind:       type.kind,
      namespaced: type.namespaced,
      resource:   type.plural,
      verbs:      [...verbs].sort(),
      version:    type.version,
    },
  };
}

function virtualSchema(id: string, base: string, actor: Actor | undefined): JsonObject {
  const loggedIn = !!actor;
  const shapes: Record<string, { resourceMethods: string[]; collectionMethods: string[]; attributes: JsonObject }> = {
    schema: {
      resourceMethods: ['GET'], collectionMethods: ['GET'], attributes: {}
    },
    count: {
      resourceMethods: ['GET'], collectionMethods: ['GET'], attributes: {}
    },
    userpreference: {
      resourceMethods: ['GET', 'PUT'], collectionMethods: ['GET'], attributes: {}
    },
    'ext.cattle.io.selfuser': {
      resourceMethods:   [],
      collectionMethods: ['POST'],
      attributes:        {
        group: 'ext.cattle.io', kind: 'SelfUser', namespaced: false, resource: 'selfusers', verbs: ['create'], version: 'v1'
      }
    },
  };
  const shape = shapes[id];

  return {
    id,
    type:              'schema',
    links:             schemaLinks(base, id, loggedIn && shape.collectionMethods.includes('GET')),
    pluralName:        `${ id }s`,
    resourceMethods:   shape.resourceMethods,
    collectionMethods: shape.collectionMethods,
    resourceFields:    null,
    attributes:        shape.attributes,
  };
}

/** Every /v1 schema the caller can see; before login only the settings and schema types. */
export function steveSchemas(types: ResourceType[], base: string, actor: Actor | undefined): JsonObject[] {
  if (!actor) {
    const settings = types.find((t) => t.id === 'management.cattle.io.setting');
    const anonymous: Actor = { name: 'system:unauthenticated', verbs: () => ['get', 'list'] };

    return [virtualSchema('schema', base, undefined), ...(settings ? [steveSchema(settings, base, anonymous)] : [])];
  }

  return [
    ...VIRTUAL_TYPES.map((id) => virtualSchema(id, base, actor)),
    ...types.map((t) => steveSchema(t, base, actor)),
  ].sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/** The Norman (/v3) types the dashboard's `rancher` store looks up. */
const NORMAN_TYPES: Record<string, string[]> = {
  principal:                  ['GET'],
  user:                       ['GET'],
  setting:                    ['GET'],
  token:                      ['GET', 'DELETE'],
  authConfig:                 ['GET'],
  cluster:                    ['GET'],
  project:                    ['GET'],
  preference:                 ['GET'],
  subscribe:                  ['GET'],
  localConfig:                ['GET'],
  globalRole:                 ['GET'],
  clusterRoleTemplateBinding: ['GET'],
};

export function normanSchemas(base: string, actor: Actor | undefined): JsonObject[] {
  return Object.entries(NORMAN_TYPES)
    .filter(([id]) => actor || id === 'principal' || id === 'setting')
    .map(([id, resourceMethods]) => ({
      id,
      type:              'schema',
      baseType:          'schema',
      links:             { self: `${ base }/v3/schemas/${ id.toLowerCase() }`, collection: `${ base }/v3/${ id.toLowerCase() }s` },
      pluralName:        `${ id }s`,
      resourceMethods,
      collectionMethods: ['GET'],
      resourceFields:    {},
      collectionActions: id === 'token' ? { logout: { output: '' } } : {},
      resourceActions:   {},
    }));
}
