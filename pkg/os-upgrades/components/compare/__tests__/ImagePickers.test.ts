import { mount } from '@vue/test-utils';
import ImagePickers from '../ImagePickers.vue';
import { shellStubs, t } from '../../../pages/__tests__/pools-test-helpers';
import { LONG_IMAGE, osVersion, prefsStore, SHORT_IMAGE } from '../../common/__tests__/node-label-fixtures';

const VERSIONS = [osVersion('short', SHORT_IMAGE), osVersion('long', LONG_IMAGE)];

function pickers(oldName: string, newName: string) {
  return mount(ImagePickers, {
    props: {
      versions: VERSIONS, ownChannel: 'fleet-default/sl-micro', oldName, newName, oldLabel: 'old'
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
});
