// The CustomResourceDefinitions the API server serves: rancher/elemental-operator's own
// (config/crd/bases/elemental.cattle.io_managedos*.yaml, copied unchanged into tests/fixtures/elemental/crds),
// read for the types, scopes and schemas kube/validate.ts applies.
import fs from 'fs';
import path from 'path';
import { safeLoadAll } from 'js-yaml';
import { JsonObject, asObject, asString, isObject } from '../core/json';
import { ResourceType } from './resource-types';

/** The repository's copy of the Elemental CRDs (see tests/fixtures/elemental/README.md). */
export const CRD_DIR = path.resolve(__dirname, '../../fixtures/elemental/crds');

interface CrdSchema {
  group: string;
  kind: string;
  version: string;
  openApiSchema: JsonObject;
}

export function readCrdSchemas(dir: string = CRD_DIR): CrdSchema[] {
  const out: CrdSchema[] = [];

  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort()) {
    for (const doc of safeLoadAll(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      const spec = asObject(asObject(doc).spec);
      const group = asString(spec.group) ?? '';
      const kind = asString(asObject(spec.names).kind) ?? '';
      const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
      const stored = versions.find((v) => v.storage === true) ?? versions[0];

      if (stored) {
        out.push({
          group, kind, version: asString(stored.name) ?? '', openApiSchema: asObject(asObject(stored.schema).openAPIV3Schema)
        });
      }
    }
  }

  return out;
}

/** Gives each type whose CRD is in `dir` its schema, so its writes are validated. */
export function attachCrdSchemas(types: ResourceType[], dir: string = CRD_DIR): void {
  for (const crd of readCrdSchemas(dir)) {
    const type = types.find((t) => t.group === crd.group && t.kind === crd.kind);

    if (type) {
      type.openApiSchema = crd.openApiSchema;
      type.version = crd.version;
    }
  }
}
