/* global jest */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ComparePage from '../compare.vue';
import { TYPE } from '../../config';
import { channelVersions } from '../../../../tests/support/fixtures';
import day from 'dayjs';
import { mountGlobals, shellStore } from '../../components/common/__tests__/helpers';

function mountPage(query: Record<string, string>, versions = channelVersions('sl-micro-6.1-base'), prefs: Record<string, string> = {}, poolsAnswer?: Promise<unknown>) {
  const dispatch = jest.fn((_: string, payload: { type: string }) => (poolsAnswer && payload?.type === TYPE.IMAGE ? poolsAnswer : Promise.resolve(payload?.type === TYPE.CHANNEL ? [] : versions)));
  const replace = jest.fn();
  const store = shellStore(dispatch as (action: string, payload?: unknown) => Promise<unknown>);
  const globals = mountGlobals({ ...store, getters: { ...store.getters, 'prefs/get': (name: string) => prefs[name] } });
  const wrapper = mount(ComparePage, {
    global: {
      ...globals,
      mocks: {
        ...globals.mocks,
        $route:  { params: { namespace: 'fleet-default', name: 'sl-micro-6.1-base' }, query },
        $router: { replace },
      },
      stubs: {
        ...globals.stubs,
        Loading:       true,
        'router-link': true,
        ImageCompare:  { props: ['oldName', 'newName', 'versions'], template: '<div class="image-compare">{{ oldName }} -> {{ newName }} ({{ versions.length }})</div>' },
        LabeledSelect: {
          props: ['value', 'options', 'label'], emits: ['update:value'], template: '<select :aria-label="label" :value="value" @change="$emit(\'update:value\', $event.target.value)"><option v-for="o in options" :key="o.value" :value="o.value">{{ o.label }}</option></select>'
        },
      },
    },
  });

  return { wrapper, replace };
}

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('compare page', () => {
  it('defaults to the previous image and the newest, in the URL so it can be shared', async() => {
    const { replace } = mountPage({});

    await flushPromises();
    expect(replace).toHaveBeenCalledWith({ query: { old: 'base-v2.2.0-3.9-os', new: 'base-v2.2.0-3.12-os' } });
  });

  it('compares without waiting for the pools, which only name who runs the old image', async() => {
    const { wrapper } = mountPage({ old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.12-os' }, undefined, {}, new Promise(() => undefined));

    await flushPromises();
    expect(wrapper.find('.image-compare').text()).toBe('base-v2.2.0-3.8-os -> base-v2.2.0-3.12-os (6)');
  });

  it('compares the two images the URL names, offering only container images', async() => {
    const { wrapper } = mountPage({ old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.12-os' });

    await flushPromises();
    expect(wrapper.find('.image-compare').text()).toBe('base-v2.2.0-3.8-os -> base-v2.2.0-3.12-os (6)');
    expect(wrapper.findAll('select')[0].findAll('option').map((option) => option.attributes('value'))).toEqual([
      'group:fleet-default/sl-micro-6.1-base', 'base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os'
    ]);
  });

  it('writes each image\'s date in the person\'s date format (the shell\'s default when unset)', async() => {
    // tests/fixtures/elemental/channels/sl-micro-6.1-base.json: base-v2.2.0-3.12-os created 1732723652.
    const created = day(1732723652 * 1000);
    const label = async(prefs: Record<string, string>) => {
      const { wrapper } = mountPage({ old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.12-os' }, undefined, prefs);

      await flushPromises();

      return wrapper.findAll('select')[0].find('option[value="base-v2.2.0-3.12-os"]').text();
    };

    expect(await label({ 'date-format': 'D/M/YYYY' })).toBe(`v2.2.0-3.12 (${ created.format('D/M/YYYY') }) – base-v2.2.0-3.12-os`);
    expect(await label({})).toBe(`v2.2.0-3.12 (${ created.format('ddd, MMM D YYYY') }) – base-v2.2.0-3.12-os`);
  });

  it('offers the images of every channel, this one first, each under its channel', async() => {
    const { wrapper } = mountPage({ old: 'base-v2.2.0-3.12-os', new: 'base-v2.3.0-6.1-os' }, [...channelVersions('sl-micro-6.2-base'), ...channelVersions('sl-micro-6.1-base')]);

    await flushPromises();
    expect(wrapper.find('.image-compare').text()).toBe('base-v2.2.0-3.12-os -> base-v2.3.0-6.1-os (8)');
    expect(wrapper.findAll('select')[1].findAll('option').map((option) => option.attributes('value'))).toEqual([
      'group:fleet-default/sl-micro-6.1-base', 'base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os',
      'group:fleet-default/sl-micro-6.2-base', 'base-v2.3.0-6.1-os',
    ]);
  });

  it('swaps old and new, and changes one side through the URL', async() => {
    const { wrapper, replace } = mountPage({ old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.12-os' });

    await flushPromises();
    await wrapper.find('[data-testid="swap"]').trigger('click');
    expect(replace).toHaveBeenLastCalledWith({ query: { old: 'base-v2.2.0-3.12-os', new: 'base-v2.2.0-3.8-os' } });

    await wrapper.findAll('select')[1].setValue('base-v2.2.0-3.9-os');
    expect(replace).toHaveBeenLastCalledWith({ query: { old: 'base-v2.2.0-3.8-os', new: 'base-v2.2.0-3.9-os' } });
  });
});
