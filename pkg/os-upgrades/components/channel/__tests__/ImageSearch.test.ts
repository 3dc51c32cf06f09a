import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { readFileSync } from 'fs';
import { join } from 'path';
import ImageSearch from '../ImageSearch.vue';
import { channelVersions, PACKAGE_FILES, readPackageFile } from '../../../../../tests/support/fixtures';
import { logUrl, mountGlobals, packagesUrl, serveFiles } from '../../common/__tests__/helpers';

const versions = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base')];
const LOG_3_12 = readFileSync(join(__dirname, '../../../../../tests/fixtures/synthetic/changelogs/base-v2.2.0-3.12-os.updates.log'), 'utf8');

function files() {
  return serveFiles({
    ...Object.fromEntries(PACKAGE_FILES.map((name) => [packagesUrl(name), { status: 200, body: readPackageFile(name) }])),
    [logUrl('base-v2.2.0-3.12-os')]: { status: 200, body: LOG_3_12 },
  });
}

function mountSearch() {
  return mount(ImageSearch, {
    props:  { versions, channels: [] },
    global: { ...mountGlobals(), stubs: { 'router-link': { props: ['to'], template: '<a :data-to="JSON.stringify(to)"><slot /></a>' } } },
  });
}

const hitNames = (wrapper: ReturnType<typeof mountSearch>) => wrapper.findAll('[data-testid="image-search-hit"] code').map((node) => node.text());

beforeEach(() => setActivePinia(createPinia()));

describe('ImageSearch', () => {
  it('finds images by name at once, and by package version once the files are loaded', async() => {
    const fake = files();
    const wrapper = mountSearch();

    await wrapper.find('[data-testid="image-search-input"]').setValue('3.12');
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

    await wrapper.find('[data-testid="image-search-files"]').trigger('click');
    await flushPromises();
    await wrapper.find('[data-testid="image-search-input"]').setValue('CVE-2024-50302');
    expect(hitNames(wrapper)).toEqual(['base-v2.2.0-3.12-os']);
    expect(wrapper.find('[data-testid="image-search-fixes"]').text()).toContain('"channel":"sl-micro-6.1-base","first":"base-v2.2.0-3.12-os"');
  });
});
