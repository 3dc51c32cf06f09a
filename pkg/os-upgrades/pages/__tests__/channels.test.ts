import { flushPromises, shallowMount } from '@vue/test-utils';
import ChannelsPage from '../channels.vue';
import { TYPE } from '../../config';

function mountWith(dispatch: jest.Mock) {
  return shallowMount(ChannelsPage, {
    global: {
      mocks: {
        t:      (key: string) => key,
        $store: { dispatch, getters: { 'management/schemaFor': () => ({ id: TYPE.CHANNEL }) } },
      },
      stubs: { ResourceTable: { props: ['rows'], template: '<table class="rows">{{ rows.length }}</table>' } },
    },
  });
}

describe('channels page', () => {
  it('lists the channels the management store returns', async() => {
    const dispatch = jest.fn().mockResolvedValue([{ id: 'fleet-default/a' }, { id: 'fleet-default/b' }]);
    const wrapper = mountWith(dispatch);

    await flushPromises();

    expect(dispatch).toHaveBeenCalledWith('management/findAll', { type: TYPE.CHANNEL });
    expect(wrapper.find('.rows').text()).toBe('2');
  });

  it('shows the error instead of the table when the channels cannot be read', async() => {
    const wrapper = mountWith(jest.fn().mockRejectedValue(new Error('forbidden')));

    await flushPromises();

    expect(wrapper.find('.rows').exists()).toBe(false);
    expect(wrapper.findComponent({ name: 'Banner' }).attributes('label')).toBe('forbidden');
  });
});
