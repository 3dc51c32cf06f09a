import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ApproveDialog from '../ApproveDialog.vue';
import { usePoolApprovalStore } from '../../../stores/pool-approval';
import {
  MID, NEW, NOW, OLD, poolObject, version, VERSIONS
} from '../../../domain/__tests__/pool-test-data';
import { fakeStore, shellStubs, t, Written } from '../../../pages/__tests__/pools-test-helpers';

const SELECTOR = '{"channel":"stable"}';
const NEWER = version('os-v2.2.2-1', 'v2.2.2-1', 0.5);

function mountDialog(fake: ReturnType<typeof fakeStore>) {
  return mount(ApproveDialog, {
    props: {
      versions: VERSIONS, now: NOW, approvedBy: 'admin'
    },
    global: { mocks: { t, $store: fake.store }, stubs: shellStubs },
  });
}

const conflict = () => Promise.reject(Object.assign(new Error('the object has been modified'), { _status: 409 }));

describe('approve dialog', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows current pin → candidate and the exact change to the spec', async() => {
    const fake = fakeStore();
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('approve', poolObject({ pin: OLD.name, selector: SELECTOR }), VERSIONS, NOW);
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-current"]').text()).toContain(OLD.name);
    expect(wrapper.find('[data-testid="approve-target-name"]').text()).toBe(NEW.name);
    const removed = wrapper.findAll('[data-kind="removed"]').map((l) => l.text());
    const added = wrapper.findAll('[data-kind="added"]').map((l) => l.text());

    expect(removed).toContain(`-   managedOSVersionName: ${ OLD.name }`);
    expect(added).toContain(`+   managedOSVersionName: ${ NEW.name }`);
    expect(added).toContain(`+     os-upgrades.cattle.io/previous-version: ${ OLD.name }`);
    // The compare view between exactly the two images of the dialog.
    expect(wrapper.find('.image-compare').attributes()).toMatchObject({ 'data-old': OLD.name, 'data-new': NEW.name });
  });

  it('says in words that a roll back is a forced downgrade, and the YAML shows the FORCE', async() => {
    const fake = fakeStore();
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('rollback', poolObject({ pin: NEW.name, annotations: { 'os-upgrades.cattle.io/previous-version': OLD.name } }), VERSIONS, NOW);
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-forced"]').text()).toContain('osUpgrades.approve.forced');
    expect(wrapper.find('[data-testid="approve-same-tag"]').exists()).toBe(false);
    expect(wrapper.findAll('[data-kind="added"]').map((l) => l.text()).join('\n')).toContain('FORCE');
  });

  it('warns that a same-tag switch runs nothing on the nodes, and says when an upgrade takes FORCE back', async() => {
    const kvm = version('kvm-v2.2.1-1', 'v2.2.1-1', 0.5, { image: 'registry.example/kvm:v2.2.1-1' });
    const fake = fakeStore();
    const wrapper = mount(ApproveDialog, {
      props: {
        versions: [...VERSIONS, kvm], now: NOW, approvedBy: 'admin'
      },
      global: { mocks: { t, $store: fake.store }, stubs: shellStubs },
    });

    usePoolApprovalStore().open('approve', poolObject({
      pin: NEW.name, spec: { upgradeContainer: { envs: [{ name: 'FORCE', value: 'true' }] } }, annotations: { 'os-upgrades.cattle.io/forced': 'true', 'os-upgrades.cattle.io/forced-upgrade-container': 'true' }
    }), [...VERSIONS, kvm], NOW, kvm.name);
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-same-tag"]').text()).toContain('osUpgrades.approve.sameTag');
    expect(wrapper.find('[data-testid="approve-forceRemoved"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="approve-forced"]').exists()).toBe(false);
  });

  it('writes once however often Approve is clicked', async() => {
    let release: (value: unknown) => void = () => undefined;
    const fake = fakeStore({
      respond: () => new Promise((resolve) => {
        release = resolve;
      })
    });
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('approve', poolObject({ pin: OLD.name, selector: SELECTOR }), VERSIONS, NOW);
    await flushPromises();
    const button = wrapper.find('[data-testid="approve-confirm-async-button"]');

    await button.trigger('click');
    await button.trigger('click');
    release({});
    await flushPromises();

    expect(fake.writes).toHaveLength(1);
    expect(fake.writes[0].data.spec.managedOSVersionName).toBe(NEW.name);
    expect(wrapper.emitted('written')).toHaveLength(1);
  });

  it('on a conflict writes nothing else and shows the new state to approve again', async() => {
    const changed = poolObject({
      pin: MID.name, selector: SELECTOR, resourceVersion: '11'
    });
    const fake = fakeStore({ pools: [changed], respond: conflict });
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('approve', poolObject({
      pin: OLD.name, selector: SELECTOR, resourceVersion: '10'
    }), VERSIONS, NOW);
    await flushPromises();
    await wrapper.find('[data-testid="approve-confirm-async-button"]').trigger('click');
    await flushPromises();

    expect(fake.writes.map((w: Written) => w.data.metadata.resourceVersion)).toEqual(['10']);
    expect(wrapper.find('[data-testid="approve-notice"]').text()).toContain('osUpgrades.approve.conflict');
    expect(wrapper.find('[data-testid="approve-current"]').text()).toContain(MID.name);
    expect(usePoolApprovalStore().request?.resourceVersion).toBe('11');
    expect(wrapper.emitted('written')).toBeUndefined();
  });

  it('when the channel publishes meanwhile, says so, and the button only shows the new choice', async() => {
    const fake = fakeStore({ pools: [poolObject({ pin: OLD.name, selector: SELECTOR })] });
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('approve', poolObject({ pin: OLD.name, selector: SELECTOR }), VERSIONS, NOW);
    await flushPromises();
    await wrapper.setProps({ versions: [...VERSIONS, NEWER] });
    const button = wrapper.find('[data-testid="approve-confirm-async-button"]');

    expect(wrapper.find('[data-testid="approve-live-refusal"]').text()).toContain(NEWER.name);
    expect(button.text()).toBe('osUpgrades.approve.review');

    await button.trigger('click');
    await flushPromises();

    expect(fake.writes).toHaveLength(0);
    expect(wrapper.find('[data-testid="approve-target-name"]').text()).toBe(NEWER.name);
    expect(wrapper.find('[data-testid="approve-live-refusal"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="approve-confirm-async-button"]').text()).toBe('osUpgrades.approve.confirm');
  });

  it('offers no button when the image to roll back to is gone', async() => {
    const fake = fakeStore();
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('rollback', poolObject({ pin: NEW.name, annotations: { 'os-upgrades.cattle.io/previous-version': 'deleted-v1' } }), VERSIONS, NOW);
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-live-refusal"]').text()).toContain('osUpgrades.pool.refusal.versionNotFound');
    expect(wrapper.find('[data-testid="approve-confirm-async-button"]').attributes('disabled')).toBeDefined();
  });

  it('says clearly when the server forbids the write', async() => {
    const fake = fakeStore({ respond: () => Promise.reject(Object.assign(new Error('forbidden'), { _status: 403 })) });
    const wrapper = mountDialog(fake);

    usePoolApprovalStore().open('approve', poolObject({ pin: OLD.name, selector: SELECTOR }), VERSIONS, NOW);
    await flushPromises();
    await wrapper.find('[data-testid="approve-confirm-async-button"]').trigger('click');
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-notice"]').text()).toContain('osUpgrades.approve.forbidden');
  });

  it('names a move to another release as such, with a warning, never as a plain upgrade', async() => {
    const from = version('base-v2.2.0-3.12-os', 'v2.2.0-3.12', 100, { channel: 'sl-micro-6.1-base', image: 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12' });
    const to = version('base-v2.3.0-6.1-os', 'v2.3.0-6.1', 10, { channel: 'sl-micro-6.2-base', image: 'registry.suse.com/suse/sl-micro/6.2/base-os-container:2.3.0-6.1' });
    const fake = fakeStore();
    const wrapper = mount(ApproveDialog, {
      props: {
        versions: [from, to], now: NOW, approvedBy: 'admin'
      },
      global: { mocks: { t, $store: fake.store }, stubs: shellStubs },
    });

    usePoolApprovalStore().open('approve', poolObject({ pin: from.name, selector: '{"version":">=2.2.0"}' }), [from, to], NOW);
    await flushPromises();

    expect(wrapper.find('[data-testid="approve-target-name"]').text()).toBe(to.name);
    expect(wrapper.find('#approve-dialog-title').text()).toContain('osUpgrades.move.title');
    expect(wrapper.find('#approve-dialog-title').text()).toContain('osUpgrades.move.release {\\"release\\":\\"6.2\\"}');
    expect(wrapper.find('[data-testid="move-warning"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="approve-confirm-async-button"]').text()).toContain('osUpgrades.move.confirm');
  });
});
