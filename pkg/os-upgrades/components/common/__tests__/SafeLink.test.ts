import { mount } from '@vue/test-utils';
import SafeLink from '../SafeLink.vue';
import SafeMarkdown from '../SafeMarkdown.vue';

describe('SafeLink', () => {
  it('links an http(s) URL in a new tab, without opener or referrer', () => {
    const link = mount(SafeLink, { props: { href: 'https://www.suse.com/security/cve/CVE-2024-11053/', text: 'CVE-2024-11053' } }).find('a');

    expect(link.attributes()).toMatchObject({
      href: 'https://www.suse.com/security/cve/CVE-2024-11053/', target: '_blank', rel: 'noopener noreferrer'
    });
  });

  it('shows anything else as text', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '']) {
      const wrapper = mount(SafeLink, { props: { href, text: '<b>CVE</b>' } });

      expect(wrapper.find('a').exists()).toBe(false);
      expect(wrapper.text()).toBe('<b>CVE</b>');
    }
  });
});

describe('SafeMarkdown', () => {
  it('renders Markdown and nothing active', () => {
    const wrapper = mount(SafeMarkdown, { props: { text: '- fixed <img src=x onerror=alert(1)>\n- [docs](https://documentation.suse.com/)\n- [bad](javascript:alert(1))' } });

    expect(wrapper.findAll('li')).toHaveLength(3);
    expect(wrapper.find('img').exists()).toBe(false);
    expect(wrapper.findAll('a').map((a) => a.attributes('href'))).toEqual(['https://documentation.suse.com/']);
  });
});
