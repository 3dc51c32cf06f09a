// The package diff's own render on the large compare's warm visits, set beside diff2html's render of
// the same two package lists ("naive ÷ ours" in the benchmark's table).
import { PACKAGE_DIFF_CREATED } from '../../pkg/os-upgrades/components/compare/render-marks';
import type { BrowserResults } from './browser';

/**
 * Side by side with the naive render: our package diff's own render, from the component's creation
 * (its rows computed, or taken from the memo) to the frame that shows it, on warm visits of the same
 * compare; undefined in results made before the component marked it.
 */
export function packageDiffOwnRender(browser: Pick<BrowserResults, 'largeCompare'>): number[] | undefined {
  const own = browser.largeCompare.repeat.flatMap((timing) => {
    const created = timing.marks?.[PACKAGE_DIFF_CREATED];
    const painted = timing.milestones.packageDiff;

    return created !== undefined && painted !== undefined ? [painted - created] : [];
  });

  return own.length ? own : undefined;
}
