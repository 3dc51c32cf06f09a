// One timer for every relative time on a page (LiveTime). Each of them used to hold its own
// setTimeout, and a page of 500 advisories cleared 500 timers when it was left: clearTimeout was
// the largest item of the warm navigations' profiles (bench, 2026-12-03: 19 ms of the 500-image
// compare's). The clock keeps who wants to be woken and when, and one timer for the earliest.

/** The longest delay setTimeout takes (a 32-bit int of milliseconds, about 24.9 days). */
const MAX_DELAY_MS = 2147483647;

type Wake = () => void;

const due = new Map<object, { at: number; wake: Wake }>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

/** The one timer, for `at` (epoch milliseconds); none when that is further away than a timer can wait. */
function setTimer(at: number): void {
  clearTimeout(timer);
  timer = undefined;
  timerAt = Infinity;
  const delay = Math.max(0, at - Date.now());

  if (delay <= MAX_DELAY_MS) {
    timerAt = at;
    timer = setTimeout(fire, delay);
  }
}

function fire(): void {
  const now = Date.now();

  timer = undefined;
  timerAt = Infinity;
  for (const [owner, entry] of [...due]) {
    if (entry.at <= now) {
      due.delete(owner);
      entry.wake();
    }
  }
  let next = Infinity;

  for (const entry of due.values()) {
    next = Math.min(next, entry.at);
  }
  if (next < timerAt) {
    setTimer(next);
  }
}

/**
 * Wakes `owner` at `at` (epoch milliseconds) by calling `wake`, once; replaces what it asked before.
 * Constant time: a page mounting thousands of them never scans the others.
 */
export function wakeAt(owner: object, at: number, wake: Wake): void {
  due.set(owner, { at, wake });
  if (at < timerAt) {
    setTimer(at);
  }
}

/** `owner` need not be woken (it was unmounted): no timer is touched. */
export function forget(owner: object): void {
  due.delete(owner);
}

/** How many owners wait (for the tests). */
export function waiting(): number {
  return due.size;
}
