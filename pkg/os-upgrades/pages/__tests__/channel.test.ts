/* global jest, beforeAll */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ChannelPage from '../channel.vue';
import { TYPE } from '../../config';
import { channelVersions, readPackageFile } from '../../../../tests/support/fixtures';
import {
  installResizeObserver, logUrl, mountGlobals, packagesUrl, serveFiles, shellStore
} from '../../components/common/__tests__/helpers';

const CHANNEL = {
  metadata: {
    name: 'sl-micro-6.1-base', namespace: 'fleet-default', uid: 'u1'
  },
  spec: { type: 'json', options: { uri: 'https://example.com/c.json' } }
};

function mountPage(query: Record<string, string> = {}, versions = channelVersions('sl-micro-6.1-base')) {
  // The channels are read for the page alone (api/resources.ts listOwn): Steve's collection.
  const dispatch = jest.fn((action: string, payload: { type?: string; url?: string }) => Promise.resolve(action === 'management/request' && payload.url?.startsWith(`/v1/${ TYPE.CHANNEL }s?`) ? { data: [CHANNEL] } : versions));
  const replace = jest.fn();
  const globals = mountGlobals(shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>));
  const wrapper = mount(ChannelPage, {
    global: {
      ...globals,
      mocks: {
        ...globals.mocks,
        $route:  { params: { namespace: 'fleet-default', name: 'sl-micro-6.1-base' }, query },
        $router: { replace },
      },
      stubs: {
        ...globals.stubs, Loading: true, 'router-link': { props: ['to'], template: '<a :data-to="JSON.stringify(to)"><slot /></a>' }
      },
    },
  });

  return { wrapper, replace };
}

const LOG_3_12 = JSON.stringify([
  {
    id: 'SUSE-SLE-Micro-6.1-2024-4100', severity: 'critical', date: '1732700000', title: 'Security update for the Linux Kernel'
  },
  {
    id: 'SUSE-SLE-Micro-6.1-2024-4101', severity: 'moderate', date: '1732700001', title: 'Recommended update for zypper'
  },
]);

beforeAll(installResizeObserver);
beforeEach(() => {
  setActivePinia(createPinia());
  serveFiles({
    [logUrl('base-v2.2.0-3.12-os')]:      { status: 200, body: LOG_3_12 },
    [logUrl('base-v2.2.0-3.8-os')]:       { status: 200, body: '[]' },
    [packagesUrl('base-v2.2.0-3.8-os')]:  { status: 200, body: readPackageFile('base-v2.2.0-3.8-os') },
    [packagesUrl('base-v2.2.0-3.9-os')]:  { status: 200, body: readPackageFile('base-v2.2.0-3.9-os') },
    [packagesUrl('base-v2.2.0-3.12-os')]: { status: 200, body: readPackageFile('base-v2.2.0-3.12-os') },
  });
});

describe('channel page', () => {
  it('lists container and iso versions apart, newest first', async() => {
    const { wrapper } = mountPage();

    await flushPromises();
    const names = (testid: string) => wrapper.findAll(`[data-testid="${ testid }"] .col-name`).map((node) => node.text());

    expect(names('container-versions')).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os']);
    expect(names('iso-versions')).toEqual(['base-v2.2.0-3.7-iso', 'base-v2.2.0-3.5-iso', 'base-v2.2.0-3.4-iso']);
  });

  it('draws each image in the timeline with the advisories it brought', async() => {
    const { wrapper } = mountPage();

    await flushPromises();
    const bar = wrapper.find('[data-testid="timeline-base-v2.2.0-3.12-os"]');

    expect(bar.find('.sr-only').text()).toContain('"count":2');
    expect(bar.findAll('.segment').map((node) => node.classes().find((c) => c.startsWith('severity-')))).toEqual(['severity-critical', 'severity-moderate']);
    expect(wrapper.find('[data-testid="timeline-base-v2.2.0-3.9-os"]').classes()).toContain('missing');
  });

  it('opens a version by putting it in the URL', async() => {
    const { wrapper, replace } = mountPage();

    await flushPromises();
    await wrapper.find('[data-testid="version-base-v2.2.0-3.9-os"]').trigger('click');
    expect(replace).toHaveBeenCalledWith({ query: { version: 'base-v2.2.0-3.9-os' } });
  });

  it('shows an opened version relative to its previous image, and when it has no changelog', async() => {
    const { wrapper } = mountPage({ version: 'base-v2.2.0-3.9-os' });

    await flushPromises();
    const details = wrapper.find('[data-testid="version-changelog"]');

    expect(details.text()).toContain('osUpgrades.channel.relativeTo {"name":"v2.2.0-3.8"}');
    expect(details.find('[data-testid="missing-logs"]').text()).toContain('osUpgrades.changelog.noChangelogFor {"count":1}');
    expect(details.find('[data-testid="package-diff"]').exists()).toBe(true);
    expect(JSON.parse(details.find('[data-testid="compare-link"]').attributes('data-to') ?? '{}')).toMatchObject({ query: { old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.9-os' } });
  });

  it('shows the oldest image with its own log', async() => {
    const { wrapper } = mountPage({ version: 'base-v2.2.0-3.8-os' });

    await flushPromises();
    const details = wrapper.find('[data-testid="version-changelog"]');

    expect(details.text()).toContain('osUpgrades.channel.oldest');
    expect(details.text()).toContain('osUpgrades.changelog.emptyLog');
  });

  it('says "no changelog published for this image" for an image without log and without previous', async() => {
    const { wrapper } = mountPage({ version: 'base-v2.2.0-3.7-iso' });

    await flushPromises();
    expect(wrapper.find('[data-testid="no-changelog"]').text()).toBe('osUpgrades.changelog.noChangelog');
  });

  it('says when the channel has no versions', async() => {
    const { wrapper } = mountPage({}, []);

    await flushPromises();
    expect(wrapper.find('[data-testid="no-versions"]').exists()).toBe(true);
  });
});
