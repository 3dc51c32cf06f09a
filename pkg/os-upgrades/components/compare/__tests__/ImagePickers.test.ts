import { mount } from '@vue/test-utils';
import ImagePickers from '../ImagePickers.vue';
import { shellStubs, t } from '../../../pages/__tests__/pools-test-helpers';
import { LONG_IMAGE, osVersion, prefsStore, SHORT_IMAGE } from '../../common/__tests__/node-label-fixtures';

const VERSIONS = [osVersion('short', SHORT_IMAGE), osVersion('long', LONG_IMAGE)];

function pickers(oldName: string, newName: string, versions = VERSIONS) {
  return mount(ImagePickers, {
    props: {
      versions, ownChannel: 'fleet-default/sl-micro', oldName, newName, oldLabel: 'old'
    },
    global: { mocks: { t, $store: prefsStore }, stubs: shellStubs },
  });
}

describe('ImagePickers', () => {
  it('marks the new side when nodes that boot it would not rejoin their cluster', () => {
    expect(pickers('short', 'long').find('[data-testid="node-label-marker"]').exists()).toBe(true);
  });

  it('does not mark the old side: nodes already run it', () => {
    expect(pickers('long', 'short').find('[data-testid="node-label-marker"]').exists()).toBe(false);
  });

  it('offers the images under their channels, its own channel first, each in the order given', () => {
    const other = (name: string) => ({ ...osVersion(name, SHORT_IMAGE), channel: 'a-kvm' });
    const versions = [other('k2'), osVersion('v3', SHORT_IMAGE), other('k1'), osVersion('v2', SHORT_IMAGE), osVersion('v1', SHORT_IMAGE)];
    const options = (pickers('v1', 'v3', versions).vm as unknown as { options: { value: string }[] }).options;

    expect(options.map((option) => option.value)).toEqual(['group:fleet-default/sl-micro', 'v3', 'v2', 'v1', 'group:fleet-default/a-kvm', 'k2', 'k1']);
  });
});
