// The package diff of two lists, worked out once per pair for the session: the lists are the
// changelogs store's own (parsed once, never changed), so a second visit of a compare, or the
// same images in the approve dialog, reuse the diff and its rows.
import {
  diffPackages, Package, PackageDiff, PackageDiffRow, packageDiffRows
} from '../../domain';

export interface ComputedPackageDiff {
  diff: PackageDiff;
  rows: PackageDiffRow[];
}

const byOlder = new WeakMap<readonly Package[], WeakMap<readonly Package[], ComputedPackageDiff>>();

export function packageDiffOf(older: readonly Package[], newer: readonly Package[]): ComputedPackageDiff {
  let byNewer = byOlder.get(older);

  if (!byNewer) {
    byNewer = new WeakMap();
    byOlder.set(older, byNewer);
  }
  let computed = byNewer.get(newer);

  if (!computed) {
    const diff = diffPackages(older, newer);

    computed = { diff, rows: packageDiffRows(diff) };
    byNewer.set(newer, computed);
  }

  return computed;
}
