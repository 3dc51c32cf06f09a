import { mount } from '@vue/test-utils';
import type { ChangelogEntry } from '../../../domain';
import CveList from '../CveList.vue';
import { mountGlobals } from '../../common/__tests__/helpers';

const ids = Array.from({ length: 35 }, (_, i) => `CVE-2024-${ String(1000 + i) }`);
const advisories = [{
  id:          'SUSE-1',
  severity:    'important',
  type:        'security',
  title:       'x',
  description: '',
  packages:    [],
  versions:    [],
  references:  [{
    id: ids[0], href: 'https://cve.example/first', title: '', type: 'cve'
  }, {
    id: ids[34], href: 'https://cve.example/last', title: '', type: 'cve'
  }],
}] as unknown as ChangelogEntry[];

describe('CveList', () => {
  it('shows the first 30 CVEs, each linked, and the rest on request', async() => {
    const wrapper = mount(CveList, { props: { cves: ids, advisories }, global: mountGlobals() });
    const hrefs = () => wrapper.findAll('li a').map((link) => link.attributes('href'));

    expect(hrefs()).toHaveLength(30);
    expect(hrefs()[0]).toBe('https://cve.example/first');
    expect(hrefs()[1]).toBe(`https://www.suse.com/security/cve/${ ids[1] }/`);
    expect(wrapper.find('button').text()).toContain('osUpgrades.changelog.showAllCves');
    await wrapper.find('button').trigger('click');
    expect(hrefs()).toHaveLength(35);
    expect(hrefs()[34]).toBe('https://cve.example/last');
  });

  it('says there are none', () => {
    const wrapper = mount(CveList, { props: { cves: [], advisories: [] }, global: mountGlobals() });

    expect(wrapper.text()).toContain('osUpgrades.changelog.noCves');
    expect(wrapper.find('button').exists()).toBe(false);
  });
});
