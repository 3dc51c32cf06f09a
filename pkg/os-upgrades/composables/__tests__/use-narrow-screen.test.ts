import { defineComponent, h, nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { NARROW_SCREEN, useNarrowScreen } from '../use-narrow-screen';

function fakeMatchMedia(matches: boolean) {
  const listeners = new Set<(event: { matches: boolean }) => void>();
  const query = {
    matches,
    addEventListener:    (_: string, listener: (event: { matches: boolean }) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: { matches: boolean }) => void) => listeners.delete(listener),
  };
  const asked: string[] = [];

  window.matchMedia = ((text: string) => {
    asked.push(text);

    return query;
  }) as unknown as typeof window.matchMedia;

  return {
    asked, listeners, resize: (narrow: boolean) => listeners.forEach((listener) => listener({ matches: narrow }))
  };
}

const Probe = defineComponent({
  setup() {
    const narrow = useNarrowScreen();

    return () => h('span', narrow.value ? 'narrow' : 'wide');
  },
});

describe('useNarrowScreen', () => {
  const original = window.matchMedia;

  afterEach(() => {
    window.matchMedia = original;
  });

  it('follows the window across the shell\'s desktop breakpoint and stops listening when unmounted', async() => {
    const media = fakeMatchMedia(false);
    const wrapper = mount(Probe);

    expect(media.asked).toEqual([NARROW_SCREEN]);
    expect(wrapper.text()).toBe('wide');
    media.resize(true);
    await nextTick();
    expect(wrapper.text()).toBe('narrow');
    wrapper.unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('reads wide where the browser has no matchMedia', () => {
    window.matchMedia = undefined as unknown as typeof window.matchMedia;

    expect(mount(Probe).text()).toBe('wide');
  });
});
