/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PoolsPage from '../pools.vue';
import { TYPE } from '../../config';
import { usePoolApprovalStore } from '../../stores/pool-approval';
import { forgetPoolListPage } from '../../stores/pool-list';
import { resetStores } from '../../stores/reset';
import {
  NEW, NOW, OLD, poolObject, version, VERSIONS
} from '../../domain/__tests__/pool-test-data';
import {
  fakeStore, managedVersion, shellStubs, StoreOptions, t
} from './pools-test-helpers';

const SELECTOR = '{"channel":"stable"}';

/** Lets the reads settle: the shell's paged reads wait behind a (fake) zero-delay timer. */
async function settle() {
  for (let i = 0; i < 5; i++) {
    await jest.advanceTimersByTimeAsync(1);
    await flushPromises();
  }
}

async function mountPage(options: StoreOptions) {
  const fake = fakeStore(options);
  const wrapper = mount(PoolsPage, {
    global: {
      mocks: {
        t, $store: fake.store, $route: { params: { cluster: '_' } }
      },
      stubs: shellStubs,
    },
  });

  await settle();

  return { wrapper, ...fake };
}

describe('workload pools page', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    forgetPoolListPage();
    jest.useFakeTimers({ now: NOW * 1000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => jest.useRealTimers());

  it('shows each pool with its pin, its selector in words (never its stored JSON), and what the selector would pick now', async() => {
    const { wrapper } = await mountPage({ pools: [poolObject({ pin: OLD.name, selector: SELECTOR })], versions: VERSIONS });

    expect(wrapper.find('[data-testid="pool-pin"]').text()).toBe(OLD.name);
    expect(wrapper.find('[data-testid="pool-selector-chips"]').text()).toBe('osUpgrades.selector.chip.channel {"channel":"stable"}');
    expect(wrapper.find('[data-testid="pool-selector-chips"]').attributes('title')).toBeUndefined();
    expect(wrapper.find('[data-testid="pool-would-pick"]').text()).toContain(NEW.name);
    expect(wrapper.find('[data-testid="pool-upgrade-available"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pool-approve"]').exists()).toBe(true);
  });

  it('draws a second visit at once from the lists the stores keep current, a pool changed meanwhile included', async() => {
    const first = await mountPage({ pools: [poolObject({ pin: OLD.name, selector: SELECTOR })], versions: VERSIONS });

    first.wrapper.unmount();
    // Changed while the page was away: the shell's live list is what the next visit shows.
    (first.lists[TYPE.IMAGE][0] as { metadata: { name: string } }).metadata.name = 'renamed-pool';
    const again = mount(PoolsPage, {
      global: {
        mocks: {
          t, $store: first.store, $route: { params: { cluster: '_' } }
        },
        stubs: shellStubs,
      },
    });

    // Drawn with the page, before any read answered.
    expect(again.find('[data-testid="pool-name"]').text()).toBe('renamed-pool');
    expect(again.find('[data-testid="pool-pin"]').text()).toBe(OLD.name);

    // The next person's session never sees them.
    again.unmount();
    resetStores();
    const next = mount(PoolsPage, {
      global: {
        mocks: {
          t, $store: fakeStore({ pools: [], versions: VERSIONS }).store, $route: { params: { cluster: '_' } }
        },
        stubs: shellStubs,
      },
    });

    expect(next.find('[data-testid="pool-name"]').exists()).toBe(false);
  });

  it('opens the approval for exactly the image the row offers', async() => {
    const { wrapper } = await mountPage({ pools: [poolObject({ pin: OLD.name, selector: SELECTOR })], versions: VERSIONS });

    await wrapper.find('[data-testid="pool-approve"]').trigger('click');

    expect(usePoolApprovalStore().request).toMatchObject({
      kind: 'approve', expectedPin: OLD.name, versionName: NEW.name
    });
    // The dialog loads when it first opens.
    await flushPromises();
    expect(wrapper.find('[data-testid="approve-target-name"]').text()).toBe(NEW.name);
  });

  it('shows the badge without a reload when the channel publishes a newer image', async() => {
    const { wrapper, lists } = await mountPage({ pools: [poolObject({ pin: NEW.name, selector: SELECTOR })], versions: VERSIONS });

    expect(wrapper.find('[data-testid="pool-upgrade-available"]').exists()).toBe(false);

    lists[TYPE.VERSION].push(managedVersion(version('os-v2.3.0-1', 'v2.3.0-1', 0.1)));
    await settle();

    expect(wrapper.find('[data-testid="pool-upgrade-available"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pool-would-pick"]').text()).toContain('os-v2.3.0-1');
  });

  it('follows the channel of a pool that arrives after the page read its lists (one just created)', async() => {
    const { wrapper, lists } = await mountPage({ pools: [], versions: VERSIONS });

    lists[TYPE.IMAGE].push(poolObject({ pin: OLD.name, selector: SELECTOR }));
    await settle();

    expect(wrapper.find('[data-testid="pool-would-pick"]').text()).toContain(NEW.name);
    expect(wrapper.find('[data-testid="pool-upgrade-available"]').exists()).toBe(true);
  });

  it('keeps the pin and selector of a pool whose image is gone, with a warning', async() => {
    const { wrapper } = await mountPage({ pools: [poolObject({ pin: 'deleted-v1', selector: SELECTOR })], versions: VERSIONS });

    expect(wrapper.find('[data-testid="pool-pin"]').text()).toBe('deleted-v1');
    expect(wrapper.find('[data-testid="pool-selector-chips"]').attributes('title')).toBeUndefined();
    expect(wrapper.find('[data-testid="pool-pin-missing"]').exists()).toBe(true);
  });

  it('shows the rollout state from the conditions', async() => {
    const status = {
      conditions: [{
        type: 'Ready', status: 'False', message: 'NotReady(1) [Cluster fleet-default/edge-1]'
      }]
    };
    const { wrapper } = await mountPage({ pools: [poolObject({ status })], versions: VERSIONS });

    expect(wrapper.find('[data-testid="pool-rollout"]').attributes('data-phase')).toBe('progressing');
    // Fleet's message in words, Fleet's own text on hover.
    expect(wrapper.find('[data-testid="pool-rollout"]').text()).toContain('osUpgrades.fleetMessage.state.NotReady {"count":1,"name":"fleet-default/edge-1"}');
    expect(wrapper.find('[data-testid="fleet-message"]').attributes('title')).toBe('NotReady(1) [Cluster fleet-default/edge-1]');
  });

  it('offers a viewer no create, edit, approve or roll-back action', async() => {
    const { wrapper } = await mountPage({
      pools: [poolObject({
        pin: OLD.name, selector: SELECTOR, annotations: { 'os-upgrades.cattle.io/previous-version': NEW.name }
      })],
      versions: VERSIONS,
      canWrite: false,
    });

    expect(wrapper.find('[data-testid="pool-would-pick"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pools-read-only"]').exists()).toBe(true);
    for (const action of ['pools-create', 'pool-approve', 'pool-rollback', 'pool-edit']) {
      expect(wrapper.find(`[data-testid="${ action }"]`).exists()).toBe(false);
    }
    expect(wrapper.findComponent({ name: 'PoolRowMenu' }).props('actions')).toEqual([]);
  });

  it('offers the actions only on the pools whose links allow a write', async() => {
    const local = poolObject({
      name: 'lab', pin: OLD.name, selector: SELECTOR
    });

    (local.metadata as { namespace: string }).namespace = 'fleet-local';
    const { wrapper } = await mountPage({
      pools: [poolObject({ pin: OLD.name, selector: SELECTOR }), local], versions: VERSIONS, writableNamespaces: ['fleet-default']
    });
    const rows = wrapper.findAll('.pool-row');
    const row = (id: string) => rows.find((r) => r.attributes('data-id') === id);

    const menuOf = (pool: string) => wrapper.findAllComponents({ name: 'PoolRowMenu' }).find((menu) => menu.props('pool') === pool)?.props('actions') as { id: string }[] | undefined;

    expect((menuOf('edge') ?? []).map((action) => action.id)).toEqual(expect.arrayContaining(['edit', 'editYaml']));
    expect((menuOf('lab') ?? []).map((action) => action.id)).toEqual([]);
    expect(row('fleet-default/edge')?.find('[data-testid="pool-read-only"]').exists()).toBe(false);
    expect(row('fleet-local/lab')?.find('[data-testid="pool-read-only"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pools-read-only"]').exists()).toBe(false);
  });

  it('offers a roll back to the previous pin', async() => {
    const { wrapper } = await mountPage({
      pools: [poolObject({
        pin: NEW.name, selector: SELECTOR, annotations: { 'os-upgrades.cattle.io/previous-version': OLD.name }
      })],
      versions: VERSIONS,
    });

    wrapper.findComponent({ name: 'PoolRowMenu' }).vm.$emit('action', 'rollback');

    expect(usePoolApprovalStore().request).toMatchObject({ kind: 'rollback', versionName: OLD.name });
  });

  it('reads the namespace under each name when every pool is in one, and gives it a column when they differ', async() => {
    const elsewhere = poolObject({ name: 'lab', pin: OLD.name });

    (elsewhere.metadata as { namespace: string }).namespace = 'fleet-lab';
    const one = await mountPage({ pools: [poolObject({ pin: OLD.name }), poolObject({ name: 'edge-2', pin: OLD.name })], versions: VERSIONS });

    expect(one.wrapper.findAll('[data-testid="pool-namespace"]').map((cell) => cell.text())).toEqual(['fleet-default', 'fleet-default']);
    expect(one.wrapper.findComponent({ name: 'PoolTable' }).findComponent(shellStubs.SortableTable).props('headers').map((h: { name: string }) => h.name)).not.toContain('namespace');
    one.wrapper.unmount();
    // Another Rancher (another fake store): nothing the first one's visit kept applies.
    forgetPoolListPage();

    const two = await mountPage({ pools: [poolObject({ pin: OLD.name }), elsewhere], versions: VERSIONS });

    expect(two.wrapper.findAll('[data-testid="pool-namespace"]')).toHaveLength(0);
    expect(two.wrapper.findComponent({ name: 'PoolTable' }).findComponent(shellStubs.SortableTable).props('headers').map((h: { name: string }) => h.name)).toContain('namespace');
  });
});
