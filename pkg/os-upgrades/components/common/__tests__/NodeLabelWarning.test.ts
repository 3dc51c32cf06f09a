import { mount } from '@vue/test-utils';
import NodeLabelWarning from '../NodeLabelWarning.vue';
import { shellStubs, t } from '../../../pages/__tests__/pools-test-helpers';

function mountWarning(image: string) {
  return mount(NodeLabelWarning, { props: { image }, global: { mocks: { t }, stubs: shellStubs } });
}

describe('NodeLabelWarning', () => {
  it('warns that nodes booting an image whose label is over 63 characters will not rejoin, naming the label and its length', () => {
    const wrapper = mountWarning('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12');
    const banner = wrapper.find('[data-testid="node-label-warning"]');

    expect(banner.attributes('data-color')).toBe('warning');
    expect(banner.text()).toContain('osUpgrades.nodeLabels.title');
    expect(banner.text()).toContain('"key":"elemental.cattle.io/image"');
    expect(banner.text()).toContain('"value":"registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.0-3.12"');
    expect(banner.text()).toContain('labelValueTooLong {\\"max\\":63,\\"length\\":64}');
  });

  it('says nothing for an image whose labels fit, or a digest', () => {
    expect(mountWarning('registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9').find('[data-testid="node-label-warning"]').exists()).toBe(false);
    expect(mountWarning('registry.example.test/os@sha256:0123').find('[data-testid="node-label-warning"]').exists()).toBe(false);
  });
});
