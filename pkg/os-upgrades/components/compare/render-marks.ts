// User Timing marks (performance.mark) around the package diff's own render, so the benchmark can
// set it side by side with diff2html's render of the same two package lists (scripts/bench): the
// page's navigation and data loading are not in it.
export const PACKAGE_DIFF_CREATED = 'os-upgrades:package-diff:created';

export function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') {
    performance.mark(name);
  }
}
