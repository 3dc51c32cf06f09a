import { plainObject } from '../plain-object';
import { sameContent } from '../pool-object';
import { poolObject } from './pool-test-data';

describe('pool objects', () => {
  it('sees no difference in status, resourceVersion or key order', () => {
    const a = poolObject({ resourceVersion: '1' });
    const b = { ...poolObject({ resourceVersion: '9' }), status: { conditions: [{ type: 'Ready', status: 'False' }] } };
    const reordered = { metadata: a.metadata, spec: Object.fromEntries(Object.entries(a.spec as object).reverse()) };

    expect(sameContent(a, b)).toBe(true);
    expect(sameContent(a, reordered)).toBe(true);
  });

  it('sees a change to the spec or the annotations', () => {
    expect(sameContent(poolObject(), poolObject({ spec: { concurrency: 2 } }))).toBe(false);
    expect(sameContent(poolObject(), poolObject({ annotations: { note: 'x' } }))).toBe(false);
  });

  it('copies only what Kubernetes stores, without Steve\'s extras', () => {
    const model = {
      ...poolObject(),
      id:       'fleet-default/edge',
      links:    {},
      metadata: {
        name: 'edge', fields: ['edge'], state: {}
      }
    };

    expect(plainObject(model)).toEqual({
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSImage', metadata: { name: 'edge' }, spec: poolObject().spec
    });
  });
});
