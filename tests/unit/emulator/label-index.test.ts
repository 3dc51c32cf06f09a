/** @jest-environment node */
import fc from 'fast-check';
import { attachCrdSchemas } from '../../emulator/kube/crds';
import { matchesLabels, parseLabelSelector } from '../../emulator/kube/labels';
import { ListOptions, ObjectApi, listOptionsPredicate } from '../../emulator/kube/objects';
import { TypeRegistry, builtinTypes } from '../../emulator/kube/resource-types';
import { filterPredicate, labelEqualityFilters } from '../../emulator/steve/steve-query';
import { KubeObject, ObjectStore } from '../../emulator/kube/store';

const KEYS = ['elemental.cattle.io/channel', 'app', 'tier'];
const VALUES = ['a', 'b', 'c', ''];
const NAMESPACES = ['fleet-default', 'fleet-local', 'other'];

const labelsArb = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 3 });
const writeArb = fc.oneof(
  fc.record({
    op: fc.constant('put' as const), namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom('v1', 'v2', 'v3', 'v4', 'v5'), labels: labelsArb
  }),
  fc.record({
    op: fc.constant('delete' as const), namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom('v1', 'v2', 'v3', 'v4', 'v5')
  }),
);
const requirementArb = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('=', '==', '!='), fc.constantFrom(...VALUES)).map(([k, op, v]) => `${ k }${ op }${ v }`),
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('in', 'notin'), fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 2 }))
    .map(([k, op, vs]) => `${ k } ${ op } (${ vs.join(',') })`),
  fc.constantFrom(...KEYS),
  fc.constantFrom(...KEYS).map((k) => `!${ k }`),
);
const selectorArb = fc.array(requirementArb, { maxLength: 3 }).map((parts) => parts.join(','));

function setup() {
  const types = builtinTypes();

  attachCrdSchemas(types);
  const registry = new TypeRegistry(types);
  const store = new ObjectStore();

  return {
    store, api: new ObjectApi(store, registry), version: registry.require('elemental.cattle.io.managedosversion')
  };
}

type Write = { op: 'put'; namespace: string; name: string; labels: Record<string, string> } | { op: 'delete'; namespace: string; name: string };

function apply(store: ObjectStore, writes: Write[]): void {
  for (const write of writes) {
    if (write.op === 'delete') {
      store.delete('elemental.cattle.io.managedosversion', write.namespace, write.name);
      continue;
    }
    const existing = store.get('elemental.cattle.io.managedosversion', write.namespace, write.name);
    const object: KubeObject = {
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersion',
      metadata:   {
        name: write.name, namespace: write.namespace, uid: write.name, creationTimestamp: '2026-01-01T00:00:00Z', resourceVersion: String(store.nextRevision()), labels: write.labels
      },
    };

    store.put('elemental.cattle.io.managedosversion', object, existing ? 'change' : 'create');
  }
}

function names(items: readonly KubeObject[]): string[] {
  return items.map((o) => `${ o.metadata.namespace }/${ o.metadata.name }`).sort();
}

describe('the label index of list requests', () => {
  it('answers every selector as reading every object would, after creates, label changes and deletes', () => {
    fc.assert(fc.property(fc.array(writeArb, { maxLength: 40 }), selectorArb, fc.option(fc.constantFrom(...NAMESPACES), { nil: undefined }), (writes, selector, namespace) => {
      const { store, api, version } = setup();

      apply(store, writes);
      const options: ListOptions = { namespace, labelSelector: parseLabelSelector(selector) };
      const scanned = store.shared(version.id).filter(listOptionsPredicate(options));

      expect(names(api.listShared(version, options).items)).toEqual(names(scanned));
    }), { numRuns: 300 });
  });

  it('forgets a label an update removed and an object that was deleted', () => {
    const { store, api, version } = setup();
    const channel = parseLabelSelector('elemental.cattle.io/channel=a');

    apply(store, [
      {
        op: 'put', namespace: 'fleet-default', name: 'v1', labels: { 'elemental.cattle.io/channel': 'a' }
      },
      {
        op: 'put', namespace: 'fleet-default', name: 'v2', labels: { 'elemental.cattle.io/channel': 'a' }
      },
    ]);
    expect(names(api.listShared(version, { labelSelector: channel }).items)).toEqual(['fleet-default/v1', 'fleet-default/v2']);
    apply(store, [
      {
        op: 'put', namespace: 'fleet-default', name: 'v1', labels: { 'elemental.cattle.io/channel': 'b' }
      },
      {
        op: 'delete', namespace: 'fleet-default', name: 'v2'
      },
    ]);
    expect(names(api.listShared(version, { labelSelector: channel }).items)).toEqual([]);
    // The index itself holds neither (not only the final label check hides them).
    expect(store.sharedByLabel(version.id, 'elemental.cattle.io/channel', 'a')).toEqual([]);
    expect(names(api.listShared(version, { labelSelector: parseLabelSelector('elemental.cattle.io/channel=b'), namespace: 'fleet-default' }).items)).toEqual(['fleet-default/v1']);
  });
});

describe('label equalities in Steve filters', () => {
  const filterArb = fc.oneof(
    fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('=', '==', '!=', '~'), fc.constantFrom(...VALUES, '"a"', '""', '(b)')).map(([k, op, v]) => `metadata.labels[${ k }]${ op }${ v }`),
    fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...KEYS)).map(([a, b]) => `metadata.labels[${ a }]=a,metadata.labels[${ b }]=b`),
    fc.constantFrom(...KEYS).map((k) => `metadata.labels[${ k }] IN (a,b)`),
  );

  it('narrow a list only to objects the filters would keep anyway', () => {
    fc.assert(fc.property(fc.array(labelsArb, { maxLength: 20 }), fc.array(filterArb, { maxLength: 3 }), (labelSets, filters) => {
      const params = new URLSearchParams(filters.map((f) => ['filter', f]));
      const objects = labelSets.map((labels, i) => ({ metadata: { name: `v${ i }`, labels } }));
      const kept = objects.filter(filterPredicate(params)).map((o) => o.metadata.name);
      const narrowed = objects.filter((o) => matchesLabels(labelEqualityFilters(params), o.metadata.labels)).map((o) => o.metadata.name);

      expect(narrowed).toEqual(expect.arrayContaining(kept));
    }), { numRuns: 300 });
  });

  // `d=""` also keeps objects without d: not an index lookup.
  it('reads the one-term equalities with a value only', () => {
    const params = new URLSearchParams([['filter', 'metadata.labels[elemental.cattle.io/channel]=sl-micro'], ['filter', 'metadata.labels[a]=x,metadata.labels[b]=y'], ['filter', 'metadata.labels[c]!=z'], ['filter', 'metadata.labels[d]=""']]);

    expect(labelEqualityFilters(params)).toEqual([{
      key: 'elemental.cattle.io/channel', operator: 'In', values: ['sl-micro']
    }]);
  });

  // The shell's findPage asks for a channel's versions as `metadata.labels[k] IN (v)`.
  it('reads a one-term IN as a lookup of each value', () => {
    const params = new URLSearchParams([['filter', 'metadata.labels[elemental.cattle.io/channel] IN (sl-micro,scale)'], ['filter', 'metadata.labels[e] IN (x,"")']]);

    expect(labelEqualityFilters(params)).toEqual([{
      key: 'elemental.cattle.io/channel', operator: 'In', values: ['sl-micro', 'scale']
    }]);
  });
});
