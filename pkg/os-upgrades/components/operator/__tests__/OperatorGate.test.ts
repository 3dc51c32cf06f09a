/* global jest */
// A Rancher without the Elemental operator: the page is never created (none of its requests), the
// one notice names what is missing, and only a person who may install apps is offered the install.
import { defineComponent, h } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import OperatorGate from '../OperatorGate.vue';
import { OPERATOR_TYPES } from '../../../domain';
import { mountGlobals, shellStore } from '../../common/__tests__/helpers';

beforeEach(() => setActivePinia(createPinia()));

function mountGate(schemas: Record<string, { collectionMethods: string[] }>) {
  const created = jest.fn();
  const Page = defineComponent({ created, render: () => h('p', { 'data-testid': 'page' }, 'the page') });
  const store = shellStore(jest.fn(() => Promise.resolve({ spec: { appVersion: '1.7.5' } })));

  store.getters['management/schemaFor'] = ((type: string) => schemas[type]) as never;
  const globals = mountGlobals(store as ReturnType<typeof shellStore>);
  const wrapper = mount(OperatorGate, {
    slots:  { default: () => h(Page) },
    global: {
      ...globals,
      stubs: {
        ...globals.stubs, Loading: true, 'router-link': { props: ['to'], template: '<a :data-to="JSON.stringify(to)"><slot /></a>' }
      }
    },
  });

  return { wrapper, created };
}

const read = { collectionMethods: ['GET'] };

describe('OperatorGate', () => {
  it('shows the page where the operator\'s types are there', async() => {
    const { wrapper, created } = mountGate(Object.fromEntries(OPERATOR_TYPES.map((type) => [type, read])));

    await flushPromises();
    expect(wrapper.find('[data-testid="page"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="operator-missing"]').exists()).toBe(false);
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('without them: the notice and the install link to Rancher\'s Apps for who may install, and no page', async() => {
    const { wrapper, created } = mountGate({ 'catalog.cattle.io.app': { collectionMethods: ['GET', 'POST'] } });

    await flushPromises();
    expect(created).not.toHaveBeenCalled();
    expect(wrapper.find('[data-testid="operator-missing-types"]').text()).toContain('elemental.cattle.io.managedosimage');
    const link = wrapper.find('[data-testid="operator-install"]');

    expect(JSON.parse(link.attributes('data-to') ?? '{}')).toMatchObject({ name: 'c-cluster-apps-charts', params: { cluster: 'local' } });
    expect(wrapper.find('[data-testid="operator-ask-admin"]').exists()).toBe(false);
  });

  it('a viewer gets the notice without the install action', async() => {
    const { wrapper } = mountGate({ 'catalog.cattle.io.app': read });

    await flushPromises();
    expect(wrapper.find('[data-testid="operator-missing"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="operator-install"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="operator-ask-admin"]').exists()).toBe(true);
  });
});
