/* global beforeAll */
import { mount } from '@vue/test-utils';
import { asOSVersions, OSVersion } from '../../../domain';
import VersionList from '../VersionList.vue';
import { installResizeObserver, mountGlobals } from '../../common/__tests__/helpers';

function versions(count: number): OSVersion[] {
  return asOSVersions(Array.from({ length: count }, (_, i) => ({
    metadata: {
      name:        `big-v2.2.0-3.${ count - i }-os`,
      namespace:   'fleet-default',
      labels:      { 'elemental.cattle.io/channel': 'big' },
      annotations: i === 1 ? { 'elemental.cattle.io/channel-no-longer-in-sync': 'true' } : {},
    },
    spec: {
      version: `v2.2.0-3.${ count - i }`, type: 'container', metadata: { created: 2000000000 - i, upgradeImage: `registry/os:${ i }` }
    },
  })));
}

function mountList(list: OSVersion[], selectedName = '') {
  return mount(VersionList, {
    props: {
      versions: list, selectedName, detailsId: 'details', label: 'versions'
    },
    global: mountGlobals(),
  });
}

beforeAll(installResizeObserver);

describe('VersionList', () => {
  it('renders a channel of 1,000 versions as a window of rows, newest first', () => {
    const wrapper = mountList(versions(1000));
    const rows = wrapper.findAll('.version-row');

    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0].text()).toContain('v2.2.0-3.1000');
    expect(wrapper.find('[data-testid="virtual-rows"]').attributes('tabindex')).toBe('0');
  });

  it('renders the rows further down once scrolled there', async() => {
    const wrapper = mountList(versions(1000));
    const scroller = wrapper.find('[data-testid="virtual-rows"]');

    (scroller.element as HTMLElement).scrollTop = 40 * 500;
    await scroller.trigger('scroll');

    const text = wrapper.findAll('.version-row').map((row) => row.text()).join('\n');

    expect(text).toContain('v2.2.0-3.500');
    expect(text).not.toContain('v2.2.0-3.1000');
  });

  it('marks out-of-sync versions and opens a version as a button', async() => {
    const wrapper = mountList(versions(3), 'big-v2.2.0-3.3-os');
    const rows = wrapper.findAll('.version-row');

    expect(wrapper.find('[data-testid="virtual-rows"]').exists()).toBe(false);
    expect(rows[1].find('[data-testid="out-of-sync"]').exists()).toBe(true);
    expect(rows[0].find('[data-testid="out-of-sync"]').exists()).toBe(false);
    expect(rows[0].attributes('aria-expanded')).toBe('true');
    expect(rows[1].attributes('aria-expanded')).toBe('false');
    await rows[2].trigger('click');
    expect(wrapper.emitted('select')?.[0][0]).toMatchObject({ name: 'big-v2.2.0-3.1-os' });
  });

  it('shows template markers of a junk channel as text', () => {
    const junk = asOSVersions([{
      metadata: {
        name: 'unstable-os', namespace: 'fleet-default', labels: { 'elemental.cattle.io/channel': 'unstable' }
      },
      spec: {
        version: 'unstable', type: 'container', metadata: { upgradeImage: '%%IMG_REPO%%/suse/sl-micro/{{ SLMICRO_VERSION }}/os:latest' }
      },
    }]);
    const wrapper = mountList(junk);

    expect(wrapper.find('.col-image').text()).toBe('%%IMG_REPO%%/suse/sl-micro/{{ SLMICRO_VERSION }}/os:latest');
    expect(wrapper.find('.col-created').text()).toBe('osUpgrades.channel.noCreated');
  });
});
