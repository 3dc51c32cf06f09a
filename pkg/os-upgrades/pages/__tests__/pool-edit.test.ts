/* global jest */
import { flushPromises, mount, VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PoolEditPage from '../pool-edit.vue';
import { SELECTOR_ANNOTATION } from '../../domain';
import { useSelectorDraftStore } from '../../stores/selector-draft';
import { usePoolFormStore } from '../../stores/pool-form';
import {
  MID, NEW, NOW, OLD, poolObject, VERSIONS
} from '../../domain/__tests__/pool-test-data';
import { fakeStore, shellStubs, StoreOptions, t } from './pools-test-helpers';

const push = jest.fn();

/** Lets the reads settle: the shell's paged reads wait behind a (fake) zero-delay timer. */
async function settle() {
  for (let i = 0; i < 5; i++) {
    await jest.advanceTimersByTimeAsync(1);
    await flushPromises();
  }
}

async function mountPage(options: StoreOptions, params: Record<string, string> = { cluster: '_' }) {
  const fake = fakeStore(options);
  const wrapper = mount(PoolEditPage, {
    global: {
      mocks: {
        t, $store: fake.store, $route: { params }, $router: { push }
      },
      stubs: shellStubs,
    },
  });

  await settle();

  return { wrapper, ...fake };
}

const EDIT = {
  cluster: '_', namespace: 'fleet-default', name: 'edge'
};

function typeSelector(fields: Partial<Record<'channel' | 'version' | 'minAgeHours', string>>) {
  const draft = useSelectorDraftStore();

  Object.entries(fields).forEach(([name, value]) => draft.setField(name as 'channel', value as string));
  jest.runOnlyPendingTimers();
}

async function save(wrapper: VueWrapper) {
  await wrapper.find('[data-testid="pool-save-async-button"]').trigger('click');
  await settle();
}

describe('pool form page', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    push.mockReset();
    jest.useFakeTimers({ now: NOW * 1000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => jest.useRealTimers());

  it('creates a pool by selector: the pin is the image the preview showed, the annotation what was typed', async() => {
    const { wrapper, writes } = await mountPage({ versions: VERSIONS });

    await wrapper.find('[data-testid="pool-name-input"]').setValue('edge');
    typeSelector({ channel: 'stable', minAgeHours: '24' });
    await settle();
    const shown = wrapper.find('[data-testid="selector-preview-chosen-name"]').text();

    await save(wrapper);

    expect(shown).toBe(MID.name);
    expect(writes).toHaveLength(1);
    expect(writes[0].method).toBe('POST');
    expect(writes[0].data.metadata.namespace).toBe('fleet-default');
    expect(writes[0].data.spec.managedOSVersionName).toBe(shown);
    expect(writes[0].data.metadata.annotations?.[SELECTOR_ANNOTATION]).toBe('{"channel":"stable","minAgeHours":24}');
    expect(push).toHaveBeenCalled();
  });

  it('writes nothing when a soak time ran out since the preview was drawn, and shows the new choice', async() => {
    const { wrapper, writes } = await mountPage({ versions: VERSIONS });

    await wrapper.find('[data-testid="pool-name-input"]').setValue('edge');
    typeSelector({ channel: 'stable', minAgeHours: '24' });
    await settle();
    expect(wrapper.find('[data-testid="selector-preview-chosen-name"]').text()).toBe(MID.name);

    jest.setSystemTime((NOW + 24 * 3600) * 1000);
    await save(wrapper);

    expect(writes).toHaveLength(0);
    expect(wrapper.find('[data-testid="pool-save-problem"]').text()).toContain('osUpgrades.poolForm.choiceChanged');
    expect(wrapper.find('[data-testid="selector-preview-chosen-name"]').text()).toBe(NEW.name);
  });

  it('shows every candidate and every rejected image with its reasons', async() => {
    const { wrapper } = await mountPage({ versions: VERSIONS });

    typeSelector({ channel: 'stable', minAgeHours: '24' });
    await settle();

    expect(wrapper.findAll('[data-testid="selector-preview-candidates"] tbody tr')).toHaveLength(2);
    const rejected = wrapper.find('[data-testid="selector-preview-rejected"]').text();

    expect(rejected).toContain('osUpgrades.selector.reason.tooYoung');
  });

  it('will not save a selector that matches nothing', async() => {
    const { wrapper, writes } = await mountPage({ versions: VERSIONS });

    await wrapper.find('[data-testid="pool-name-input"]').setValue('edge');
    typeSelector({ channel: 'stable', version: '>=9' });
    await settle();

    expect(wrapper.find('[data-testid="selector-preview-nothing"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeDefined();
    await save(wrapper);
    expect(writes).toHaveLength(0);
  });

  it('will not save a changed selector that matches nothing, but saves other edits of a pool whose selector matches nothing', async() => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel":"gone"}' });
    const { wrapper, writes } = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

    await wrapper.find('[data-testid="pool-concurrency"]').setValue('2');
    expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeUndefined();

    typeSelector({ channel: 'also-gone' });
    await settle();
    expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeDefined();

    typeSelector({ channel: 'gone' });
    await settle();
    await save(wrapper);
    expect(writes).toHaveLength(1);
    expect(writes[0].data.spec).toMatchObject({ concurrency: 2, managedOSVersionName: OLD.name });
  });

  it('keeps a stored selector it cannot read, and says so', async() => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel": 42}' });
    const { wrapper, writes } = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

    expect(wrapper.find('[data-testid="pool-selector-unreadable"]').text()).toContain(JSON.stringify({ text: '{"channel": 42}' }));
    await wrapper.find('[data-testid="pool-concurrency"]').setValue('2');
    await save(wrapper);

    expect(writes[0].data.metadata.annotations?.[SELECTOR_ANNOTATION]).toBe('{"channel": 42}');
    expect(writes[0].data.spec.managedOSVersionName).toBe(OLD.name);
  });

  it('shows in its YAML view exactly what will be written', async() => {
    const original = { ...poolObject({ pin: OLD.name }), status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const { wrapper } = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

    await wrapper.find('[data-testid="pool-concurrency"]').setValue('5');
    await wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');
    // The YAML view loads when it is first opened.
    await flushPromises();
    const yaml = wrapper.find('[data-testid="pool-yaml"] .yaml').text();

    expect(yaml).toContain('concurrency: 5');
    expect(yaml).toContain(`managedOSVersionName: ${ OLD.name }`);
    expect(yaml).not.toContain('conditions');
  });

  it('shows field errors for an invalid selector', async() => {
    const { wrapper } = await mountPage({ versions: VERSIONS });

    typeSelector({ version: 'not a range' });
    await settle();

    expect(wrapper.find('[data-testid="selector-form"]').text()).toContain('osUpgrades.selector.error.badVersionRange');
    expect(wrapper.find('[data-testid="selector-preview-invalid"]').exists()).toBe(true);
  });

  it('editing concurrency leaves the pin and the rest of the object byte for byte', async() => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel":"stable"}' });
    const { wrapper, writes } = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

    await wrapper.find('[data-testid="pool-concurrency"]').setValue('3');
    await save(wrapper);

    expect(writes).toHaveLength(1);
    expect(writes[0].method).toBe('PUT');
    expect(JSON.stringify(writes[0].data)).toBe(JSON.stringify({ ...original, spec: { ...(original.spec as object), concurrency: 3 } }));
  });

  it('changing the selector shows the new candidate but keeps the pin', async() => {
    const original = poolObject({ pin: OLD.name, selector: '{"channel":"stable","minAgeHours":1000}' });
    const { wrapper, writes } = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

    typeSelector({ minAgeHours: '24' });
    await settle();
    expect(wrapper.find('[data-testid="pool-candidate-differs"]').text()).toContain(MID.name);
    await save(wrapper);

    expect(writes[0].data.spec.managedOSVersionName).toBe(OLD.name);
    expect(writes[0].data.metadata.annotations?.[SELECTOR_ANNOTATION]).toBe('{"channel":"stable","minAgeHours":24}');
  });

  it('follows a selector\'s soak time without gathering its channel\'s versions again', async() => {
    const { wrapper } = await mountPage({ versions: VERSIONS });
    const form = usePoolFormStore();

    typeSelector({ channel: 'stable', minAgeHours: '24' });
    await settle();
    const versions = form.versions;

    expect(wrapper.find('[data-testid="selector-preview-chosen-name"]').text()).toBe(MID.name);
    typeSelector({ minAgeHours: '0' });
    await settle();

    expect(wrapper.find('[data-testid="selector-preview-chosen-name"]').text()).toBe(NEW.name);
    expect(form.versions).toBe(versions);
  });

  it('keeps the form and says why when the server answers 403', async() => {
    const { wrapper } = await mountPage({ versions: VERSIONS, respond: () => Promise.reject(Object.assign(new Error('forbidden'), { _status: 403 })) });

    await wrapper.find('[data-testid="pool-name-input"]').setValue('edge');
    typeSelector({ channel: 'stable' });
    await settle();
    await save(wrapper);

    expect(wrapper.find('[data-testid="pool-save-problem"]').text()).toContain('osUpgrades.poolForm.forbidden');
    expect((wrapper.find('[data-testid="pool-name-input"]').element as HTMLInputElement).value).toBe('edge');
    expect(useSelectorDraftStore().fields.channel).toBe('stable');
    expect(push).not.toHaveBeenCalled();
  });

  it('keeps the form on a 409 and saves only this person\'s change on top of the latest object', async() => {
    const original = poolObject({ pin: OLD.name, resourceVersion: '10' });
    let answer: () => Promise<unknown> = () => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 }));
    const { wrapper, writes, lists } = await mountPage({
      pools: [original], versions: VERSIONS, respond: () => answer()
    }, EDIT);

    // Someone else turns cordon off meanwhile.
    lists['elemental.cattle.io.managedosimage'].splice(0, 1, poolObject({
      pin: OLD.name, resourceVersion: '11', spec: { cordon: false }
    }));
    await wrapper.find('[data-testid="pool-concurrency"]').setValue('3');
    await save(wrapper);
    expect(writes).toHaveLength(1);
    expect(wrapper.find('[data-testid="pool-save-problem"]').text()).toContain('osUpgrades.poolForm.conflict');

    // Loading the latest keeps that change, and this person's concurrency.
    await wrapper.find('[data-testid="pool-load-latest"]').trigger('click');
    await settle();
    answer = () => Promise.resolve({});
    await save(wrapper);

    expect(writes[1].data.metadata.resourceVersion).toBe('11');
    expect(writes[1].data.spec).toMatchObject({
      cordon: false, concurrency: 3, managedOSVersionName: OLD.name
    });
  });

  it('saves through a 409 that only a status update caused', async() => {
    const original = poolObject({ pin: OLD.name, resourceVersion: '10' });
    const answers = [() => Promise.reject(Object.assign(new Error('conflict'), { _status: 409 })), () => Promise.resolve({})];
    const { wrapper, writes, lists } = await mountPage({
      pools: [original], versions: VERSIONS, respond: () => (answers.shift() as () => Promise<unknown>)()
    }, EDIT);

    lists['elemental.cattle.io.managedosimage'].splice(0, 1, { ...poolObject({ pin: OLD.name, resourceVersion: '12' }), status: { conditions: [] } });
    await wrapper.find('[data-testid="pool-concurrency"]').setValue('3');
    await save(wrapper);

    expect(writes.map((w) => w.data.metadata.resourceVersion)).toEqual(['10', '12']);
    expect(wrapper.find('[data-testid="pool-save-problem"]').exists()).toBe(false);
    expect(push).toHaveBeenCalled();
  });

  it('offers a viewer no save, only a read-only form', async() => {
    const { wrapper } = await mountPage({
      pools: [poolObject()], versions: VERSIONS, canWrite: false
    }, EDIT);

    expect(wrapper.find('[data-testid="pool-form-read-only"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pool-save-async-button"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="pool-change-image"]').exists()).toBe(false);
  });

  it('is read-only on a pool whose links offer no update, though the schema has PUT (a right in another namespace)', async() => {
    const local = poolObject({ name: 'lab' });

    (local.metadata as { namespace: string }).namespace = 'fleet-local';
    const { wrapper } = await mountPage({
      pools: [local], versions: VERSIONS, writableNamespaces: ['fleet-default']
    }, {
      cluster: '_', namespace: 'fleet-local', name: 'lab'
    });

    expect(wrapper.find('[data-testid="pool-form-read-only"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="pool-save-async-button"]').exists()).toBe(false);
  });

  it('offers only the namespaces where the user may create pools', async() => {
    const { wrapper } = await mountPage({ versions: VERSIONS, writableNamespaces: ['fleet-local'] });

    const namespace = wrapper.findAllComponents({ name: 'LabeledSelect' }).find((select) => select.attributes('data-testid') === 'pool-namespace');

    expect(namespace?.props('options')).toEqual(['fleet-local']);
    expect(namespace?.props('value')).toBe('fleet-local');
    expect(namespace?.props('taggable')).toBe(false);
    expect(wrapper.find('[data-testid="pool-form-read-only"]').exists()).toBe(false);
  });

  describe('the YAML view, edited', () => {
    async function typeYaml(wrapper: VueWrapper, change: (text: string) => string) {
      const text = wrapper.find('[data-testid="pool-yaml"] .yaml').text();

      await wrapper.find('[data-testid="pool-yaml"] .yaml-input').setValue(change(text));
    }

    async function openYaml() {
      const original = poolObject({ pin: OLD.name, resourceVersion: '10' });
      const page = await mountPage({ pools: [original], versions: VERSIONS }, EDIT);

      await page.wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');

      return { ...page, original };
    }

    it('saves a label typed in the YAML through the form\'s write, with the resourceVersion read', async() => {
      const { wrapper, writes, original } = await openYaml();

      await typeYaml(wrapper, (text) => text.replace('metadata:\n', 'metadata:\n  labels:\n    tier: gold\n'));
      await save(wrapper);

      expect(writes).toHaveLength(1);
      expect(writes[0].data).toEqual({ ...original, metadata: { ...(original.metadata as object), labels: { tier: 'gold' } } });
    });

    it('refuses a change of the pin beside the editor, and writes nothing', async() => {
      const { wrapper, writes } = await openYaml();

      await typeYaml(wrapper, (text) => text.replace(`managedOSVersionName: ${ OLD.name }`, `managedOSVersionName: ${ NEW.name }`));

      expect(wrapper.find('[data-testid="pool-yaml-refused-edit"]').text()).toContain('osUpgrades.poolYaml.refusal.pinChanged');
      expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeDefined();
      await save(wrapper);
      expect(writes).toHaveLength(0);
    });

    it('shows where YAML does not parse, keeps it across the form view and drops it only when asked', async() => {
      const { wrapper } = await openYaml();

      await typeYaml(wrapper, (text) => `${ text }bad: [`);
      expect(wrapper.find('[data-testid="pool-yaml-syntax"]').text()).toContain('osUpgrades.poolYaml.syntax');
      expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeDefined();

      await wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');
      expect(wrapper.find('[data-testid="pool-yaml-unread"]').exists()).toBe(true);
      await wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');
      expect(wrapper.find('[data-testid="pool-yaml"] .yaml').text()).toContain('bad: [');

      await wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');
      await wrapper.find('[data-testid="pool-yaml-discard"]').trigger('click');
      expect(wrapper.find('[data-testid="pool-yaml-unread"]').exists()).toBe(false);
      expect(wrapper.find('[data-testid="pool-save-async-button"]').attributes('disabled')).toBeUndefined();
    });

    it('lists a field problem typed in the YAML by its place, and the form shows what was typed', async() => {
      const { wrapper, writes } = await openYaml();

      await typeYaml(wrapper, (text) => text.replace('concurrency: 1', 'concurrency: 0'));
      expect(wrapper.find('[data-testid="pool-yaml-field-problems"]').text()).toContain('osUpgrades.poolYaml.fieldProblem');
      await wrapper.find('[data-testid="pool-toggle-yaml"]').trigger('click');
      expect((wrapper.find('[data-testid="pool-concurrency"]').element as HTMLInputElement).value).toBe('0');
      expect(wrapper.find('[data-tab="rollout"]').attributes('data-error')).toBe('true');
      expect(wrapper.find('[data-tab="identity"]').attributes('data-error')).toBe('false');
      await save(wrapper);
      expect(writes).toHaveLength(0);
    });
  });

  it('draws a tab, and loads its code, when it is first opened, and keeps it with what was typed', async() => {
    const fake = fakeStore({ versions: VERSIONS });
    const wrapper = mount(PoolEditPage, {
      global: {
        mocks: {
          t, $store: fake.store, $route: { params: { cluster: '_' } }, $router: { push }
        },
        stubs: {
          ...shellStubs,
          Tabbed: {
            name: 'Tabbed', emits: ['changed'], template: '<div class="tabbed"><slot /></div>'
          }
        },
      },
    });

    await settle();
    expect(wrapper.find('[data-testid="pool-name-input"]').exists()).toBe(true);
    expect(wrapper.find('[data-tab="targets"]').text()).toBe('');

    wrapper.findComponent({ name: 'Tabbed' }).vm.$emit('changed', { selectedName: 'targets' });
    await settle();
    expect(wrapper.find('[data-tab="targets"]').text()).not.toBe('');
    wrapper.findComponent({ name: 'Tabbed' }).vm.$emit('changed', { selectedName: 'image' });
    await settle();
    expect(wrapper.find('[data-tab="targets"]').text()).not.toBe('');
    expect(wrapper.find('[data-tab="rollout"]').text()).toBe('');
  });
});
