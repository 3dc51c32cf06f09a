import { mount } from '@vue/test-utils';
import NodeLabelMarker from '../NodeLabelMarker.vue';
import { t } from '../../../pages/__tests__/pools-test-helpers';
import { LONG_IMAGE, SHORT_IMAGE } from './node-label-fixtures';

function marker(image: string) {
  return mount(NodeLabelMarker, { props: { image }, global: { mocks: { t } } }).find('[data-testid="node-label-marker"]');
}

describe('NodeLabelMarker', () => {
  it('marks an image whose node label is over 63 characters, saying which label and its length', () => {
    const mark = marker(LONG_IMAGE);

    expect(mark.attributes('title')).toBe('osUpgrades.nodeLabels.marker {"key":"elemental.cattle.io/image","length":64}');
    expect(mark.find('.sr-only').text()).toBe(mark.attributes('title'));
  });

  it('marks nothing when the labels fit', () => {
    expect(marker(SHORT_IMAGE).exists()).toBe(false);
    expect(marker('').exists()).toBe(false);
  });
});
