// Steve's /v1/schemaDefinitions/<type>: the fields of a type, built from its CRD schema, which the
// dashboard reads when it needs field types (e.g. for forms).
// Sources: rancher/steve pkg/schema/definitions (handler.go, openapi.go: definitionType,
// resourceFields from the OpenAPI v3 schema) and @rancher/shell plugins/steve/schema.ts (what reads them).

import { JsonObject, asObject, asString, isObject } from '../core/json';
import { ResourceType } from '../kube/resource-types';

function definitionName(type: ResourceType): string {
  const group = type.group ? type.group.split('.').reverse().join('.') : 'io.k8s.api.core';

  return `${ group }.${ type.version }.${ type.kind }`;
}

function fieldType(schema: JsonObject, name: string, definitions: JsonObject): string {
  if (schema['x-kubernetes-int-or-string'] === true) {
    return 'intOrString';
  }
  switch (schema.type) {
  case 'string':
    return asString(schema.format) === 'date-time' ? 'date' : 'string';
  case 'integer':
    return 'int';
  case 'number':
    return 'float';
  case 'boolean':
    return 'boolean';
  case 'array':
    return `array[${ fieldType(asObject(schema.items), `${ name }.items`, definitions) }]`;
  case 'object':
    if (isObject(schema.properties)) {
      addDefinition(schema, name, definitions);

      return name;
    }
    if (isObject(schema.additionalProperties)) {
      return `map[${ fieldType(schema.additionalProperties, `${ name }.value`, definitions) }]`;
    }

    return 'map[json]';
  default:
    return 'json';
  }
}

function addDefinition(schema: JsonObject, name: string, definitions: JsonObject): void {
  const required = Array.isArray(schema.required) ? schema.required : [];
  const resourceFields: JsonObject = {};

  definitions[name] = {
    type: name, description: asString(schema.description) ?? '', resourceFields
  };
  for (const [key, value] of Object.entries(asObject(schema.properties))) {
    const prop = asObject(value);

    resourceFields[key] = {
      type:        fieldType(prop, `${ name }.${ key }`, definitions),
      description: asString(prop.description) ?? '',
      required:    required.includes(key),
    };
  }
}

export function schemaDefinition(type: ResourceType, base: string): JsonObject {
  const name = definitionName(type);
  const definitions: JsonObject = {};
  const schema = type.openApiSchema ?? {
    type:       'object',
    properties: {
      apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object', properties: {} }
    }
  };

  addDefinition(schema, name, definitions);

  return {
    id: type.id, type: 'schemaDefinition', links: { self: `${ base }/v1/schemaDefinitions/${ type.id }` }, definitionType: name, definitions
  };
}
