/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { readFileSync } from 'fs';
import { join } from 'path';
import ImageSearch from '../ImageSearch.vue';
import { channelVersions, PACKAGE_FILES, readPackageFile } from '../../../../../tests/support/fixtures';
import {
  logUrl, mountGlobals, packagesUrl, serveFiles, shellStore
} from '../../common/__tests__/helpers';

const versions = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base')];
const LOG_3_12 = readFileSync(join(__dirname, '../../../../../tests/fixtures/synthetic/changelogs/base-v2.2.0-3.12-os.updates.log'), 'utf8');

function files() {
  return serveFiles({
    ...Object.fromEntries(PACKAGE_FILES.map((name) => [packagesUrl(name), { status: 200, body: readPackageFile(name) }])),
    [logUrl('base-v2.2.0-3.12-os')]: { status: 200, body: LOG_3_12 },
  });
}

const channels = ['sl-micro-6.1-base', 'sl-micro-6.2-base'].map((name) => ({ metadata: { name, namespace: 'fleet-default' } }));
let dispatch: jest.Mock;

function mountSearch() {
  // The store answers a channel's label query with every version: the search keeps the channel's own.
  dispatch = jest.fn(() => Promise.resolve(versions));

  return mount(ImageSearch, {
    props:  { channels },
    global: { ...mountGlobals(shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>)), stubs: { 'router-link': { props: ['to'], template: '<a :data-to="JSON.stringify(to)"><slot /></a>' } } },
  });
}

/** The channels whose versions were asked for, by label. */
const channelsRead = () => dispatch.mock.calls
  // The pools are read too, once, to rank the images of their channels first.
  .filter(([, payload]) => (payload as { type?: string }).type !== 'elemental.cattle.io.managedosimage')
  .map(([, payload]) => (payload as { matching?: { labelSelector?: { matchLabels?: Record<string, string> } } }).matching?.labelSelector?.matchLabels?.['elemental.cattle.io/channel']);

const hitNames = (wrapper: ReturnType<typeof mountSearch>) => wrapper.findAll('[data-testid="image-search-hit"] code').map((node) => node.text());

beforeEach(() => setActivePinia(createPinia()));

describe('ImageSearch', () => {
  it('finds images by name at once, and by package version once the files are loaded', async() => {
    const fake = files();
    const wrapper = mountSearch();

    await flushPromises();
    // Nothing is read until the person searches.
    expect(dispatch).not.toHaveBeenCalled();
    expect(wrapper.find('[data-testid="image-search-files"]').exists()).toBe(false);
    await wrapper.find('[data-testid="image-search-input"]').setValue('3.12');
    await flushPromises();
    expect(channelsRead()).toEqual(['sl-micro-6.1-base', 'sl-micro-6.2-base']);
    expect(hitNames(wrapper)).toEqual(['base-v2.2.0-3.12-os']);
    expect(fake.requests).toHaveLength(0);

    await wrapper.find('[data-testid="image-search-input"]').setValue('kernel-default-6.4.0-1.3');
    expect(wrapper.find('[data-testid="image-search-empty"]').text()).toBe('osUpgrades.imageSearch.noneYet');
    await wrapper.find('[data-testid="image-search-files"]').trigger('click');
    await flushPromises();
    expect(hitNames(wrapper)).toEqual(['base-v2.2.0-3.12-os']);
    expect(wrapper.find('[data-testid="image-search-hit"]').text()).toContain('osUpgrades.imageSearch.match.package {"text":"kernel-default-6.4.0-1.3","advisory":""}');
    const compare = JSON.parse(wrapper.find('[data-testid="image-search-compare"]').attributes('data-to') as string);

    expect(compare.query).toEqual({ old: 'base-v2.2.0-3.9-os', new: 'base-v2.2.0-3.12-os' });
    expect(compare.params).toMatchObject({ namespace: 'fleet-default', name: 'sl-micro-6.1-base' });
  });

  it('says which images fix a CVE, proved by the package lists', async() => {
    files();
    const wrapper = mountSearch();

    await wrapper.find('[data-testid="image-search-input"]').setValue('CVE-2024-50302');
    await flushPromises();
    await wrapper.find('[data-testid="image-search-files"]').trigger('click');
    await flushPromises();
    expect(hitNames(wrapper)).toEqual(['base-v2.2.0-3.12-os']);
    expect(wrapper.find('[data-testid="image-search-fixes"]').text()).toContain('"channel":"sl-micro-6.1-base","first":"base-v2.2.0-3.12-os"');
  });
});
