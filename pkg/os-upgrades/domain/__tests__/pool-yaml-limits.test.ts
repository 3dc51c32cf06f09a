import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import { POOL_SPEC_DEFAULTS, POOL_SPEC_FIELDS, unknownSpecField } from '..';

type Schema = { properties?: Record<string, Schema>; items?: Schema; 'x-kubernetes-preserve-unknown-fields'?: boolean };

describe('the ManagedOSImage fields the YAML view knows', () => {
  it('are those of the CRD the emulator serves (elemental-operator\'s), two levels deep', () => {
    const crd = jsyaml.load(readFileSync(join(__dirname, '../../../../tests/fixtures/elemental/crds/elemental.cattle.io_managedosimages.yaml'), 'utf8')) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const spec: Schema = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    const fromCrd = Object.fromEntries(Object.entries(spec.properties ?? {}).map(([key, field]) => {
      const fields = field['x-kubernetes-preserve-unknown-fields'] ? undefined : field.properties ?? field.items?.properties;

      return [key, fields ? Object.keys(fields).sort() : null];
    }));

    expect(POOL_SPEC_FIELDS).toEqual(fromCrd);
    expect(POOL_SPEC_DEFAULTS).toEqual(Object.fromEntries(Object.entries(spec.properties ?? {}).filter(([, field]) => 'default' in field).map(([key, field]) => [key, (field as { default: unknown }).default])));
  });

  it('a free map (cloudConfig) takes any key; a list item is checked item by item', () => {
    expect(unknownSpecField({ cloudConfig: { anything: { deep: 1 } } })).toBeUndefined();
    expect(unknownSpecField({ clusterTargets: [{ clusterName: 'a' }, 'not a map', { nam: 'b' }] })).toBe('spec.clusterTargets.2.nam');
  });
});
