/* global jest */
import { forget, waiting, wakeAt } from '../shared-clock';

describe('the shared clock', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('wakes each owner at its time, in order, with one timer for all', () => {
    const woken: string[] = [];
    const [a, b, c] = [{}, {}, {}];

    wakeAt(a, Date.now() + 3000, () => woken.push('a'));
    wakeAt(b, Date.now() + 1000, () => woken.push('b'));
    wakeAt(c, Date.now() + 2000, () => woken.push('c'));
    expect(jest.getTimerCount()).toBe(1);

    jest.advanceTimersByTime(1000);
    expect(woken).toEqual(['b']);
    jest.advanceTimersByTime(2000);
    expect(woken).toEqual(['b', 'c', 'a']);
    expect(waiting()).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not wake an owner that was forgotten, and touches no timer to forget it', () => {
    const wake = jest.fn();
    const owner = {};
    const other = {};
    const otherWake = jest.fn();

    wakeAt(owner, Date.now() + 1000, wake);
    wakeAt(other, Date.now() + 5000, otherWake);
    const clear = jest.spyOn(global, 'clearTimeout');

    forget(owner);
    expect(clear).not.toHaveBeenCalled();
    jest.advanceTimersByTime(5000);
    expect(wake).not.toHaveBeenCalled();
    expect(otherWake).toHaveBeenCalledTimes(1);
    clear.mockRestore();
  });

  it('an owner asking again replaces its earlier time, and may ask again when woken', () => {
    const owner = {};
    let count = 0;
    const tick = () => {
      count++;
      if (count < 3) {
        wakeAt(owner, Date.now() + 1000, tick);
      }
    };

    wakeAt(owner, Date.now() + 60_000, tick);
    wakeAt(owner, Date.now() + 1000, tick);
    jest.advanceTimersByTime(3000);
    expect(count).toBe(3);
    expect(waiting()).toBe(0);
  });

  it('sets no timer for a time further away than a timer can wait', () => {
    const owner = {};

    wakeAt(owner, Date.now() + 2 ** 31 + 1000, () => undefined);
    expect(jest.getTimerCount()).toBe(0);
    forget(owner);
    expect(waiting()).toBe(0);
  });
});
