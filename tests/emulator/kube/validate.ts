// What the Kubernetes API server does with a custom resource before storing it, driven by the CRD's
// structural OpenAPI v3 schema: prune unknown fields, drop nulls of non-nullable fields, apply
// defaults, then validate (types, required, enums, formats, bounds). Error texts follow the API
// server's (`spec.concurrency: Invalid value: "string": spec.concurrency in body must be of type integer: "string"`).
// Sources: kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver
// pkg/apiserver/schema/pruning/algorithm.go, pkg/apiserver/schema/defaulting/algorithm.go and
// pkg/apiserver/validation/validation.go (kube-openapi validate errors); object names:
// kubernetes/apimachinery pkg/util/validation/validation.go (IsDNS1123Subdomain, IsDNS1123Label); the
// schemas are rancher/elemental-operator's CRDs (config/crd/bases, through kube/crds.ts).

import { JsonObject, asObject, clone, isObject } from '../core/json';
import { StatusCause } from './errors';

type Schema = JsonObject;

const ROOT_KEPT = new Set(['apiVersion', 'kind', 'metadata']);

function properties(schema: Schema): Record<string, Schema> | undefined {
  const props = schema.properties;

  if (!isObject(props)) {
    return undefined;
  }
  const out: Record<string, Schema> = {};

  for (const [key, value] of Object.entries(props)) {
    out[key] = asObject(value);
  }

  return out;
}

function preservesUnknown(schema: Schema): boolean {
  return schema['x-kubernetes-preserve-unknown-fields'] === true;
}

function childPath(path: string, key: string): string {
  return path ? `${ path }.${ key }` : key;
}

/** Prunes unknown fields and nulls, applies defaults, in place. Returns the normalised value. */
export function normalize(schema: Schema, value: unknown, isRoot = true): unknown {
  if (Array.isArray(value)) {
    const items = asObject(schema.items);

    return Object.keys(items).length ? value.map((item) => normalize(items, item, false)) : value;
  }
  if (!isObject(value)) {
    return value;
  }
  const props = properties(schema);
  const additional = schema.additionalProperties;

  for (const key of Object.keys(value)) {
    const propSchema = props?.[key];

    if (isRoot && ROOT_KEPT.has(key)) {
      continue;
    }
    if (propSchema) {
      if (value[key] === null && propSchema.nullable !== true) {
        delete value[key];
      } else {
        value[key] = normalize(propSchema, value[key], false);
      }
    } else if (isObject(additional)) {
      value[key] = normalize(additional, value[key], false);
    } else if (!preservesUnknown(schema) && additional !== true) {
      delete value[key];
    }
  }

  for (const [key, propSchema] of Object.entries(props ?? {})) {
    if (value[key] === undefined && propSchema.default !== undefined) {
      value[key] = normalize(propSchema, clone(propSchema.default), false);
    }
  }

  return value;
}

function jsonTypeName(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? 'integer' : 'number';
  }

  return typeof value;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
}

function invalidCause(field: string, shown: unknown, detail: string): StatusCause {
  return {
    reason: 'FieldValueInvalid', message: `Invalid value: ${ quote(shown) }: ${ detail }`, field
  };
}

function typeMatches(expected: string, value: unknown): boolean {
  const actual = jsonTypeName(value);

  if (expected === 'number') {
    return actual === 'number' || actual === 'integer';
  }

  return actual === expected;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkScalar(schema: Schema, value: unknown, field: string, causes: StatusCause[]): void {
  const label = field || '<root>';

  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) {
    causes.push({
      reason:  'FieldValueNotSupported',
      message: `Unsupported value: ${ quote(value) }: supported values: ${ schema.enum.map((v) => quote(v)).join(', ') }`,
      field,
    });
  }
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
      causes.push({
        reason: 'FieldValueTooLong', message: `Too long: may not be more than ${ schema.maxLength } bytes`, field
      });
    }
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
      causes.push(invalidCause(field, value, `${ label } in body should be at least ${ schema.minLength } chars long`));
    }
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      causes.push(invalidCause(field, value, `${ label } in body should match '${ schema.pattern }'`));
    }
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) {
      causes.push(invalidCause(field, value, `${ label } in body must be of type date-time: ${ quote(value) }`));
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) {
      causes.push(invalidCause(field, value, `${ label } in body should be greater than or equal to ${ schema.minimum }`));
    }
    if (typeof schema.maximum === 'number' && value > schema.maximum) {
      causes.push(invalidCause(field, value, `${ label } in body should be less than or equal to ${ schema.maximum }`));
    }
    if (schema.format === 'int32' && (value > 2147483647 || value < -2147483648)) {
      causes.push(invalidCause(field, value, `${ label } in body must be of type int32: ${ quote(value) }`));
    }
  }
}

/** Validates a normalised value. `path` is the field path of `value` (`spec.drain`). */
export function validate(schema: Schema, value: unknown, path = ''): StatusCause[] {
  const causes: StatusCause[] = [];

  validateInto(schema, value, path, causes);

  return causes;
}

function validateInto(schema: Schema, value: unknown, path: string, causes: StatusCause[]): void {
  const label = path || '<root>';

  if (value === null) {
    if (schema.nullable === true || (preservesUnknown(schema) && !schema.type)) {
      return;
    }
    if (schema.type || schema['x-kubernetes-int-or-string']) {
      causes.push(invalidCause(path, 'null', `${ label } in body must be of type ${ schema.type ?? 'integer-or-string' }: "null"`));
    }

    return;
  }

  if (schema['x-kubernetes-int-or-string'] === true) {
    if (!(typeof value === 'string' || Number.isInteger(value))) {
      causes.push(invalidCause(path, jsonTypeName(value), `${ label } in body must be of type integer,string: ${ quote(jsonTypeName(value)) }`));
    } else {
      checkScalar(schema, value, path, causes);
    }

    return;
  }

  const type = typeof schema.type === 'string' ? schema.type : undefined;

  if (type && !typeMatches(type, value)) {
    causes.push(invalidCause(path, jsonTypeName(value), `${ label } in body must be of type ${ type }: ${ quote(jsonTypeName(value)) }`));

    return;
  }

  if (Array.isArray(value)) {
    const items = asObject(schema.items);

    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      causes.push({
        reason: 'FieldValueTooMany', message: `Too many: ${ value.length }: must have at most ${ schema.maxItems } items`, field: path
      });
    }
    value.forEach((item, i) => validateInto(items, item, `${ path }[${ i }]`, causes));

    return;
  }

  if (isObject(value)) {
    const props = properties(schema) ?? {};
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];

    for (const key of required) {
      if (value[key] === undefined) {
        causes.push({
          reason: 'FieldValueRequired', message: 'Required value', field: childPath(path, key)
        });
      }
    }
    for (const [key, item] of Object.entries(value)) {
      if (props[key]) {
        validateInto(props[key], item, childPath(path, key), causes);
      } else if (isObject(schema.additionalProperties)) {
        validateInto(schema.additionalProperties, item, childPath(path, key), causes);
      }
    }

    return;
  }

  checkScalar(schema, value, path, causes);
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** metadata.name as the API server checks it for custom resources (DNS subdomain) or namespaces (DNS label). */
export function validateName(name: string, dnsLabel: boolean): StatusCause[] {
  if (!name) {
    return [{
      reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name'
    }];
  }
  if (dnsLabel) {
    if (name.length > 63 || !DNS_LABEL.test(name)) {
      return [invalidCause('metadata.name', name,
        'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')')];
    }

    return [];
  }
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    return [invalidCause('metadata.name', name,
      'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')')];
  }

  return [];
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * Label values as the API server checks them on every create and update (k8s.io/apimachinery
 * pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor → pkg/apis/meta/v1/validation
 * ValidateLabels → pkg/util/validation/validation.go IsValidLabelValue): at most 63 characters,
 * alphanumerics, '-', '_' and '.', starting and ending with an alphanumeric. Each error is a
 * FieldValueInvalid cause on `metadata.labels`; the request is refused whole (422 Invalid).
 * Elemental's elemental-populate-node-labels (rancher/elemental framework/files/usr/sbin) writes
 * image labels that can break the length rule.
 */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];

  if (value.length > 63) {
    errors.push('must be no more than 63 characters');
  }
  if (!LABEL_VALUE.test(value)) {
    errors.push('a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')');
  }

  return errors;
}

function validateLabelValues(labels: JsonObject): StatusCause[] {
  return Object.values(labels).filter((v): v is string => typeof v === 'string')
    .flatMap((value) => labelValueErrors(value).map((detail) => invalidCause('metadata.labels', value, detail)));
}

/** Labels and annotations must be string maps. */
export function validateStringMaps(metadata: JsonObject): StatusCause[] {
  const causes: StatusCause[] = [];

  for (const key of ['labels', 'annotations']) {
    const map = metadata[key];

    if (map === undefined || map === null) {
      continue;
    }
    if (!isObject(map)) {
      causes.push(invalidCause(`metadata.${ key }`, jsonTypeName(map), `metadata.${ key } in body must be of type object: ${ quote(jsonTypeName(map)) }`));
      continue;
    }
    for (const [name, value] of Object.entries(map)) {
      if (typeof value !== 'string') {
        causes.push(invalidCause(`metadata.${ key }.${ name }`, jsonTypeName(value), `metadata.${ key }.${ name } in body must be of type string: ${ quote(jsonTypeName(value)) }`));
      }
    }
    if (key === 'labels' && !causes.length) {
      causes.push(...validateLabelValues(map));
    }
  }

  return causes;
}
