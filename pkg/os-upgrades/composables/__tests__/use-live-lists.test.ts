/* global jest */
import { defineComponent, h } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import type { ShellStore } from '../../types/shell-store';
import { LiveLists, useLiveLists } from '../use-live-lists';

interface Names {
  names: string[];
  error: string;
}

type After = (action: { type: string; payload?: unknown }) => void;

/** The shell's store as far as a reconnect goes: `reconnect()` is its websocket opening again. */
function shellStore() {
  const listeners = new Set<After>();
  const shell = {
    subscribeAction: ({ after }: { after: After }) => {
      listeners.add(after);

      return () => listeners.delete(after);
    },
  } as unknown as ShellStore;

  return {
    shell,
    listeners,
    reconnect: () => listeners.forEach((after) => after({ type: 'management/opened', payload: { currentTarget: { hasReconnected: true } } })),
  };
}

function mountPage(shell: ShellStore, read: (opt: { force?: boolean }) => Promise<Names>, kept?: Names) {
  let live: LiveLists<Names> | undefined;
  let renders = 0;
  const Page = defineComponent({
    setup() {
      live = useLiveLists<Names>({ names: [], error: '' }, kept);
      live.readLists(shell, read);

      return () => {
        renders++;

        return h('p', live?.loading.value ? 'loading' : (live?.lists.value.names ?? []).join(','));
      };
    },
  });
  const wrapper = mount(Page);

  return {
    wrapper, live: () => live as LiveLists<Names>, renders: () => renders
  };
}

type FrameCallback = (time: number) => void;

/** Frames drawn by hand: requestAnimationFrame's callbacks run when `paint()` is called. */
function frames() {
  const waiting: FrameCallback[] = [];
  const original = globalThis.requestAnimationFrame;

  globalThis.requestAnimationFrame = (callback: FrameCallback) => waiting.push(callback);

  return {
    paint: () => {
      const now = performance.now();

      waiting.splice(0).forEach((callback) => callback(now));
    },
    restore: () => {
      globalThis.requestAnimationFrame = original;
    },
  };
}

describe('useLiveLists', () => {
  it('shows what the first read gave, then what a read after a reconnect gave, read from the server', async() => {
    const store = shellStore();
    const read = jest.fn()
      .mockResolvedValueOnce({ names: ['a'], error: '' })
      .mockResolvedValueOnce({ names: ['a', 'b'], error: '' });
    const { wrapper } = mountPage(store.shell, read);

    expect(wrapper.text()).toBe('loading');
    await flushPromises();
    expect(wrapper.text()).toBe('a');

    store.reconnect();
    await flushPromises();
    expect(wrapper.text()).toBe('a,b');
    expect(read.mock.calls).toEqual([[{}], [{ force: true }]]);
  });

  it('keeps the lists shown when the read after a reconnect fails', async() => {
    const store = shellStore();
    const read = jest.fn()
      .mockResolvedValueOnce({ names: ['a'], error: '' })
      .mockResolvedValueOnce({ names: [], error: 'connection refused' });
    const { wrapper, live } = mountPage(store.shell, read);

    await flushPromises();
    store.reconnect();
    await flushPromises();

    expect(wrapper.text()).toBe('a');
    expect(live().lists.value.error).toBe('');
  });

  it('says why the first read failed', async() => {
    const store = shellStore();
    const { live } = mountPage(store.shell, async() => ({ names: [], error: 'forbidden' }));

    await flushPromises();

    expect(live().loading.value).toBe(false);
    expect(live().lists.value.error).toBe('forbidden');
  });

  describe('with the lists kept from the last visit', () => {
    let frame: ReturnType<typeof frames>;

    beforeEach(() => {
      frame = frames();
    });
    afterEach(() => frame.restore());

    it('draws them at once and reads only after that frame', async() => {
      const store = shellStore();
      const read = jest.fn().mockResolvedValue({ names: ['a', 'b'], error: '' });
      const { wrapper, live } = mountPage(store.shell, read, { names: ['a'], error: '' });

      expect(live().loading.value).toBe(false);
      expect(wrapper.text()).toBe('a');
      await flushPromises();
      expect(read).not.toHaveBeenCalled();

      frame.paint();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await flushPromises();
      expect(read).toHaveBeenCalledWith({});
      expect(wrapper.text()).toBe('a,b');
    });

    it('draws nothing again when the read finds the same lists', async() => {
      const store = shellStore();
      const names = ['a'];
      const { live, renders } = mountPage(store.shell, async() => ({ names, error: '' }), { names, error: '' });
      const shown = live().lists.value;

      await flushPromises();
      frame.paint();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await flushPromises();

      expect(live().lists.value).toBe(shown);
      expect(renders()).toBe(1);
    });
  });

  it('stops following reconnects when the page goes, even when it goes before its first read ended', async() => {
    const early = shellStore();
    let finish: (names: Names) => void = () => undefined;
    const slow = mountPage(early.shell, () => new Promise<Names>((resolve) => {
      finish = resolve;
    }));

    slow.wrapper.unmount();
    finish({ names: ['a'], error: '' });
    await flushPromises();
    expect(early.listeners.size).toBe(0);

    const late = shellStore();
    const read = jest.fn().mockResolvedValue({ names: ['a'], error: '' });
    const page = mountPage(late.shell, read);

    await flushPromises();
    expect(late.listeners.size).toBe(1);
    page.wrapper.unmount();
    late.reconnect();
    await flushPromises();
    expect(late.listeners.size).toBe(0);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
