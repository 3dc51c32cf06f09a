/** @jest-environment node */
import { readCrdSchemas } from '../../emulator/kube/crds';
import { JsonObject } from '../../emulator/core/json';
import { normalize, validate, validateName } from '../../emulator/kube/validate';

const schemas = Object.fromEntries(readCrdSchemas().map((crd) => [crd.kind, crd.openApiSchema]));

function admit(kind: string, object: JsonObject): { object: JsonObject; causes: ReturnType<typeof validate> } {
  const copy = structuredClone(object);

  normalize(schemas[kind], copy);
  const { metadata: _metadata, status: _status, ...content } = copy;

  return { object: copy, causes: validate(schemas[kind], content) };
}

describe('CRD validation as the API server does it', () => {
  it('reads the three Elemental CRDs from the repository', () => {
    expect(Object.keys(schemas).sort()).toEqual(['ManagedOSImage', 'ManagedOSVersion', 'ManagedOSVersionChannel']);
  });

  it('rejects concurrency "abc" naming spec.concurrency with the API server\'s message', () => {
    const { causes } = admit('ManagedOSImage', { spec: { concurrency: 'abc', osImage: 'x' } });

    expect(causes).toEqual([{
      reason:  'FieldValueInvalid',
      field:   'spec.concurrency',
      message: 'Invalid value: "string": spec.concurrency in body must be of type integer: "string"',
    }]);
  });

  it('applies defaults: drain when absent, the channel\'s enabled/syncInterval/deleteNoLongerInSyncVersions', () => {
    expect(admit('ManagedOSImage', { spec: { osImage: 'x' } }).object.spec).toEqual({
      osImage: 'x',
      drain:   {
        deleteLocalData: true, force: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60
      },
    });
    expect(admit('ManagedOSVersionChannel', { spec: { type: 'json' } }).object.spec).toEqual({
      type: 'json', enabled: true, syncInterval: '1h', deleteNoLongerInSyncVersions: false
    });
  });

  it('keeps null where nullable (drain: null disables draining) and drops it elsewhere', () => {
    const { object, causes } = admit('ManagedOSImage', {
      spec: {
        osImage: 'x', drain: null, concurrency: null
      }
    });

    expect(causes).toEqual([]);
    expect(object.spec).toEqual({ osImage: 'x', drain: null });
  });

  it('prunes unknown fields but keeps x-kubernetes-preserve-unknown-fields subtrees', () => {
    const { object } = admit('ManagedOSImage', {
      spec: {
        osImage: 'x', bogus: 1, cloudConfig: { anything: { goes: true } }, nodeSelector: { matchLabels: { a: 'b' }, extra: 1 }
      }
    });

    expect(object.spec).toMatchObject({
      osImage: 'x', cloudConfig: { anything: { goes: true } }, nodeSelector: { matchLabels: { a: 'b' } }
    });
    expect((object.spec as JsonObject).bogus).toBeUndefined();
    expect((object.spec as JsonObject).nodeSelector).toEqual({ matchLabels: { a: 'b' } });
    expect(admit('ManagedOSVersionChannel', { spec: { type: 'json', options: { uri: 'u', x: [1] } } }).object.spec).toMatchObject({ options: { uri: 'u', x: [1] } });
  });

  it('accepts int-or-string and rejects other types there', () => {
    const ok = admit('ManagedOSImage', { spec: { osImage: 'x', clusterRolloutStrategy: { maxUnavailable: '25%', autoPartitionSize: 2 } } });
    const bad = admit('ManagedOSImage', { spec: { osImage: 'x', clusterRolloutStrategy: { maxUnavailable: true } } });

    expect(ok.causes).toEqual([]);
    expect(bad.causes.map((c) => c.field)).toEqual(['spec.clusterRolloutStrategy.maxUnavailable']);
  });

  it('checks nested array items, enums, required fields, patterns and date-times of conditions', () => {
    const schema = schemas.ManagedOSVersionChannel;
    const status = {
      conditions: [
        {
          type: 'Ready', status: 'Maybe', reason: 'not valid!', message: '', lastTransitionTime: 'yesterday'
        },
        { type: 'Ready', status: 'True' },
      ],
    };
    const causes = validate(schema, { status });
    const byField = Object.fromEntries(causes.map((c) => [`${ c.field } ${ c.reason }`, c.message]));

    expect(byField['status.conditions[0].status FieldValueNotSupported']).toBe('Unsupported value: "Maybe": supported values: "True", "False", "Unknown"');
    expect(byField['status.conditions[0].reason FieldValueInvalid']).toContain('should match');
    expect(byField['status.conditions[0].lastTransitionTime FieldValueInvalid']).toContain('must be of type date-time');
    expect(byField['status.conditions[1].reason FieldValueRequired']).toBe('Required value');
    expect(byField['status.conditions[1].lastTransitionTime FieldValueRequired']).toBe('Required value');
  });

  it('validates names as DNS subdomains (DNS labels for namespaces)', () => {
    expect(validateName('base-v2.2.0-3.12-os', false)).toEqual([]);
    expect(validateName('Bad_Name', false)[0].field).toBe('metadata.name');
    expect(validateName('', false)[0].reason).toBe('FieldValueRequired');
    expect(validateName('a.b', true)).toHaveLength(1);
  });
});
