// The rows of the package diff table (rule "Package diff"): one row per changed package, the
// older image's line beside the newer one's, computed once per pair of lists and drawn a screen
// at a time by the UI.
import { comparePackages, Package, PackageChange, PackageDiff } from './packages';
import { packageLine } from './package-diff-text';

export type PackageRowChange = 'upgraded' | 'downgraded' | 'added' | 'removed';

export interface PackageDiffRow {
  /** Unique within the rows of one diff. */
  key: string;
  change: PackageRowChange;
  /** `name.arch  version-release` in the older image; '' for an added package. */
  old: string;
  /** `name.arch  version-release` in the newer image; '' for a removed package. */
  new: string;
}

interface Pending {
  change: PackageRowChange;
  /** The package that orders the row: the older one, or the added one. */
  order: Package;
  from?: Package;
  to?: Package;
}

/** One line per row: a control character from a package list would break the row. */
function rowText(pkg: Package | undefined): string {
  // eslint-disable-next-line no-control-regex
  return pkg ? packageLine(pkg).replace(/[\u0000-\u001f\u007f]/g, ' ') : '';
}

function moved(change: 'upgraded' | 'downgraded', item: PackageChange): Pending {
  return {
    change, order: item.from, from: item.from, to: item.to
  };
}

/** Every changed package of the diff as a row, by name, arch, then version (the order of the lists). */
export function packageDiffRows(diff: PackageDiff): PackageDiffRow[] {
  const pending: Pending[] = [
    ...diff.upgraded.map((item) => moved('upgraded', item)),
    ...diff.downgraded.map((item) => moved('downgraded', item)),
    ...diff.removed.map((pkg): Pending => ({
      change: 'removed', order: pkg, from: pkg
    })),
    ...diff.added.map((pkg): Pending => ({
      change: 'added', order: pkg, to: pkg
    })),
  ];

  return pending.sort((a, b) => comparePackages(a.order, b.order)).map((row, index) => ({
    key:    `${ index }`,
    change: row.change,
    old:    rowText(row.from),
    new:    rowText(row.to),
  }));
}
