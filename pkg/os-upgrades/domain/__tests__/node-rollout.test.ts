import fc from 'fast-check';
import {
  bundleOwners, ClusterInput, failedJobs, isBundleMissing, newestPodName, scriptFailure, matchesLabelSelector, nodeRolloutRows, NodeRolloutState, rolloutTarget, RolloutTarget, shortImageName, summarizeNodeRollout, upgradePlanName
} from '../index';

const IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container';
const TARGET: RolloutTarget = {
  pool: 'edge', image: `${ IMAGE }:2.2.0-3.12`, tag: '2.2.0-3.12'
};
const PLAN = 'os-upgrader-edge';
const HASH = 'h-new';
const T0 = '2024-05-01T08:00:00Z';
const T0_SECONDS = Date.parse(T0) / 1000;
/** What Kubernetes' Job controller writes; the script's words are only in the pod's log. */
const JOB_MESSAGE = 'Job has reached the specified backoff limit';
const FAILED_LOG = [
  '+ flock -w 600 200', '+ nsenter -i -m -t 1 -- systemctl is-system-running', 'running', '+ elemental --debug upgrade --system.uri dir:/',
  'ERRO[0004] no space left on device', '',
].join('\n');

/**
 * `noTag`: the job for the pinned Plan succeeded, but the node carries no elemental.cattle.io/tag label.
 * `stale`: the job succeeded, but the tag label kept an older tag (the new label set was refused).
 */
type Shape = 'updated' | 'old' | 'draining' | 'upgrading' | 'rebooting' | 'failed' | 'higher' | 'noTag' | 'stale';
/** What a real kubelet reports: /etc/os-release PRETTY_NAME. */
const PRETTY_NAME = 'SUSE Linux Micro 6.1';

function plan(applying: string[] = [], version = '2.2.0-3.12') {
  return {
    metadata: { name: PLAN, namespace: 'cattle-system' },
    spec:     {
      version,
      nodeSelector: {
        matchExpressions: [{
          key: 'role', operator: 'NotIn', values: ['control']
        }]
      }
    },
    status: {
      latestVersion: version, latestHash: HASH, applying
    },
  };
}

function node(name: string, shape: Shape, extraLabels: Record<string, string> = {}) {
  const tag = shape === 'updated' ? '2.2.0-3.12' : shape === 'higher' ? '2.3.0-1.1' : '2.2.0-3.9';
  const labelled = shape === 'updated' || shape === 'higher' || shape === 'noTag' || shape === 'stale';
  const tagLabel = shape === 'noTag' ? {} : { 'elemental.cattle.io/tag': tag };

  return {
    metadata: {
      name,
      labels: {
        ...extraLabels, ...tagLabel, ...(labelled ? { [`plan.upgrade.cattle.io/${ PLAN }`]: HASH } : { [`plan.upgrade.cattle.io/${ PLAN }`]: 'h-old' })
      }
    },
    spec:   ['draining', 'upgrading', 'rebooting', 'failed'].includes(shape) ? { unschedulable: true } : {},
    status: {
      conditions: [shape === 'rebooting' ? {
        type: 'Ready', status: 'Unknown', lastTransitionTime: T0
      } : { type: 'Ready', status: 'True' }],
      nodeInfo: { osImage: PRETTY_NAME },
    },
  };
}

function job(nodeName: string, shape: Shape) {
  const labels = {
    'upgrade.cattle.io/node': nodeName, 'upgrade.cattle.io/plan': PLAN, [`plan.upgrade.cattle.io/${ PLAN }`]: HASH
  };

  return {
    metadata: { name: `apply-${ PLAN }-on-${ nodeName }-with-${ HASH }`, labels },
    status:   shape === 'failed' ? {
      failed:     1,
      conditions: [{
        type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: JOB_MESSAGE, lastTransitionTime: T0
      }]
    } : {
      active: 1, ready: shape === 'upgrading' ? 1 : 0, startTime: T0
    },
  };
}

function cluster(name: string, shapes: Shape[], version?: string, withLogs = true): ClusterInput {
  const names = shapes.map((_, i) => `${ name }-node-${ i + 1 }`);
  const moving = shapes.map((s, i) => (['draining', 'upgrading', 'rebooting', 'failed'].includes(s) ? names[i] : '')).filter(Boolean);

  return {
    cluster:   name,
    clusterId: `c-m-${ name }`,
    reading:   {
      kind:  'read',
      plans: [plan(moving, version)],
      jobs:  moving.map((n) => job(n, shapes[names.indexOf(n)])),
      nodes: shapes.map((s, i) => node(names[i], s)),
      logs:  withLogs ? Object.fromEntries(moving.filter((n) => shapes[names.indexOf(n)] === 'failed').map((n) => [`apply-${ PLAN }-on-${ n }-with-${ HASH }`, FAILED_LOG])) : undefined,
    },
  };
}

describe('failure logs', () => {
  it('takes the last line the script\'s commands printed, not its set -x trace', () => {
    expect(scriptFailure(FAILED_LOG)).toBe('ERRO[0004] no space left on device');
    expect(scriptFailure('+ a\r\n++ nested\r\nreal output\r\n+ exit 1\r\n')).toBe('real output');
    expect(scriptFailure('+ only\n+ trace\n')).toBe('');
    expect(scriptFailure('')).toBe('');
  });

  it('names the failed jobs and the newest pod of a job', () => {
    const jobs = cluster('a', ['failed', 'upgrading']).reading;

    expect(jobs.kind === 'read' && failedJobs(jobs.jobs)).toEqual([{ name: `apply-${ PLAN }-on-a-node-1-with-${ HASH }`, uid: '' }]);
    const pod = (name: string, created: string, jobName: string) => ({
      metadata: {
        name, creationTimestamp: created, labels: { 'job-name': jobName }
      }
    });

    expect(newestPodName([
      pod('p-1', '2024-05-01T08:00:00Z', 'j'), pod('p-3', '2024-05-01T08:02:00Z', 'j'), pod('p-2', '2024-05-01T08:01:00Z', 'j'),
    ], 'j')).toBe('p-3');
    expect(newestPodName([], 'j')).toBe('');
  });

  it('never takes another job\'s pod (Steve with the SQL cache ignores labelSelector and answers every pod)', () => {
    const pods = [
      {
        metadata: {
          name: 'other-new', creationTimestamp: '2024-05-01T09:00:00Z', labels: { 'job-name': 'other' }
        }
      },
      {
        metadata: {
          name: 'mine', creationTimestamp: '2024-05-01T08:00:00Z', labels: { 'job-name': 'mine-job' }
        }
      },
      { metadata: { name: 'unlabelled', creationTimestamp: '2024-05-01T10:00:00Z' } },
    ];

    expect(newestPodName(pods, 'mine-job')).toBe('mine');
    expect(newestPodName(pods, 'gone')).toBe('');
  });
});

describe('nodeRolloutRows', () => {
  it('reads each node\'s state from its label, the Plan\'s applying list, its Job and its conditions', () => {
    const rows = nodeRolloutRows(TARGET, cluster('a', ['updated', 'old', 'draining', 'upgrading', 'rebooting', 'failed', 'higher']));

    expect(rows.map((r) => r.state)).toEqual(['updated', 'waiting', 'draining', 'upgrading', 'rebooting', 'failed', 'other'] as NodeRolloutState[]);
    expect(rows[5]).toMatchObject({
      node: 'a-node-6', message: 'ERRO[0004] no space left on device', jobMessage: JOB_MESSAGE, since: T0_SECONDS, image: PRETTY_NAME, tag: '2.2.0-3.9', id: 'c-m-a/a-node-6'
    });
    expect(rows[2].since).toBe(T0_SECONDS);
    expect(rows[0].since).toBeUndefined();
  });

  it('says a node that is not Ready may not come back when the pool\'s image gives it a label the kubelet refuses', () => {
    const rows = nodeRolloutRows(TARGET, cluster('a', ['updated', 'rebooting', 'upgrading']));

    expect(rows.map((r) => r.labelRefused)).toEqual([undefined, { key: 'elemental.cattle.io/image', length: `${ IMAGE }:2.2.0-3.12`.length }, undefined]);
    expect(nodeRolloutRows({ ...TARGET, image: 'registry.example.test/os:2.2.0-3.12' }, cluster('a', ['rebooting']))[0].labelRefused).toBeUndefined();
  });

  it('does not count a node that is not Ready as on the image when the image gives it a label the kubelet refuses', () => {
    const input = cluster('a', ['updated']);
    const reading = input.reading as unknown as { nodes: { status: { conditions: unknown[] } }[] };

    reading.nodes[0].status.conditions = [{
      type: 'Ready', status: 'Unknown', lastTransitionTime: T0
    }];
    const [row] = nodeRolloutRows(TARGET, input);

    expect(row).toMatchObject({ state: 'unknown', labelRefused: { key: 'elemental.cattle.io/image', length: 64 } });
    expect(summarizeNodeRollout({ target: TARGET, clusters: [input] }).verdict).toBe('unknown');
    expect(summarizeNodeRollout({ target: { ...TARGET, image: 'registry.example.test/os:2.2.0-3.12' }, clusters: [input] }).verdict).toBe('rolledOut');
  });

  it('marks a node cordoned when no Job of the pool runs or failed on it: a deleted Job leaves the cordon', () => {
    const input = cluster('a', ['updated', 'old', 'draining', 'upgrading', 'rebooting', 'failed']);
    const reading = input.reading as unknown as { nodes: { spec: Record<string, unknown> }[] };

    // Its pool deleted mid-upgrade, then approved again: the node rebooted into the image, still cordoned.
    reading.nodes[0].spec = { unschedulable: true };
    reading.nodes[1].spec = { unschedulable: true };

    expect(nodeRolloutRows(TARGET, input).map((r) => r.cordoned)).toEqual([true, true, undefined, undefined, undefined, undefined]);
    expect(nodeRolloutRows(TARGET, cluster('a', ['updated', 'old'])).map((r) => r.cordoned)).toEqual([undefined, undefined]);
  });

  it('says the Job\'s own message when its pod\'s log is not read (yet)', () => {
    const rows = nodeRolloutRows(TARGET, cluster('a', ['failed'], undefined, false));

    expect(rows[0]).toMatchObject({
      state: 'failed', message: JOB_MESSAGE, jobMessage: JOB_MESSAGE
    });
  });

  it('counts only the nodes the Plan selects', () => {
    const input = cluster('a', ['updated']);

    if (input.reading.kind === 'read') {
      input.reading = { ...input.reading, nodes: [...input.reading.nodes, node('a-control', 'old', { role: 'control' })] };
    }
    expect(nodeRolloutRows(TARGET, input).map((r) => r.node)).toEqual(['a-node-1']);
  });

  it('says waiting while the cluster still has the Plan of the old image, even on labelled nodes', () => {
    expect(nodeRolloutRows(TARGET, cluster('a', ['higher', 'old'], '2.2.0-3.9')).map((r) => r.state)).toEqual(['waiting', 'waiting']);
  });

  it('tells a skipped upgrade by the tag the node booted, and says unknown when the node reports no tag', () => {
    // suc-upgrade exits 0 on a host with a higher version: the job succeeded, the node kept its image.
    const rows = nodeRolloutRows(TARGET, cluster('a', ['higher', 'noTag', 'updated']));

    expect(rows.map((r) => [r.state, r.tag])).toEqual([['other', '2.3.0-1.1'], ['unknown', undefined], ['updated', '2.2.0-3.12']]);
    expect(rows.every((r) => r.image === PRETTY_NAME)).toBe(true);
  });

  it('says a node\'s tag label is stale when its job completed for a higher tag, and claims neither tag', () => {
    const [row] = nodeRolloutRows(TARGET, cluster('a', ['stale']));

    expect(row.state).toBe('unknown');
    expect(row.tag).toBeUndefined();
    expect(row.staleLabel).toEqual({ label: '2.2.0-3.9', plan: '2.2.0-3.12' });
    expect(nodeRolloutRows(TARGET, cluster('a', ['updated']))[0].staleLabel).toBeUndefined();
  });

  it('never reads a tag out of osImage: a kubelet reports the distribution\'s name there', () => {
    const input = cluster('a', ['noTag'], '2.2.0-3.9');

    if (input.reading.kind === 'read') {
      (input.reading.nodes[0] as { status: { nodeInfo: { osImage: string } } }).status.nodeInfo.osImage = `${ IMAGE }:2.2.0-3.12`;
    }
    expect(nodeRolloutRows(TARGET, input)[0].state).toBe('waiting');
  });

  it('gives nothing for a cluster that could not be read', () => {
    expect(nodeRolloutRows(TARGET, {
      cluster: 'x', clusterId: 'c-m-x', reading: { kind: 'forbidden' }
    })).toEqual([]);
  });
});

describe('summarizeNodeRollout', () => {
  it('says "N of M nodes on <image>" with the counts of nodes in motion', () => {
    const summary = summarizeNodeRollout({ target: TARGET, clusters: [cluster('a', ['updated', 'draining']), cluster('b', ['upgrading', 'rebooting', 'old'])] });

    expect(summary.verdict).toBe('progressing');
    expect(summary.message).toEqual({
      key:    'osUpgrades.rollout.progress',
      values: {
        updated: 1, total: 5, image: 'base-os-container:2.2.0-3.12'
      }
    });
    expect(summary.details.map((d) => [d.key, d.values?.count])).toEqual([
      ['osUpgrades.rollout.count.draining', 1], ['osUpgrades.rollout.count.upgrading', 1], ['osUpgrades.rollout.count.rebooting', 1], ['osUpgrades.rollout.count.waiting', 1],
    ]);
    expect(summary.clusters.map((c) => c.message.key)).toEqual(['osUpgrades.rollout.progress', 'osUpgrades.rollout.progress']);
  });

  it('is rolled out only when every targeted node reports the pinned image', () => {
    const done = summarizeNodeRollout({ target: TARGET, clusters: [cluster('a', ['updated', 'updated']), cluster('b', ['updated'])] });

    expect(done.verdict).toBe('rolledOut');
    expect(done.message).toEqual({ key: 'osUpgrades.rollout.done', values: { total: 3, image: 'base-os-container:2.2.0-3.12' } });
    expect(summarizeNodeRollout({ target: TARGET, clusters: [cluster('a', ['updated', 'higher'])] }).verdict).toBe('progressing');
  });

  it('names the failed node and its job\'s message, and is never rolled out then', () => {
    const summary = summarizeNodeRollout({
      target:   TARGET,
      clusters: [cluster('a', ['updated', 'failed']), {
        cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'forbidden' }
      }]
    });

    expect(summary.verdict).toBe('failed');
    expect(summary.failures).toEqual([{
      cluster: 'a', node: 'a-node-2', message: 'ERRO[0004] no space left on device'
    }]);
    expect(summary.clusters[0].message).toEqual({
      key:    'osUpgrades.rollout.cluster.failed',
      values: {
        count: 1, node: 'a-node-2', message: 'ERRO[0004] no space left on device'
      }
    });
  });

  it('says "delivered to N clusters; node state unknown for X" instead of guessing', () => {
    const summary = summarizeNodeRollout({
      target:   TARGET,
      clusters: [cluster('a', ['updated']), {
        cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'forbidden' }
      }, {
        cluster: 'c', clusterId: '', reading: { kind: 'unmapped' }
      }],
    });

    expect(summary.verdict).toBe('unknown');
    expect(summary.message).toEqual({
      key:    'osUpgrades.rollout.unknown',
      values: {
        delivered: 3, count: 2, clusters: 'b, c'
      }
    });
    expect(summary.details[0]).toEqual({
      key:    'osUpgrades.rollout.knownProgress',
      values: {
        updated: 1, total: 1, image: 'base-os-container:2.2.0-3.12'
      }
    });
    expect(summary.clusters[1].message).toEqual({ key: 'osUpgrades.rollout.cluster.forbidden', values: { cluster: 'b' } });
  });

  it('gives the reason a cluster cannot be reached when Rancher says it', () => {
    const summary = summarizeNodeRollout({
      target:   TARGET,
      clusters: [cluster('a', ['updated']), {
        cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'unreachable', message: 'cluster agent disconnected' }
      }, {
        cluster: 'c', clusterId: 'c-m-c', reading: { kind: 'unreachable' }
      }],
    });

    expect(summary.verdict).toBe('unknown');
    expect(summary.unknownClusters).toEqual(['b', 'c']);
    expect(summary.clusters[1].message).toEqual({ key: 'osUpgrades.rollout.cluster.unreachableBecause', values: { cluster: 'b', reason: 'cluster agent disconnected' } });
    expect(summary.clusters[2].message).toEqual({ key: 'osUpgrades.rollout.cluster.unreachable', values: { cluster: 'c' } });
  });

  it('reports a missing bundle, no clusters, no nodes and clusters still loading', () => {
    expect(summarizeNodeRollout({
      target: TARGET, clusters: [cluster('a', ['updated'])], bundleMissing: true
    }).verdict).toBe('bundleMissing');
    expect(summarizeNodeRollout({ target: TARGET, clusters: [] }).verdict).toBe('noClusters');
    expect(summarizeNodeRollout({ target: TARGET, clusters: [cluster('a', [])] }).verdict).toBe('noNodes');
    expect(summarizeNodeRollout({
      target:   TARGET,
      clusters: [cluster('a', ['updated']), {
        cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'loading' }
      }]
    }).verdict).toBe('loading');
  });

  it('property: rolled out exactly when every node of readable clusters is updated and no cluster is unknown', () => {
    const shape = fc.constantFrom<Shape>('updated', 'old', 'draining', 'upgrading', 'rebooting', 'failed', 'higher', 'noTag');

    fc.assert(fc.property(fc.array(fc.array(shape, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), fc.boolean(), (clusters, oneForbidden) => {
      const inputs: ClusterInput[] = clusters.map((shapes, i) => cluster(`c${ i }`, shapes));

      if (oneForbidden) {
        inputs.push({
          cluster: 'hidden', clusterId: 'c-m-hidden', reading: { kind: 'forbidden' }
        });
      }
      const summary = summarizeNodeRollout({ target: TARGET, clusters: inputs });
      const all = clusters.flat();
      const expected = !oneForbidden && all.length > 0 && all.every((s) => s === 'updated');

      expect(summary.verdict === 'rolledOut').toBe(expected);
      expect(summary.counts.total).toBe(all.length);
      expect(summary.counts.updated + summary.counts.waiting + summary.counts.draining + summary.counts.upgrading + summary.counts.rebooting + summary.counts.failed + summary.counts.other + summary.counts.unknown).toBe(all.length);
      if (all.includes('failed')) {
        expect(summary.verdict).toBe('failed');
      }
    }));
  });
});

describe('the system-upgrade-controller\'s job cycle', () => {
  const JOB = `apply-${ PLAN }-on-a-node-1-with-${ HASH }`;

  /** The Plan as handle_batch.go leaves it after a Job failed: Complete=False, JobFailed, naming the node. */
  function failedPlan(reason = 'BackoffLimitExceeded', message = JOB_MESSAGE) {
    const p = plan(['a-node-1']);

    return {
      ...p,
      status: {
        ...p.status,
        conditions: [{
          type: 'Complete', status: 'False', reason: 'JobFailed', message: `Job cattle-system/${ JOB } failed on Node a-node-1: ${ reason }: ${ message }`
        }]
      }
    };
  }

  function reading(jobs: unknown[], logs: Record<string, string> = { [JOB]: FAILED_LOG }, p: unknown = failedPlan()): ClusterInput {
    return {
      cluster:   'a',
      clusterId: 'c-m-a',
      reading:   {
        kind: 'read', plans: [p], jobs, nodes: [node('a-node-1', 'upgrading')], logs
      }
    };
  }

  it('keeps a node failed, with the script\'s words, after its failed Job was deleted and before the Plan makes a new one', () => {
    const [row] = nodeRolloutRows(TARGET, reading([]));

    expect(row).toMatchObject({
      state: 'failed', message: 'ERRO[0004] no space left on device', jobMessage: JOB_MESSAGE
    });
    expect(summarizeNodeRollout({ target: TARGET, clusters: [reading([])] }).verdict).toBe('failed');
  });

  it('says a node being retried failed before, with the last failure\'s message, and does not count it failed', () => {
    const input = reading([job('a-node-1', 'upgrading')]);
    const [row] = nodeRolloutRows(TARGET, input);
    const summary = summarizeNodeRollout({ target: TARGET, clusters: [input] });

    expect(row).toMatchObject({ state: 'upgrading', retrying: 'ERRO[0004] no space left on device' });
    expect(summary.verdict).toBe('progressing');
    expect(summary.details[0]).toEqual({
      key:    'osUpgrades.rollout.retrying',
      values: {
        count: 1, cluster: 'a', node: 'a-node-1', message: 'ERRO[0004] no space left on device'
      }
    });
  });

  it('gives the Plan\'s words for a retried node whose earlier log was never read', () => {
    const [row] = nodeRolloutRows(TARGET, reading([job('a-node-1', 'upgrading')], {}));

    expect(row.retrying).toBe(JOB_MESSAGE);
  });

  it('says a job stopped at its active deadline was stopped, not the last line its script printed', () => {
    const deadline = 'Job was active longer than specified deadline';
    const stopped = {
      ...job('a-node-1', 'failed'),
      status: {
        failed:     1,
        conditions: [{
          type: 'Failed', status: 'True', reason: 'DeadlineExceeded', message: deadline, lastTransitionTime: T0
        }]
      }
    };
    const [row] = nodeRolloutRows(TARGET, reading([stopped], { [JOB]: '+ elemental --debug upgrade\nINFO pulling image layer 3 of 9\n' }, failedPlan('DeadlineExceeded', deadline)));

    expect(row).toMatchObject({ state: 'failed', message: deadline });
  });

  it('does not take the first pod\'s exit 1 after the reboot for a failure: the Job runs its second pod', () => {
    const rebooted = {
      ...job('a-node-1', 'upgrading'),
      status: {
        active: 1, failed: 1, ready: 1, startTime: T0
      }
    };
    const input: ClusterInput = {
      cluster:   'a',
      clusterId: 'c-m-a',
      reading:   {
        kind: 'read', plans: [plan(['a-node-1'])], jobs: [rebooted], nodes: [node('a-node-1', 'upgrading')]
      }
    };

    expect(nodeRolloutRows(TARGET, input)[0].state).toBe('upgrading');
    expect(summarizeNodeRollout({ target: TARGET, clusters: [input] }).failures).toEqual([]);
  });
});

describe('a person who may read the nodes but not the Plans and Jobs', () => {
  function partial(shapes: Shape[]): ClusterInput {
    const input = cluster('a', shapes);

    return input.reading.kind === 'read' ? {
      ...input,
      reading: {
        ...input.reading, plans: [], jobs: [], hidden: ['plans', 'jobs']
      }
    } : input;
  }

  it('counts a node on the image by the tag it booted, and says the others\' state is unknown, not waiting', () => {
    const rows = nodeRolloutRows(TARGET, partial(['updated', 'old', 'noTag']));

    expect(rows.map((r) => r.state)).toEqual(['updated', 'unknown', 'unknown']);
    const summary = summarizeNodeRollout({ target: TARGET, clusters: [partial(['updated', 'old'])] });

    expect(summary.verdict).toBe('unknown');
    expect(summary.message).toEqual({
      key:    'osUpgrades.rollout.nodesUnknown',
      values: {
        updated: 1, total: 2, image: 'base-os-container:2.2.0-3.12', unknown: 1
      }
    });
    expect(summary.clusters[0].message).toEqual({ key: 'osUpgrades.rollout.cluster.hidden', values: { cluster: 'a' } });
  });

  it('is rolled out there when every node reports the pinned tag', () => {
    expect(summarizeNodeRollout({ target: TARGET, clusters: [partial(['updated', 'updated'])] }).verdict).toBe('rolledOut');
  });
});

describe('helpers', () => {
  it('names the Plan as the operator does and shortens image names', () => {
    expect(upgradePlanName('edge_berlin')).toBe('os-upgrader-edge-berlin');
    expect(shortImageName(`${ IMAGE }:2.2.0-3.12`)).toBe('base-os-container:2.2.0-3.12');
  });

  it('takes the target from spec.osImage or the pinned version', () => {
    const versions = [{
      name: 'v12', namespace: 'fleet-default', channel: '', version: '', type: 'container', displayName: '', image: `${ IMAGE }:2.2.0-3.12`, platforms: [], inSync: true
    }];

    expect(rolloutTarget({ metadata: { name: 'p', namespace: 'fleet-default' }, spec: { managedOSVersionName: 'v12', nodeSelector: { matchLabels: { a: 'b' } } } }, versions))
      .toEqual({
        pool: 'p', image: `${ IMAGE }:2.2.0-3.12`, tag: '2.2.0-3.12', nodeSelector: { matchLabels: { a: 'b' } }
      });
    expect(rolloutTarget({ metadata: { name: 'p' }, spec: { osImage: 'r/os:v9' } }, []).tag).toBe('v9');
  });

  it('matches label selectors as Kubernetes does', () => {
    const labels = { role: 'worker', zone: 'a' };

    expect(matchesLabelSelector(undefined, labels)).toBe(true);
    expect(matchesLabelSelector({ matchLabels: { role: 'worker' } }, labels)).toBe(true);
    expect(matchesLabelSelector({
      matchExpressions: [{
        key: 'zone', operator: 'In', values: ['b']
      }]
    }, labels)).toBe(false);
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }, { key: 'role', operator: 'Exists' }] }, labels)).toBe(true);
    expect(matchesLabelSelector({
      matchExpressions: [{
        key: 'role', operator: 'Gt', values: ['1']
      }]
    }, labels)).toBe(false);
    expect(matchesLabelSelector('junk', labels)).toBe(false);
  });
});

describe('isBundleMissing', () => {
  const pool = { metadata: { name: 'edge', namespace: 'fleet-default' }, status: { conditions: [{ type: 'FleetBundleCreation', status: 'True' }] } };

  it('is true only when the pool says its bundle was created and no bundle of it exists', () => {
    expect(isBundleMissing(pool, [])).toBe(true);
    expect(isBundleMissing(pool, [{ metadata: { name: 'mos-edge', namespace: 'fleet-default' } }])).toBe(false);
    expect(isBundleMissing(pool, [{
      metadata: {
        name: 'other', namespace: 'fleet-default', ownerReferences: [{ kind: 'ManagedOSImage', name: 'edge' }]
      }
    }])).toBe(false);
    expect(isBundleMissing(pool, [{ metadata: { name: 'mos-edge', namespace: 'fleet-local' } }])).toBe(true);
    expect(isBundleMissing({ metadata: { name: 'new' } }, [])).toBe(false);
  });

  it('answers the same from the bundles\' owners worked out once for many pools', () => {
    const bundles = [
      { metadata: { name: 'mos-edge', namespace: 'fleet-local' } },
      {
        metadata: {
          name: 'x', namespace: 'fleet-default', ownerReferences: [{ kind: 'ManagedOSImage', name: 'other' }, { kind: 'GitRepo', name: 'edge' }]
        }
      },
    ];
    const owners = bundleOwners(bundles);

    expect([...owners].sort()).toEqual(['fleet-default/other', 'fleet-local/edge']);
    for (const name of ['edge', 'other', 'none']) {
      const one = { ...pool, metadata: { ...pool.metadata, name } };

      expect(isBundleMissing(one, owners)).toBe(isBundleMissing(one, bundles));
    }
    expect(isBundleMissing(pool, owners)).toBe(true);
  });
});

describe('kept Jobs (rule "Kept Jobs")', () => {
  // 63 characters: Elemental writes its labels, so a lower tag label is not stale.
  const FITS: RolloutTarget = {
    pool: 'edge', image: `${ IMAGE }:2.2.1-1.1`, tag: '2.2.1-1.1'
  };
  const FINISHED = '2024-05-01T08:00:00Z';
  const FINISHED_SECONDS = Date.parse(FINISHED) / 1000;

  /** A node applying the Plan whose Job for its hash is Complete, finished at FINISHED; the Plan's Complete condition last changed at `planChanged`. */
  function held(planChanged: string, ttl?: number): ClusterInput {
    const planObject = plan(['a-node-1'], '2.2.1-1.1');

    return {
      cluster:   'a',
      clusterId: 'c-m-a',
      reading:   {
        kind:  'read',
        plans: [{
          ...planObject,
          status: {
            ...planObject.status,
            conditions: [{
              type: 'Complete', status: 'False', reason: 'SyncJob', lastUpdateTime: planChanged
            }]
          }
        }],
        jobs: [{
          ...job('a-node-1', 'updated'),
          spec:   ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
          status: {
            succeeded:      1,
            completionTime: FINISHED,
            conditions:     [{
              type: 'Complete', status: 'True', lastTransitionTime: FINISHED
            }]
          },
        }],
        nodes: [node('a-node-1', 'old')],
      },
    };
  }

  it('says a node waits on a Job the controller kept from an earlier roll out, and until when', () => {
    const [row] = nodeRolloutRows(FITS, held('2024-05-01T08:05:00Z', 900));

    expect(row.state).toBe('waiting');
    expect(row.keptJob).toEqual({
      finished: FINISHED_SECONDS, until: FINISHED_SECONDS + 900, planName: PLAN
    });
    expect(row.since).toBe(FINISHED_SECONDS);
    expect(nodeRolloutRows(FITS, held('2024-05-01T08:05:00Z'))[0].keptJob).toEqual({ finished: FINISHED_SECONDS, planName: PLAN });
  });

  it('does not call a Job that finished during this roll out kept (the node gets its hash at once)', () => {
    const [row] = nodeRolloutRows(FITS, held('2024-05-01T07:59:00Z', 900));

    expect(row.keptJob).toBeUndefined();
    expect(row.state).not.toBe('waiting');
  });

  it('says a node with the hash but a lower tag was marked without an upgrade when the image\'s labels fit', () => {
    const input = cluster('a', ['stale'], '2.2.1-1.1');
    const [row] = nodeRolloutRows(FITS, input);

    expect(row.state).toBe('other');
    expect(row.tag).toBe('2.2.0-3.9');
    expect(row.markedNotUpgraded).toEqual({
      label: '2.2.0-3.9', plan: '2.2.1-1.1', planName: PLAN
    });
    expect(row.staleLabel).toBeUndefined();
    // An image whose labels do not fit: the label is stale, as before.
    expect(nodeRolloutRows(TARGET, cluster('a', ['stale']))[0].markedNotUpgraded).toBeUndefined();
  });
});

describe('kept Jobs in the pool\'s summary', () => {
  it('says how many nodes wait on kept Jobs, and how many were marked without an upgrade', () => {
    const rows = (state: 'kept' | 'marked') => ({
      cluster:   'a',
      clusterId: 'c-m-a',
      reading:   {
        kind:  'read' as const,
        plans: [{
          ...plan(state === 'kept' ? ['a-node-1'] : [], '2.2.1-1.1'),
          status: {
            latestVersion: '2.2.1-1.1',
            latestHash:    HASH,
            applying:      state === 'kept' ? ['a-node-1'] : [],
            conditions:    [{
              type: 'Complete', status: 'False', lastUpdateTime: '2024-05-01T08:05:00Z'
            }]
          }
        }],
        jobs: state === 'kept' ? [{
          ...job('a-node-1', 'updated'), spec: { ttlSecondsAfterFinished: 900 }, status: { completionTime: T0, conditions: [{ type: 'Complete', status: 'True' }] }
        }] : [],
        nodes: [node('a-node-1', state === 'kept' ? 'old' : 'stale')],
      },
    });
    const target: RolloutTarget = {
      pool: 'edge', image: `${ IMAGE }:2.2.1-1.1`, tag: '2.2.1-1.1'
    };

    expect(summarizeNodeRollout({ target, clusters: [rows('kept')] }).details[0]).toEqual({ key: 'osUpgrades.rollout.keptJobs', values: { count: 1 } });
    expect(summarizeNodeRollout({ target, clusters: [rows('marked')] }).details[0]).toEqual({ key: 'osUpgrades.rollout.markedNotUpgraded', values: { count: 1 } });
  });
});
