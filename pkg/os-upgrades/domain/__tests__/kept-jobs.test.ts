import { ClusterInput, keptJobsFor } from '../index';

const PLAN = 'os-upgrader-edge';
const HASH_39 = 'hash-of-3.9';
const FINISHED = Date.parse('2024-05-01T08:00:00Z') / 1000;

function node(name: string, hash: string) {
  return { metadata: { name, labels: { [`plan.upgrade.cattle.io/${ PLAN }`]: hash } } };
}

/** A Job of the first roll out to 3.9, finished at FINISHED + `offset`, kept 900 s. */
function job(nodeName: string, {
  offset = 0, force = '', version = '2.2.0-3.9', complete = 'True'
} = {}) {
  return {
    metadata: {
      name:   `apply-${ PLAN }-on-${ nodeName }-with-${ HASH_39 }`,
      labels: {
        'upgrade.cattle.io/node': nodeName, 'upgrade.cattle.io/plan': PLAN, 'upgrade.cattle.io/version': version, [`plan.upgrade.cattle.io/${ PLAN }`]: HASH_39
      }
    },
    spec: {
      ttlSecondsAfterFinished: 900,
      template:                { spec: { containers: [{ name: 'upgrade', env: force ? [{ name: 'FORCE', value: force }] : [] }] } },
    },
    status: { completionTime: new Date((FINISHED + offset) * 1000).toISOString(), conditions: [{ type: 'Complete', status: complete }] },
  };
}

function cluster(jobs: unknown[], nodes: unknown[]): ClusterInput {
  return {
    cluster:   'a',
    clusterId: 'c-m-a',
    reading:   {
      kind: 'read', plans: [], jobs, nodes
    }
  };
}

describe('keptJobsFor (rule "Kept Jobs")', () => {
  // The nodes were rolled back (forced) to 3.8: they carry 3.8's hash now.
  const nodes = [node('n1', 'hash-of-3.8'), node('n2', 'hash-of-3.8')];

  it('finds the Jobs a move back to 3.9 would meet, and when the last one goes', () => {
    const found = keptJobsFor('edge', [cluster([job('n1'), job('n2', { offset: 30 })], nodes)], '2.2.0-3.9', '', FINISHED + 100);

    expect(found).toEqual({
      nodes: 2, finished: FINISHED, until: FINISHED + 930
    });
  });

  it('ignores Jobs gone by their TTL, of another version, still running, or on nodes that carry their hash', () => {
    const clusters = [cluster([job('n1', { version: '2.2.0-3.8' }), job('n2', { complete: 'False' })], nodes), cluster([job('n3')], [node('n3', HASH_39)])];

    expect(keptJobsFor('edge', clusters, '2.2.0-3.9', '', FINISHED + 100)).toBeUndefined();
    expect(keptJobsFor('edge', [cluster([job('n1')], nodes)], '2.2.0-3.9', '', FINISHED + 900)).toBeUndefined();
    expect(keptJobsFor('other-pool', [cluster([job('n1')], nodes)], '2.2.0-3.9', '', FINISHED + 100)).toBeUndefined();
  });

  it('ignores Jobs whose FORCE differs from the write\'s: the controller replaces them and they run', () => {
    const clusters = [cluster([job('n1', { force: 'true' })], nodes)];

    expect(keptJobsFor('edge', clusters, '2.2.0-3.9', '', FINISHED + 100)).toBeUndefined();
    expect(keptJobsFor('edge', clusters, '2.2.0-3.9', 'true', FINISHED + 100)).toEqual({
      nodes: 1, finished: FINISHED, until: FINISHED + 900
    });
  });

  it('reads the tag as the controller keeps it (+ as -), and clusters not read tell nothing', () => {
    const plus = job('n1', { version: '2.2.0-3.9-build1' });

    expect(keptJobsFor('edge', [cluster([plus], nodes)], '2.2.0-3.9+build1', '', FINISHED + 1)?.nodes).toBe(1);
    expect(keptJobsFor('edge', [{
      cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'loading' }
    }], '2.2.0-3.9', '', FINISHED + 1)).toBeUndefined();
  });
});
