import { mount } from '@vue/test-utils';
import VersionRow from '../VersionRow.vue';
import { t } from '../../../pages/__tests__/pools-test-helpers';
import { LONG_IMAGE, osVersion, SHORT_IMAGE } from '../../common/__tests__/node-label-fixtures';

function row(image: string) {
  const version = osVersion('v2.2.0', image);

  return mount(VersionRow, {
    props: {
      source: { key: version.name, version }, select: () => undefined, detailsId: 'details'
    },
    global: { mocks: { t }, stubs: { LiveTime: true } },
  });
}

describe('VersionRow', () => {
  it('marks a version whose nodes would not rejoin their cluster, beside its sync state', () => {
    expect(row(LONG_IMAGE).find('.col-sync [data-testid="node-label-marker"]').exists()).toBe(true);
    expect(row(SHORT_IMAGE).find('[data-testid="node-label-marker"]').exists()).toBe(false);
  });
});
