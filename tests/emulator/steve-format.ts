// How Steve presents a Kubernetes object: id, type, links (only those the user may follow),
// metadata.state (its summary of the conditions), metadata.relationships.

import {
  JsonObject, asObject, asString, clone, isObject
} from './json';
import { ResourceType } from './resource-types';
import { KubeObject } from './store';
import { Actor, can } from './users';

export interface ObjectState {
  name: string;
  error: boolean;
  transitioning: boolean;
  message: string;
}

export function steveId(object: KubeObject): string {
  return object.metadata.namespace ? `${ object.metadata.namespace }/${ object.metadata.name }` : object.metadata.name;
}

export function kubePath(type: ResourceType, namespace: string | undefined, name?: string): string {
  const root = type.group ? `/apis/${ type.group }/${ type.version }` : `/api/${ type.version }`;
  const ns = type.namespaced && namespace ? `/namespaces/${ namespace }` : '';

  return `${ root }${ ns }/${ type.plural }${ name ? `/${ name }` : '' }`;
}

function conditionsOf(object: KubeObject): JsonObject[] {
  const conditions = asObject(object.status).conditions;

  return Array.isArray(conditions) ? conditions.filter(isObject) : [];
}

/** A simplified version of Steve's summary: what the dashboard shows as the state badge. */
export function summarize(object: KubeObject): ObjectState {
  if (object.metadata.deletionTimestamp) {
    return {
      name: 'removing', error: false, transitioning: true, message: ''
    };
  }
  const phase = asString(asObject(object.status).phase);

  if (phase) {
    return {
      name: phase.toLowerCase(), error: false, transitioning: false, message: ''
    };
  }
  const ready = conditionsOf(object).find((c) => c.type === 'Ready');

  if (ready && ready.status === 'False') {
    const reason = asString(ready.reason) ?? '';
    const message = asString(ready.message) ?? '';
    const failed = /fail|error|invalid/i.test(reason);

    return {
      name: failed ? 'error' : 'in-progress', error: failed, transitioning: !failed, message
    };
  }

  return {
    name: 'active', error: false, transitioning: false, message: ''
  };
}

export function toSteve(type: ResourceType, object: KubeObject, base: string, actor: Actor): JsonObject {
  const id = steveId(object);
  const self = `${ base }/v1/${ type.id }s/${ id }`;
  const links: Record<string, string> = { self };

  if (can(actor, 'delete', type.id)) {
    links.remove = self;
  }
  if (can(actor, 'update', type.id)) {
    links.update = self;
  }
  links.view = `${ base }${ kubePath(type, object.metadata.namespace, object.metadata.name) }`;

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
  // Rancher relates the local management cluster to its provisioning cluster; the home page follows it.
  if (type.id === 'management.cattle.io.cluster' && object.metadata.name === 'local') {
    (metadata.relationships as JsonObject[]).push({
      toId: 'fleet-local/local', toType: 'provisioning.cattle.io.cluster', rel: 'applies', state: 'active'
    });
  }
  metadata.fields = [object.metadata.name, object.metadata.creationTimestamp];
  out.metadata = metadata;

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
