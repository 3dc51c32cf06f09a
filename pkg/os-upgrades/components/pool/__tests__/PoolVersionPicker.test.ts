import { mount } from '@vue/test-utils';
import PoolVersionPicker from '../PoolVersionPicker.vue';
import { shellStubs, t } from '../../../pages/__tests__/pools-test-helpers';
import { LONG_IMAGE, osVersion, prefsStore, SHORT_IMAGE } from '../../common/__tests__/node-label-fixtures';

const VERSIONS = [osVersion('short', SHORT_IMAGE), osVersion('long', LONG_IMAGE)];

function picker(versionName: string) {
  return mount(PoolVersionPicker, {
    props: {
      versions: VERSIONS, channel: 'sl-micro', versionName
    },
    global: { mocks: { t, $store: prefsStore }, stubs: shellStubs },
  });
}

describe('PoolVersionPicker', () => {
  it('warns under the pin when nodes that boot the chosen image would not rejoin their cluster', () => {
    const warning = picker('long').find('[data-testid="node-label-warning"]');

    expect(warning.attributes('data-color')).toBe('warning');
    expect(warning.text()).toContain('"value":"registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.0-3.12"');
  });

  it('says nothing for an image whose labels fit, or before a version is chosen', () => {
    expect(picker('short').find('[data-testid="node-label-warning"]').exists()).toBe(false);
    expect(picker('').find('[data-testid="node-label-warning"]').exists()).toBe(false);
  });
});
