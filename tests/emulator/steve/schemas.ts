// Steve (/v1) and Norman (/v3) schemas. A Steve schema's resourceMethods/collectionMethods reflect
// what the logged-in user may do with the type in any namespace.

import { JsonObject } from '../core/json';
import { ResourceType, stevePluralName } from '../kube/resource-types';
import {
  ALL_VERBS, ANONYMOUS_ACTOR, Actor, Verb, canAnywhere
} from '../rancher/users';

/** Types Steve serves that are not stored Kubernetes objects. */
export const VIRTUAL_TYPES = ['schema', 'count', 'userpreference', 'ext.cattle.io.selfuser'];

/**
 * A schema's methods from what the user may do in *any* namespace, as Steve's schemasForSubject
 * (rancher/steve pkg/schema/factory.go, AccessListByVerb.AnyVerb): GET for list or get, DELETE for
 * delete, PUT and PATCH for update, POST for create. For a cluster-scoped type only grants in every
 * namespace count. What the user may do to one object is in that object's links (steve-format.ts).
 */
function methods(type: ResourceType, actor: Actor): { resourceMethods: string[]; collectionMethods: string[] } {
  const any = (verb: Verb) => canAnywhere(actor, verb, type.id, type.namespaced);
  const resourceMethods: string[] = [];
  const collectionMethods: string[] = [];

  if (any('list') || any('get')) {
    resourceMethods.push('GET');
    collectionMethods.push('GET');
  }
  if (any('delete')) {
    resourceMethods.push('DELETE');
  }
  if (any('update')) {
    resourceMethods.push('PUT', 'PATCH');
  }
  if (any('create')) {
    collectionMethods.push('POST');
  }

  return { resourceMethods, collectionMethods };
}

function schemaLinks(base: string, id: string, collection: boolean, pluralName = `${ id }s`): Record<string, string> {
  const links: Record<string, string> = { self: `${ base }/v1/schemas/${ id }` };

  if (collection) {
    links.collection = `${ base }/v1/${ pluralName }`;
  }

  return links;
}

export function steveSchema(type: ResourceType, base: string, actor: Actor): JsonObject {
  const { resourceMethods, collectionMethods } = methods(type, actor);

  return {
    id:             type.id,
    type:           'schema',
    links:          schemaLinks(base, type.id, collectionMethods.includes('GET'), stevePluralName(type)),
    pluralName:     stevePluralName(type),
    resourceMethods,
    collectionMethods,
    resourceFields: null,
    attributes:     {
      columns:    type.columns ?? [],
      group:      type.group,
      kind:       type.kind,
      namespaced: type.namespaced,
      resource:   type.plural,
      // The verbs the API serves (discovery), whoever asks (rancher/steve pkg/schema/converter).
      verbs:      [...ALL_VERBS],
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

    return [virtualSchema('schema', base, undefined), ...(settings ? [steveSchema(settings, base, ANONYMOUS_ACTOR)] : [])];
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
