import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import { mount } from '@vue/test-utils';
import {
  ClusterInput, NODE_ROLLOUT_STATES, Reason, RolloutTarget, summarizeNodeRollout
} from '../../../domain';
import PoolNodeRollout from '../PoolNodeRollout.vue';
import { mountGlobals } from '../../common/__tests__/helpers';

const english = (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(__dirname, '../../../l10n/en-us.yaml'), 'utf8'));

function has(key: string): boolean {
  return typeof key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), english) === 'string';
}

const TARGET: RolloutTarget = {
  pool: 'p', image: 'r/os:v2', tag: 'v2'
};
const plan = {
  metadata: { name: 'os-upgrader-p' },
  status:   {
    latestVersion: 'v2', latestHash: 'h', applying: ['n2', 'n3']
  }
};
const failedJob = {
  metadata: {
    labels: {
      'upgrade.cattle.io/node': 'n2', 'upgrade.cattle.io/plan': 'os-upgrader-p', 'plan.upgrade.cattle.io/os-upgrader-p': 'h'
    }
  },
  status: {
    conditions: [{
      type: 'Failed', status: 'True', message: 'disk full'
    }]
  },
};
const node = (name: string, hash: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, labels: { 'plan.upgrade.cattle.io/os-upgrader-p': hash, 'elemental.cattle.io/tag': hash === 'h' ? 'v2' : 'v1' } }, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { osImage: 'SUSE Linux Micro 6.1' } }, ...extra
});
const read: ClusterInput = {
  cluster:   'a',
  clusterId: 'c-m-a',
  reading:   {
    kind: 'read', plans: [plan], jobs: [failedJob], nodes: [node('n1', 'h'), node('n2', 'old'), node('n3', 'old', { spec: { unschedulable: true } })]
  }
};

describe('PoolNodeRollout', () => {
  it('shows the verdict, the failed node with its message, and each cluster on demand', async() => {
    const summary = summarizeNodeRollout({
      target:   TARGET,
      clusters: [read, {
        cluster: 'b', clusterId: 'c-m-b', reading: { kind: 'forbidden' }
      }]
    });
    const wrapper = mount(PoolNodeRollout, { props: { summary }, global: mountGlobals() });

    expect(wrapper.attributes('data-verdict')).toBe('failed');
    expect(wrapper.find('[data-testid="pool-nodes-failure"]').text()).toContain('"node":"n2","message":"disk full"');
    expect(wrapper.find('[data-testid="pool-nodes-clusters"]').exists()).toBe(false);
    await wrapper.find('[data-testid="pool-nodes-clusters-toggle"]').trigger('click');
    expect(wrapper.find('[data-testid="pool-nodes-clusters-toggle"]').attributes('aria-expanded')).toBe('true');
    expect(wrapper.findAll('[data-testid="pool-nodes-cluster"]').map((li) => li.attributes('data-reading'))).toEqual(['read', 'forbidden']);
  });

  it('has an English text for every message the rules can give', () => {
    const keys = new Set<string>();
    const add = (reason: Reason) => keys.add(reason.key);
    const kinds: ClusterInput['reading'][] = [{ kind: 'loading' }, { kind: 'forbidden' }, { kind: 'unreachable' }, { kind: 'unmapped' }];
    const retriedPlan = {
      ...plan,
      status: {
        ...plan.status,
        conditions: [{
          type: 'Complete', status: 'False', reason: 'JobFailed', message: 'Job cattle-system/j failed on Node n3: BackoffLimitExceeded: disk full'
        }]
      }
    };
    const inputs: { clusters: ClusterInput[]; bundleMissing?: boolean }[] = [
      { clusters: [read] }, { clusters: [] }, { clusters: [read], bundleMissing: true },
      // Plans and Jobs hidden from the person; a node failing again and being retried.
      {
        clusters: [{
          ...read,
          reading: {
            kind: 'read', plans: [], jobs: [], nodes: [node('n1', 'h'), node('n2', 'old')], hidden: ['plans', 'jobs']
          }
        }]
      },
      {
        clusters: [{
          ...read,
          reading: {
            kind:  'read',
            plans: [retriedPlan],
            jobs:  [{
              ...failedJob, metadata: { labels: { ...failedJob.metadata.labels, 'upgrade.cattle.io/node': 'n3' } }, status: { active: 1 }
            }],
            nodes: [node('n1', 'h'), node('n3', 'old')]
          }
        }]
      },
      {
        clusters: [{
          ...read,
          reading: {
            kind: 'read', plans: [], jobs: [], nodes: []
          }
        }]
      },
      {
        clusters: [{
          ...read,
          reading: {
            kind: 'read', plans: [plan], jobs: [], nodes: [node('n1', 'h')]
          }
        }]
      },
      {
        clusters: [{
          ...read,
          reading: {
            kind: 'read', plans: [plan], jobs: [], nodes: [node('n1', 'h'), node('n4', 'old')]
          }
        }]
      },
      ...kinds.map((reading) => ({
        clusters: [{ ...read, reading }, {
          ...read,
          cluster: 'x',
          reading: {
            kind: 'read' as const, plans: [], jobs: [], nodes: [node('n9', 'old')]
          }
        }]
      })),
    ];

    for (const input of inputs) {
      const summary = summarizeNodeRollout({ target: TARGET, ...input });

      add(summary.message);
      summary.details.forEach(add);
      summary.clusters.forEach((c) => add(c.message));
      keys.add(`osUpgrades.rollout.verdict.${ summary.verdict }`);
    }
    expect(keys).toContain('osUpgrades.rollout.retrying');
    expect(keys).toContain('osUpgrades.rollout.cluster.hidden');
    expect(keys).toContain('osUpgrades.rollout.nodesUnknown');
    for (const state of NODE_ROLLOUT_STATES) {
      keys.add(`osUpgrades.rollout.state.${ state }`);
      keys.add(`osUpgrades.rollout.count.${ state === 'failed' ? 'waiting' : state === 'updated' ? 'waiting' : state }`);
    }
    expect(keys.size).toBeGreaterThan(20);
    expect([...keys].filter((key) => !has(key))).toEqual([]);
  });
});
