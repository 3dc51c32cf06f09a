import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { asOSVersions } from '../../../domain';
import VersionLog from '../VersionLog.vue';
import { logUrl, mountGlobals, serveFiles } from '../../common/__tests__/helpers';

const [version] = asOSVersions([{
  metadata: {
    name: 'v1', namespace: 'fleet-default', labels: { 'elemental.cattle.io/channel': 'c' }
  },
  spec: { version: 'v1.0.0-1.1', type: 'container' },
}]);

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('VersionLog', () => {
  it('says the log is not known when the source answers a web page, never "lists no advisories"', async() => {
    serveFiles({ [logUrl('v1')]: { status: 200, body: '<!doctype html><html><body><div id="app"></div></body></html>' } }, { probe: true });
    const wrapper = mount(VersionLog, { props: { version, channel: undefined }, global: mountGlobals() });

    await flushPromises();
    expect(wrapper.find('[data-testid="log-no-service"]').text()).toContain('osUpgrades.noService.html');
    expect(wrapper.text()).not.toContain('osUpgrades.changelog.emptyLog');
  });

  it('says a published log lists no advisories only when it was read', async() => {
    serveFiles({ [logUrl('v1')]: { status: 200, body: '[]' } });
    const wrapper = mount(VersionLog, { props: { version, channel: undefined }, global: mountGlobals() });

    await flushPromises();
    expect(wrapper.text()).toContain('osUpgrades.changelog.emptyLog');
  });
});
