/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import KeptJobsWarning from '../KeptJobsWarning.vue';
import type { ClusterInput } from '../../../domain';
import { useNodeRolloutStore } from '../../../stores/node-rollout';
import { t } from '../../common/__tests__/helpers';

const PLAN = 'os-upgrader-edge';
const FINISHED = Date.UTC(2024, 4, 1, 8, 0, 0) / 1000;
const POOL = { metadata: { name: 'edge', namespace: 'fleet-default' }, spec: {} };

/** A node rolled back to 3.8 whose Job for 3.9, from the first roll out, is still kept. */
function heldCluster(): ClusterInput {
  const labels = {
    'upgrade.cattle.io/node': 'n1', 'upgrade.cattle.io/plan': PLAN, 'upgrade.cattle.io/version': '2.2.0-3.9', [`plan.upgrade.cattle.io/${ PLAN }`]: 'hash-3.9'
  };

  return {
    cluster:   'a',
    clusterId: 'c-m-a',
    reading:   {
      kind:  'read',
      plans: [],
      nodes: [{ metadata: { name: 'n1', labels: { [`plan.upgrade.cattle.io/${ PLAN }`]: 'hash-3.8' } } }],
      jobs:  [{
        metadata: { name: 'apply', labels },
        spec:     { ttlSecondsAfterFinished: 900, template: { spec: { containers: [{ name: 'upgrade', env: [] }] } } },
        status:   { completionTime: new Date(FINISHED * 1000).toISOString(), conditions: [{ type: 'Complete', status: 'True' }] },
      }],
    },
  };
}

function mountWarning(force: string) {
  const rollout = useNodeRolloutStore();
  const $store = { getters: { 'prefs/get': (key: string) => ({ 'date-format': 'YYYY-MM-DD', 'time-format': 'HH:mm' } as Record<string, string>)[key] } };

  rollout.shell = {} as never;
  rollout.clusterInputs = (() => [heldCluster()]) as typeof rollout.clusterInputs;
  rollout.follow = jest.fn();
  rollout.release = jest.fn();

  return {
    rollout,
    wrapper: mount(KeptJobsWarning, {
      props: {
        pool: POOL, tag: '2.2.0-3.9', force, now: FINISHED + 60
      },
      global: { mocks: { t, $store }, stubs: { Banner: { template: '<div v-bind="$attrs"><slot /></div>' } } },
    }),
  };
}

describe('KeptJobsWarning', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('warns before the click that the nodes are not upgraded before the kept Jobs go, in the person\'s formats', async() => {
    const { wrapper, rollout } = mountWarning('');

    await flushPromises();
    const banner = wrapper.find('[data-testid="approve-kept-jobs"]');

    expect(banner.text()).toContain('osUpgrades.approve.keptJobsTitle');
    expect(banner.text()).toMatch(/"nodes":1/);
    expect(banner.text()).toMatch(/"until":"2024-05-01 \d\d:15"/);
    expect(rollout.follow).toHaveBeenCalledWith('kept-jobs:fleet-default/edge', expect.any(Array));
    wrapper.unmount();
    expect(rollout.release).toHaveBeenCalledWith('kept-jobs:fleet-default/edge');
  });

  it('says nothing when the write changes FORCE: the controller replaces those Jobs and they run', async() => {
    const { wrapper } = mountWarning('true');

    await flushPromises();
    expect(wrapper.find('[data-testid="approve-kept-jobs"]').exists()).toBe(false);
  });
});
