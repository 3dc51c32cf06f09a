import {
  bundleDelivered, bundlePlanImage, operatorStateWithNodes, poolBundle, poolBundleName
} from '../index';

const IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';

/** A Bundle as the operator writes it (its Plan's JSON as the content) and Fleet's status on it. */
function bundle(image: string, opts: { generation?: number; observed?: number; ready?: string; name?: string } = {}) {
  const [repo, version] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
  const plan = {
    apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', metadata: { name: 'os-upgrader-edge' }, spec: { version, upgrade: { image: repo } }
  };

  return {
    metadata: {
      name: opts.name ?? 'mos-edge', namespace: 'fleet-default', generation: opts.generation ?? 2
    },
    spec:   { resources: [{ name: 'ServiceAccount.yaml', content: '{"kind":"ServiceAccount"}' }, { name: 'Plan.yaml', content: JSON.stringify(plan) }] },
    status: { observedGeneration: opts.observed ?? 2, conditions: [{ type: 'Ready', status: opts.ready ?? 'True' }] },
  };
}

describe('bundleDelivered', () => {
  it('reads the Plan\'s image out of the Bundle the operator wrote', () => {
    expect(bundlePlanImage(bundle(IMAGE))).toBe(IMAGE);
    expect(bundlePlanImage({ spec: { resources: [{ content: 'kind: Plan' }] } })).toBe('');
  });

  it('is the pin\'s Plan, processed by Fleet and applied everywhere', () => {
    expect(bundleDelivered(bundle(IMAGE), IMAGE)).toBe(true);
    // The operator put its default registry in front: the same image.
    expect(bundleDelivered(bundle(`mirror.example.com/${ IMAGE }`), IMAGE)).toBe(true);
    // The old image's Plan, a spec Fleet has not processed yet, or clusters still applying: not delivered.
    expect(bundleDelivered(bundle(IMAGE.replace('3.12', '3.9')), IMAGE)).toBe(false);
    expect(bundleDelivered(bundle(IMAGE, { generation: 3, observed: 2 }), IMAGE)).toBe(false);
    expect(bundleDelivered(bundle(IMAGE, { ready: 'False' }), IMAGE)).toBe(false);
    expect(bundleDelivered(undefined, IMAGE)).toBe(false);
    expect(bundleDelivered(bundle(IMAGE), '')).toBe(false);
  });

  it('finds the pool\'s Bundle by the operator\'s name for it, or by its owner', () => {
    const pool = { metadata: { name: 'edge', namespace: 'fleet-default' } };
    const owned = {
      metadata: {
        name: 'mos-edge-hashed', namespace: 'fleet-default', ownerReferences: [{ kind: 'ManagedOSImage', name: 'edge' }]
      }
    };

    expect(poolBundle(pool, [bundle(IMAGE, { name: 'mos-other' }), bundle(IMAGE)])).toMatchObject({ metadata: { name: 'mos-edge' } });
    expect(poolBundle(pool, [owned])).toBe(owned);
    expect(poolBundle({ metadata: { name: 'edge', namespace: 'fleet-local' } }, [bundle(IMAGE)])).toBeUndefined();
  });

  it('ends the wait for the operator once Fleet delivered the pin, and never a refusal', () => {
    expect(operatorStateWithNodes({ kind: 'waiting' }, { verdict: 'noNodes' }, true)).toEqual({ kind: 'current' });
    expect(operatorStateWithNodes({ kind: 'waiting' }, { verdict: 'noNodes' }, false)).toEqual({ kind: 'waiting' });
    const refused = { kind: 'refused' as const, reason: { key: 'osUpgrades.pool.operator.missing' } };

    expect(operatorStateWithNodes(refused, undefined, true)).toBe(refused);
  });
});

describe('poolBundleName', () => {
  it('is mos-<pool>, whole, while the name stays under 64 characters', () => {
    expect(poolBundleName('edge-berlin')).toEqual({ value: 'mos-edge-berlin', exact: true });
    const longest = 'p'.repeat(59);

    expect(poolBundleName(longest)).toEqual({ value: `mos-${ longest }`, exact: true });
  });

  it('is the part every cut keeps when SafeConcatName cuts the name and adds a hash', () => {
    const pool = `${ 'a'.repeat(52) }-${ 'b'.repeat(20) }`;
    const { value, exact } = poolBundleName(pool);

    expect(exact).toBe(false);
    expect(value).toHaveLength(56);
    // Cut to 57 and 5 hex digits when the 57th character is [a-z0-9], else to 56 and 6.
    expect(`${ `mos-${ pool }`.slice(0, 57) }-1a2b3`).toMatch(new RegExp(`^${ value }`));
    const dashAt57 = `${ 'c'.repeat(52) }-tail-of-it`;

    expect(`mos-${ dashAt57 }`[56]).toBe('-');
    expect(`${ `mos-${ dashAt57 }`.slice(0, 56) }-1a2b3c`).toMatch(new RegExp(`^${ poolBundleName(dashAt57).value }`));
  });
});
