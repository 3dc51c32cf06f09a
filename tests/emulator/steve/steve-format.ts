// How Steve presents a Kubernetes object: id, type, links (only those the user may follow),
// metadata.state (wrangler's summary, summary.ts), metadata.relationships.

import { JsonObject, asObject, clone, isObject } from '../core/json';
import { ResourceType } from '../kube/resource-types';
import { KubeObject } from '../kube/store';
import { summarize, summarizeWithMessages } from './summary';
import { Actor, can } from '../rancher/users';

export function steveId(object: KubeObject): string {
  return object.metadata.namespace ? `${ object.metadata.namespace }/${ object.metadata.name }` : object.metadata.name;
}

export function kubePath(type: ResourceType, namespace: string | undefined, name?: string): string {
  const root = type.group ? `/apis/${ type.group }/${ type.version }` : `/api/${ type.version }`;
  const ns = type.namespaced && namespace ? `/namespaces/${ namespace }` : '';

  return `${ root }${ ns }/${ type.plural }${ name ? `/${ name }` : '' }`;
}

/** What a request asks of the presentation: Steve's `checkPermissions=<type>,<type>` query. */
export interface PresentOptions {
  checkPermissions?: ResourceType[];
  /** The stored objects whose ownerReferences name this uid (ObjectStore.sharedOwnedBy). */
  ownedBy?: (uid: string) => { type: string; object: KubeObject }[];
}

/**
 * An owner's `toId` relationship to each object it owns, with that object's state: Steve's summary
 * cache reverses every ownerReference (rancher/steve pkg/summarycache/summarycache.go,
 * SummaryAndRelationship, reverseRel and toRel, addObject: the message joined with "; ";
 * Relationship's fields are `omitempty`). A channel of 500 versions carries 500.
 */
function ownedRelationships(object: KubeObject, ownedBy: PresentOptions['ownedBy']): JsonObject[] {
  return (ownedBy?.(object.metadata.uid) ?? []).map(({ type, object: owned }) => {
    const state = summarizeWithMessages(owned);
    const rel: JsonObject = {
      toId: steveId(owned), toType: type, rel: 'owner'
    };

    if (state.name) {
      rel.state = state.name;
    }
    if (state.messages.length) {
      rel.message = state.messages.join('; ');
    }
    if (state.error) {
      rel.error = true;
    }
    if (state.transitioning) {
      rel.transitioning = true;
    }

    return rel;
  });
}

/**
 * The links one object carries for this user, as rancher/steve pkg/resources/common/formatter.go
 * sets them: `update`, `remove` and `patch` only when the user's access set grants that verb on
 * this object (its namespace and name), whatever the schema says.
 */
function objectLinks(type: ResourceType, object: KubeObject, base: string, actor: Actor): Record<string, string> {
  const self = `${ base }/v1/${ type.id }s/${ steveId(object) }`;
  const links: Record<string, string> = { self };
  const namespace = type.namespaced ? object.metadata.namespace : undefined;

  if (can(actor, 'delete', type.id, namespace)) {
    links.remove = self;
  }
  if (can(actor, 'update', type.id, namespace)) {
    links.update = self;
  }
  if (can(actor, 'patch', type.id, namespace)) {
    links.patch = self;
  }
  links.view = `${ base }${ kubePath(type, object.metadata.namespace, object.metadata.name) }`;

  return links;
}

/**
 * formatter.go's checkPermissions: for each asked type, the verbs granted in the namespace the
 * object stands for (a namespace's own name, else its id with "/" made "-"), each as the URL.
 */
function resourcePermissions(object: KubeObject, base: string, actor: Actor, asked: PresentOptions['checkPermissions'] = []): JsonObject {
  const namespace = object.metadata.namespace ? `${ object.metadata.namespace }-${ object.metadata.name }` : object.metadata.name;
  const out: JsonObject = {};

  for (const type of asked) {
    const perms: Record<string, string> = {};

    for (const verb of ['create', 'update', 'delete', 'list', 'get', 'watch', 'patch'] as const) {
      if (can(actor, verb, type.id, type.namespaced ? namespace : undefined)) {
        perms[verb] = `${ base }${ kubePath(type, namespace) }`;
      }
    }
    if (Object.keys(perms).length) {
      out[type.id] = perms;
    }
  }

  return out;
}

export function toSteve(type: ResourceType, object: KubeObject, base: string, actor: Actor, options: PresentOptions = {}): JsonObject {
  const id = steveId(object);
  const links = objectLinks(type, object, base, actor);

  const out: JsonObject = {
    id, type: type.id, links, ...clone(object)
  };
  const metadata = asObject(out.metadata);

  metadata.state = summarize(object);
  metadata.relationships = (object.metadata.ownerReferences ?? []).map((owner) => ({
    fromId:   object.metadata.namespace ? `${ object.metadata.namespace }/${ owner.name }` : owner.name,
    fromType: `${ owner.apiVersion.split('/')[0] }.${ owner.kind.toLowerCase() }`,
    rel:      'owner',
    state:    'active',
  }));
  (metadata.relationships as JsonObject[]).push(...ownedRelationships(object, options.ownedBy));
  // Rancher relates the local management cluster to its provisioning cluster; the home page follows it.
  if (type.id === 'management.cattle.io.cluster' && object.metadata.name === 'local') {
    (metadata.relationships as JsonObject[]).push({
      toId: 'fleet-local/local', toType: 'provisioning.cattle.io.cluster', rel: 'applies', state: 'active'
    });
  }
  metadata.fields = [object.metadata.name, object.metadata.creationTimestamp];
  out.metadata = metadata;
  if (options.checkPermissions) {
    out.resourcePermissions = resourcePermissions(object, base, actor, options.checkPermissions);
  }

  return out;
}

/**
 * What filters and sorts see of an object in a list, without copying it: the fields of toSteve
 * that a query can name (id, type, metadata.state). The list formats only the page it answers.
 */
export function steveView(type: ResourceType, object: KubeObject): JsonObject {
  const metadata: JsonObject = { ...object.metadata };

  // Summarised only when a filter or sort asks for it.
  Object.defineProperty(metadata, 'state', { enumerable: true, get: () => summarize(object) });

  return {
    id: steveId(object), type: type.id, ...object, metadata
  };
}

/** Steve's list/write bodies carry presentation fields that never reach Kubernetes. */
export function fromSteve(body: unknown): unknown {
  if (!isObject(body)) {
    return body;
  }
  const {
    id: _id, type: _type, links: _links, actions: _actions, ...rest
  } = body;
  const metadata = asObject(rest.metadata);

  delete metadata.state;
  delete metadata.relationships;
  delete metadata.fields;
  if (isObject(rest.metadata)) {
    rest.metadata = metadata;
  }

  return rest;
}

/** Removes the fields named by Steve's `exclude=metadata.managedFields` parameters. */
export function excludeFields(object: JsonObject, paths: string[]): JsonObject {
  for (const path of paths) {
    const parts = path.split('.');
    let current: unknown = object;

    for (let i = 0; i < parts.length - 1 && isObject(current); i++) {
      current = current[parts[i]];
    }
    if (isObject(current)) {
      delete current[parts[parts.length - 1]];
    }
  }

  return object;
}
