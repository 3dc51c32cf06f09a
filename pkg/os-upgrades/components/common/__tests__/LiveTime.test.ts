/* global jest */
import { mount } from '@vue/test-utils';
import LiveTime from '../LiveTime.vue';
import { waiting } from '../../../composables/shared-clock';
import { mountGlobals } from './helpers';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function liveTime(seconds: number) {
  return mount(LiveTime, { props: { seconds, plain: true }, global: mountGlobals() });
}

describe('LiveTime', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('moves on as time passes, many of them on one timer, and leaves nothing waiting once unmounted', async() => {
    const times = [0, 5, 30].map((ago) => liveTime(NOW / 1000 - ago));

    expect(times[0].text()).toBe('osUpgrades.time.justNow');
    expect(jest.getTimerCount()).toBe(1);
    expect(waiting()).toBe(3);

    jest.advanceTimersByTime(90_000);
    await times[0].vm.$nextTick();
    expect(times[0].text()).toMatch(/^osUpgrades\.time\.ago .*unit\.min/);

    times.forEach((time) => time.unmount());
    expect(waiting()).toBe(0);
  });
});
