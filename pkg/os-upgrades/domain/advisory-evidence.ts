import { comparePackageVersions, formatPackageVersion, Package } from './packages';
import type { Advisory, AdvisoryPackage } from './updatelog';

/** Version name → parsed package list (undefined or null: no list). */
export type PackageLists = Record<string, readonly Package[] | undefined | null>;

/** One package of an advisory that the package lists prove delivered. */
export interface PackageProof {
  name: string;
  arch: string;
  /** The advisory's `version-release`. */
  fixedIn: string;
  /** What the image without the fix has installed (`version-release`), undefined when not installed. */
  before?: string;
  /** What the image with the fix has installed (`version-release`). */
  after: string;
}

/** How one advisory stands between two package lists (see advisoryDelivery). */
export interface AdvisoryDelivery {
  /** The newer list has one of its packages at or above the advisory's, the older one not. */
  delivered: boolean;
  /** The older list already has one of its packages at or above the advisory's. */
  alreadyHad: boolean;
  proof: PackageProof[];
}

/** Packages by `name arch`, built once per list. */
type PackageIndex = Map<string, Package[]>;

const indexes = new WeakMap<readonly Package[], PackageIndex>();

function key(name: string, arch: string): string {
  return `${ name }\u0000${ arch }`;
}

function indexOf(list: readonly Package[]): PackageIndex {
  let index = indexes.get(list);

  if (!index) {
    index = new Map();
    for (const pkg of list) {
      const k = key(pkg.name, pkg.arch);
      const group = index.get(k);

      if (group) {
        group.push(pkg);
      } else {
        index.set(k, [pkg]);
      }
    }
    indexes.set(list, index);
  }

  return index;
}

/** Installed packages of that name and arch; an advisory without arch matches every arch. */
function installed(index: PackageIndex, list: readonly Package[], wanted: AdvisoryPackage): Package[] {
  if (wanted.arch) {
    return index.get(key(wanted.name, wanted.arch)) ?? [];
  }

  return list.filter((pkg) => pkg.name === wanted.name);
}

/** `version-release` only: an advisory names no epoch, so none is compared. */
function atOrAbove(pkg: Package, wanted: AdvisoryPackage): boolean {
  return comparePackageVersions({ version: pkg.version, release: pkg.release }, { version: wanted.version, release: wanted.release }) >= 0;
}

function highest(packages: Package[]): Package | undefined {
  return packages.reduce<Package | undefined>((best, pkg) => (!best || comparePackageVersions(pkg, best) > 0 ? pkg : best), undefined);
}

function versionRelease(pkg: { version: string; release: string }): string {
  return formatPackageVersion({ version: pkg.version, release: pkg.release });
}

/**
 * The package evidence for one advisory (pkg/os-upgrades/domain/README.md, rule "Changelog"): it is
 * delivered by older → newer when at least one of its packages (name, arch) is installed in
 * `newer` at a version-release at or above the advisory's while `older` has that package
 * below it or not at all. `proof` lists those packages. Packages without name or version
 * prove nothing.
 */
export function advisoryDelivery(advisory: Advisory, older: readonly Package[], newer: readonly Package[]): AdvisoryDelivery {
  const olderIndex = indexOf(older);
  const newerIndex = indexOf(newer);
  const result: AdvisoryDelivery = {
    delivered: false, alreadyHad: false, proof: []
  };

  for (const wanted of advisory.packages) {
    if (!wanted.name || !wanted.version) {
      continue;
    }
    const before = installed(olderIndex, older, wanted);

    if (before.some((pkg) => atOrAbove(pkg, wanted))) {
      result.alreadyHad = true;
      continue;
    }
    const after = installed(newerIndex, newer, wanted).filter((pkg) => atOrAbove(pkg, wanted));

    if (after.length) {
      const had = highest(before);
      const proof: PackageProof = {
        name: wanted.name, arch: after[0].arch, fixedIn: versionRelease(wanted), after: versionRelease(highest(after) as Package),
      };

      if (had) {
        proof.before = versionRelease(had);
      }
      result.proof.push(proof);
    }
  }
  result.delivered = result.proof.length > 0;

  return result;
}
