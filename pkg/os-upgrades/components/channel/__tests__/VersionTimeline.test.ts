/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { asOSVersions, OSVersion } from '../../../domain';
import { Reply } from '../../../api/__tests__/fake-http';
import VersionTimeline from '../VersionTimeline.vue';
import { logUrl, mountGlobals, serveFiles } from '../../common/__tests__/helpers';

// What these tests check is what the page shows once files are in, not how often they are written:
// files are written as they settle (stores/settle-batch.ts spaces writes from the network).
jest.mock('../../../stores/settle-batch', () => ({ ...jest.requireActual('../../../stores/settle-batch'), SETTLE_SPACING_MS: 0 }));

// 40 container images, newest first, each created a day after the one before.
const containers: OSVersion[] = asOSVersions(Array.from({ length: 40 }, (_, i) => ({
  metadata: {
    name: `v${ 40 - i }`, namespace: 'fleet-default', labels: { 'elemental.cattle.io/channel': 'c' }
  },
  spec: {
    version: `v1.0.0-1.${ 40 - i }`, type: 'container', metadata: { created: 1700000000 + (40 - i) * 86400 }
  },
})));

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('VersionTimeline', () => {
  it('loads the logs of the images it shows, and cancels them when it pages away', async() => {
    const routes = Object.fromEntries(containers.map((version): [string, Reply] => [logUrl(version.name), { hang: true }]));
    const fake = serveFiles(routes);
    const wrapper = mount(VersionTimeline, { props: { containers }, global: mountGlobals() });

    await flushPromises();
    const bars = wrapper.findAll('.bar');

    expect(bars).toHaveLength(15);
    expect(bars[0].attributes('data-testid')).toBe('timeline-v26');
    expect(bars[14].attributes('data-testid')).toBe('timeline-v40');
    expect(bars[14].classes()).toContain('loading');
    const firstPage = fake.requests.slice();

    expect(firstPage.length).toBeGreaterThan(0);

    await wrapper.findAll('button').find((button) => button.text().includes('osUpgrades.channel.timeline.older'))?.trigger('click');
    await flushPromises();
    expect(wrapper.findAll('.bar')[14].attributes('data-testid')).toBe('timeline-v25');
    expect(firstPage.every((request) => (request.signal as AbortSignal).aborted)).toBe(true);
  });

  it('draws the advisories each image brought, and selects an image', async() => {
    serveFiles({
      [logUrl('v40')]: {
        status: 200,
        body:   JSON.stringify([
          {
            id: 'a', severity: 'critical', date: String(1700000000 + 40 * 86400 - 10)
          },
          {
            id: 'b', severity: 'low', date: String(1700000000 + 40 * 86400 - 20)
          },
        ])
      },
      [logUrl('v39')]: { status: 500 },
    });
    const wrapper = mount(VersionTimeline, { props: { containers, selectedName: 'v40' }, global: mountGlobals() });

    await flushPromises();
    const newest = wrapper.find('[data-testid="timeline-v40"]');

    expect(newest.attributes('aria-pressed')).toBe('true');
    expect(newest.find('.total').text()).toBe('2');
    expect(newest.findAll('.segment').map((segment) => segment.classes()[1])).toEqual(['severity-critical', 'severity-low']);
    expect(wrapper.find('[data-testid="timeline-v39"]').classes()).toContain('error');
    expect(wrapper.find('[data-testid="timeline-v38"]').classes()).toContain('missing');

    await wrapper.find('[data-testid="timeline-v38"]').trigger('click');
    expect(wrapper.emitted('select')?.[0][0]).toMatchObject({ name: 'v38' });
  });

  it('draws one line, not an empty band, when no image in view has a changelog', async() => {
    serveFiles(Object.fromEntries(containers.map((version): [string, Reply] => [logUrl(version.name), { status: 404 }])));
    const wrapper = mount(VersionTimeline, { props: { containers }, global: mountGlobals() });

    await flushPromises();
    const heights = wrapper.findAll('.stack').map((stack) => parseFloat((stack.element as HTMLElement).style.height));

    expect(wrapper.find('[data-testid="timeline-v40"]').classes()).toContain('missing');
    expect(Math.max(...heights)).toBeLessThanOrEqual(30);
  });

  it('keeps room for the tallest bar once one image has advisories', async() => {
    serveFiles({
      [logUrl('v40')]: {
        status: 200,
        body:   JSON.stringify([{
          id: 'a', severity: 'critical', date: String(1700000000 + 40 * 86400 - 10)
        }])
      }
    });
    const wrapper = mount(VersionTimeline, { props: { containers }, global: mountGlobals() });

    await flushPromises();
    const newest = wrapper.find('[data-testid="timeline-v40"]');
    const bar = parseFloat((newest.find('.segment').element as HTMLElement).style.height);

    expect(parseFloat((newest.find('.stack').element as HTMLElement).style.height)).toBeGreaterThan(bar);
  });

  it('says a log is not known, not "no changelog published", when the source serves a web page instead', async() => {
    const page: Reply = { status: 404, body: '<!DOCTYPE html><html><body><pre>Cannot GET</pre></body></html>' };

    serveFiles(Object.fromEntries(containers.map((version): [string, Reply] => [logUrl(version.name), page])), { probe: true });
    const wrapper = mount(VersionTimeline, { props: { containers }, global: mountGlobals() });

    await flushPromises();
    const newest = wrapper.find('[data-testid="timeline-v40"]');

    expect(newest.find('.sr-only').text()).toBe('osUpgrades.channel.timeline.noServiceLabel {"name":"v1.0.0-1.40"}');
    expect(newest.text()).toContain('–');
  });
});
