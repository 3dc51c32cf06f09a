/**
 * The bench's probe, installed in the dashboard's page (scripts/bench/browser.ts through Playwright,
 * scripts/bench/first-visit-plain.ts through a bare DevTools connection): times a router push to the
 * frame that shows its result, a key to the selector preview it updates, and the naive diff2html
 * render. Every timing is taken inside the page: the DOM condition is watched with a
 * MutationObserver, then requestAnimationFrame and a message after it mark the paint.
 */
/** One timed navigation: from the router push to the first frame painted after the DOM was ready. */
export interface NavTiming {
  ms: number;
  /** From the push to the DOM meeting the condition (before layout and paint). */
  domMs: number;
  /** Painted milestones on the way, by condition name. */
  milestones: Record<string, number>;
  /** The page's User Timing marks made during the navigation (the latest of each name), from the push. */
  marks: Record<string, number>;
}

export interface KeyTiming {
  key: string;
  /** The key event's time stamp to the next frame after the input event. */
  nextPaintMs: number;
  /** The key event's time stamp to the frame showing the updated preview (includes the debounce). */
  previewMs: number;
  /** The debounce timer firing to the frame showing the updated preview: the resolve and render work. */
  settleToPaintMs: number;
  /** Whether the selector typed so far is valid (so the preview resolved it over every version). */
  valid: boolean;
}

export interface NaiveTiming {
  ms: number;
  diffMs: number;
  htmlMs: number;
  lines: number;
}

// In the page. tsx (esbuild) wraps named functions in `__name(...)`, which the page lacks: the
// caller defines `globalThis.__name` before installing (PAGE_NAME_HELPER). These only run in the browser.

/** What the page needs before `installProbe` is evaluated in it. */
export const PAGE_NAME_HELPER = 'globalThis.__name = globalThis.__name || ((fn) => fn)';

interface Probe {
  navigate(path: string, condition: string, milestones: string[], timeoutMs: number): Promise<NavTiming>;
  armKey(key: string): void;
  keyResult(): Promise<KeyTiming>;
  naive(oldText: string, newText: string, oldName: string, newName: string): Promise<NaiveTiming>;
}

export interface ProbeWindow {
  osUpgradesBench?: Probe;
  Diff?: { createTwoFilesPatch(oldName: string, newName: string, oldText: string, newText: string): string };
  Diff2Html?: { html(diff: string, options: Record<string, unknown>): string };
}

interface VueRouterLike {
  push(location: string): Promise<unknown>;
}

export function installProbe(debounceMs: number): void {
  const win = window as unknown as ProbeWindow & typeof globalThis;

  if (win.osUpgradesBench) {
    return;
  }
  const appElement = document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $router: VueRouterLike } } } };
  const router = appElement.__vue_app__.config.globalProperties.$router;
  const has = (selector: string) => !!document.querySelector(selector);
  const conditions: Record<string, () => boolean> = {
    channels:     () => has('[data-testid="channels-table"]'),
    channelRows:  () => has('[data-testid="container-versions"] [data-testid^="version-"]'),
    imageCompare: () => has('[data-testid="image-compare"]'),
    packageDiff:  () => has('[data-testid="image-compare"] [data-testid="package-diff"]'),
    // Advisories aggregated (or known to be none) and the package diff shown, nothing loading.
    compare:      () => has('[data-testid="image-compare"] [data-testid="package-diff"]') &&
      has('[data-testid="advisories"] [data-testid="severity-summary"], [data-testid="advisories"] [data-testid="no-advisories"]') &&
      !has('[data-testid="image-compare"] .loading'),
  };

  /** Resolves with the time of the first frame painted from now on. */
  const nextPaint = () => new Promise<number>((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();

      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    });
  });

  /** Resolves with the time the DOM first meets the condition. */
  const until = (name: string, timeoutMs: number) => new Promise<number>((resolve, reject) => {
    const check = conditions[name];

    if (check()) {
      resolve(performance.now());

      return;
    }
    const observer = new MutationObserver(() => {
      if (check()) {
        const at = performance.now();

        observer.disconnect();
        clearTimeout(timer);
        resolve(at);
      }
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`"${ name }" not rendered after ${ timeoutMs } ms at ${ location.href }`));
    }, timeoutMs);

    observer.observe(document.body, { childList: true, subtree: true });
  });

  // The selector draft's debounce timer: wrapped to know when the preview starts resolving.
  const key = {
    name: '', keyAt: NaN, nextPaintAt: NaN, settleAt: NaN, result: undefined as Promise<KeyTiming> | undefined
  };
  const originalSetTimeout = win.setTimeout.bind(win);

  win.setTimeout = ((handler: string | ((...a: unknown[]) => void), timeout?: number, ...args: unknown[]) => {
    if (timeout === debounceMs && typeof handler === 'function') {
      return originalSetTimeout(() => {
        key.settleAt = performance.now();
        handler(...args);
      }, timeout);
    }

    return originalSetTimeout(handler, timeout, ...args);
  }) as typeof win.setTimeout;

  win.osUpgradesBench = {
    async navigate(path, condition, milestones, timeoutMs) {
      const start = performance.now();
      const painted = milestones.map((name) => until(name, timeoutMs).then(() => nextPaint()));
      const ready = until(condition, timeoutMs);

      router.push(path).catch(() => undefined);
      const domAt = await ready;
      const paintAt = await nextPaint();
      const times = await Promise.all(painted);
      const result: NavTiming = {
        ms: paintAt - start, domMs: domAt - start, milestones: {}, marks: {}
      };

      milestones.forEach((name, i) => {
        result.milestones[name] = times[i] - start;
      });
      for (const entry of performance.getEntriesByType('mark')) {
        if (entry.startTime >= start) {
          result.marks[entry.name] = entry.startTime - start;
        }
      }
      performance.clearMarks();

      return result;
    },

    armKey(name) {
      const preview = document.querySelector('[data-testid="selector-preview"]') as HTMLElement;
      const input = document.querySelector('[data-testid="selector-version"] input, input[data-testid="selector-version"]') as HTMLInputElement;

      key.name = name;
      key.keyAt = NaN;
      key.nextPaintAt = NaN;
      key.settleAt = NaN;
      document.addEventListener('keydown', (event) => {
        key.keyAt = event.timeStamp;
      }, { capture: true, once: true });
      input.addEventListener('input', () => {
        nextPaint().then((at) => {
          key.nextPaintAt = at;
        });
      }, { once: true });
      key.result = new Promise<KeyTiming>((resolve, reject) => {
        let busy = false;
        const observer = new MutationObserver(() => {
          const state = preview.getAttribute('aria-busy');

          busy = busy || state === 'true';
          if (busy && state === 'false') {
            observer.disconnect();
            clearTimeout(timer);
            nextPaint().then(async(previewAt) => {
              // The input's own frame came first; wait for it if its callback is still queued.
              while (Number.isNaN(key.nextPaintAt)) {
                await nextPaint();
              }
              resolve({
                key:             key.name,
                nextPaintMs:     key.nextPaintAt - key.keyAt,
                previewMs:       previewAt - key.keyAt,
                settleToPaintMs: previewAt - key.settleAt,
                valid:           !preview.querySelector('[data-testid="selector-preview-invalid"]'),
              });
            });
          }
        });
        const timer = originalSetTimeout(() => {
          observer.disconnect();
          reject(new Error(`the selector preview did not update after key ${ name }`));
        }, 30000);

        observer.observe(preview, { attributes: true, attributeFilter: ['aria-busy'] });
      });
    },

    keyResult() {
      return key.result as Promise<KeyTiming>;
    },

    async naive(oldText, newText, oldName, newName) {
      const { Diff, Diff2Html } = win;

      if (!Diff || !Diff2Html) {
        throw new Error('jsdiff or diff2html did not load');
      }
      const host = document.querySelector('main') || document.body;
      const container = document.createElement('div');
      const start = performance.now();
      const patch = Diff.createTwoFilesPatch(oldName, newName, oldText, newText);
      const diffAt = performance.now();

      container.innerHTML = Diff2Html.html(patch, {
        drawFileList: false, matching: 'none', outputFormat: 'line-by-line'
      });
      host.appendChild(container);
      const htmlAt = performance.now();
      const paintAt = await nextPaint();
      const lines = container.querySelectorAll('tr').length;

      container.remove();

      return {
        ms: paintAt - start, diffMs: diffAt - start, htmlMs: htmlAt - diffAt, lines
      };
    },
  };
}
