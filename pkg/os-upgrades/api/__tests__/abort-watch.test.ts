/* global jest */
import { unlessAborted, watchAbort } from '../abort-watch';

describe('watchAbort', () => {
  it('calls every watcher of a signal once when it aborts, in the order they started', () => {
    const controller = new AbortController();
    const calls: string[] = [];

    watchAbort(controller.signal, () => calls.push('a'));
    watchAbort(controller.signal, () => calls.push('b'));
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'b']);
  });

  it('does not call a watcher that stopped, nor those of another signal', () => {
    const one = new AbortController();
    const other = new AbortController();
    const calls: string[] = [];
    const stop = watchAbort(one.signal, () => calls.push('stopped'));

    watchAbort(one.signal, () => calls.push('one'));
    watchAbort(other.signal, () => calls.push('other'));
    stop();
    one.abort();
    expect(calls).toEqual(['one']);
  });

  it('listens to a signal once however many wait on it', () => {
    const controller = new AbortController();
    const listen = jest.spyOn(controller.signal, 'addEventListener');
    const stops = Array.from({ length: 500 }, () => watchAbort(controller.signal, () => undefined));

    stops.forEach((stop) => stop());
    watchAbort(controller.signal, () => undefined);
    expect(listen).toHaveBeenCalledTimes(1);
  });

  it('never calls a watcher of a signal already aborted, as an event listener added late would not be', () => {
    const controller = new AbortController();
    const onAbort = jest.fn();

    controller.abort();
    watchAbort(controller.signal, onAbort);
    controller.abort();
    expect(onAbort).not.toHaveBeenCalled();
  });

  it('watches nothing without a signal', () => {
    expect(watchAbort(undefined, () => undefined)()).toBeUndefined();
  });
});

describe('unlessAborted', () => {
  it('gives what the promise gives, or undefined once the signal aborts, and stops watching either way', async() => {
    const controller = new AbortController();
    const listen = jest.spyOn(controller.signal, 'addEventListener');

    await expect(unlessAborted(Promise.resolve('read'), controller.signal)).resolves.toBe('read');
    const waiting = unlessAborted(new Promise<string>(() => undefined), controller.signal);

    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(listen).toHaveBeenCalledTimes(1);
  });
});
