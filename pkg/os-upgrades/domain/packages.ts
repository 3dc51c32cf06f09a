import { PackageListFormatError } from './errors';
import { rpmvercmp } from './rpmvercmp';
import { compareText, utf8Length } from './text';

/** Largest package list accepted, in bytes of UTF-8. */
export const MAX_PACKAGE_LIST_BYTES = 5 * 1024 * 1024;
/** Most packages accepted in one list. */
export const MAX_PACKAGE_LIST_ENTRIES = 50000;

/** One line of a `<name>.packages` file. */
export interface Package {
  name: string;
  /** 0 when the file says `(none)`. */
  epoch: number;
  version: string;
  release: string;
  arch: string;
  disturl: string;
  license: string;
}

/** A package's version as RPM orders it. */
export interface PackageVersion {
  /** A number, or the text of a package list (`'(none)'`, `''`, `'2'`); missing = 0. */
  epoch?: number | string | null;
  version: string;
  release?: string;
}

/** RPM reads a missing epoch (`(none)`, empty, absent) as 0. */
function epochNumber(epoch: PackageVersion['epoch']): number {
  if (typeof epoch === 'number') {
    return Number.isFinite(epoch) ? epoch : 0;
  }
  const text = typeof epoch === 'string' ? epoch.trim() : '';

  return /^\d+$/.test(text) ? Number(text) : 0;
}

/**
 * Parses a package list: `name|epoch|version|release|arch|disturl|license` a line. The packages come
 * out sorted by name (code-unit order; lines of one name keep their order): a list is parsed once and
 * diffed many times, and diffPackages walks names in order, which costs little on sorted lists.
 */
export function parsePackageList(text: unknown): Package[] {
  if (typeof text !== 'string') {
    throw new PackageListFormatError('notText', 'package list is not text');
  }
  if (text.length > MAX_PACKAGE_LIST_BYTES || (text.length * 3 > MAX_PACKAGE_LIST_BYTES && utf8Length(text) > MAX_PACKAGE_LIST_BYTES)) {
    throw new PackageListFormatError('tooLarge', `package list over ${ MAX_PACKAGE_LIST_BYTES } bytes`, { limit: MAX_PACKAGE_LIST_BYTES });
  }
  const packages: Package[] = [];
  const lines = text.split('\n');

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];

    if (line.trim() === '') {
      continue;
    }
    const fields = line.split('|');
    const lineNumber = i + 1;

    if (fields.length !== 7) {
      throw new PackageListFormatError('badLine', `line ${ lineNumber }: expected 7 fields, found ${ fields.length }`, { line: lineNumber });
    }
    const [name, epochText, version, release, arch, disturl, license] = fields;

    if (!name || !version || !arch) {
      throw new PackageListFormatError('badLine', `line ${ lineNumber }: name, version and arch are required`, { line: lineNumber });
    }
    if (epochText !== '(none)' && epochText !== '' && !/^\d{1,9}$/.test(epochText)) {
      throw new PackageListFormatError('badEpoch', `line ${ lineNumber }: bad epoch`, { line: lineNumber });
    }
    if (packages.length >= MAX_PACKAGE_LIST_ENTRIES) {
      throw new PackageListFormatError('tooManyEntries', `package list has over ${ MAX_PACKAGE_LIST_ENTRIES } packages`, { limit: MAX_PACKAGE_LIST_ENTRIES });
    }
    packages.push({
      name, epoch: /^\d+$/.test(epochText) ? Number(epochText) : 0, version, release, arch, disturl, license,
    });
  }

  return packages.sort(byName);
}

function byName(a: Package, b: Package): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** RPM order: epoch, then version, then release (rpmvercmp). Returns -1, 0 or 1. */
export function comparePackageVersions(a: PackageVersion, b: PackageVersion): number {
  const epochA = epochNumber(a.epoch);
  const epochB = epochNumber(b.epoch);

  if (epochA !== epochB) {
    return epochA < epochB ? -1 : 1;
  }

  return rpmvercmp(a.version, b.version) || rpmvercmp(a.release ?? '', b.release ?? '');
}

/** `version-release`, with `E:` in front when the epoch is not 0. */
export function formatPackageVersion(pkg: PackageVersion): string {
  const epochValue = epochNumber(pkg.epoch);
  const epoch = epochValue ? `${ epochValue }:` : '';

  return pkg.release ? `${ epoch }${ pkg.version }-${ pkg.release }` : `${ epoch }${ pkg.version }`;
}

export interface PackageChange {
  name: string;
  arch: string;
  from: Package;
  to: Package;
}

export interface PackageDiff {
  added: Package[];
  removed: Package[];
  upgraded: PackageChange[];
  downgraded: PackageChange[];
  /** How many packages are the same (name, arch, epoch, version, release) in both lists. */
  unchanged: number;
  /** Those packages (from the older list), kept so packageDiffToUnified can show context. */
  unchangedPackages: Package[];
}

/** RPM order, then the text (RPM says `1.09` = `1.9`), so that equal versions still sort one way. */
function compareVersionsThenText(a: Package, b: Package): number {
  return comparePackageVersions(a, b) || compareText(a.version, b.version) || compareText(a.release, b.release) ||
    compareText(a.disturl, b.disturl) || compareText(a.license, b.license);
}

/** By name, arch, then RPM version: the order of every list in a PackageDiff. */
export function comparePackages(a: Package, b: Package): number {
  return compareText(a.name, b.name) || compareText(a.arch, b.arch) || compareVersionsThenText(a, b);
}

/** Packages by name: one package, or a list when a name appears several times (arches, kernels). */
function groupByName(packages: readonly Package[]): Map<string, Package | Package[]> {
  const groups = new Map<string, Package | Package[]>();

  for (const pkg of packages) {
    const group = groups.get(pkg.name);

    if (group === undefined) {
      groups.set(pkg.name, pkg);
    } else if (Array.isArray(group)) {
      group.push(pkg);
    } else {
      groups.set(pkg.name, [group, pkg]);
    }
  }

  return groups;
}

function asList(group: Package | Package[] | undefined): Package[] {
  return group === undefined ? NO_PACKAGES : Array.isArray(group) ? group : [group];
}

const NO_PACKAGES: Package[] = [];

/** One package on each side, same name and arch: unchanged, upgraded or downgraded. */
function diffOne(diff: PackageDiff, older: Package, newer: Package): void {
  const order = comparePackageVersions(newer, older);

  if (order === 0) {
    diff.unchangedPackages.push(older);
  } else {
    (order > 0 ? diff.upgraded : diff.downgraded).push({
      name: older.name, arch: older.arch, from: older, to: newer
    });
  }
}

/** Adds the changes between the old and new packages of one (name, arch) to the diff. */
function diffOneKey(diff: PackageDiff, older: Package[], newer: Package[]): void {
  if (older.length === 1 && newer.length === 1) {
    diffOne(diff, older[0], newer[0]);

    return;
  }
  // Several versions of one package (kernels): what both sides hold is unchanged.
  const left = older.slice().sort(compareVersionsThenText);
  const right = newer.slice().sort(compareVersionsThenText);
  const removed: Package[] = [];
  const added: Package[] = [];
  let i = 0;
  let j = 0;

  while (i < left.length || j < right.length) {
    const order = i >= left.length ? 1 : j >= right.length ? -1 : comparePackageVersions(left[i], right[j]);

    if (order === 0) {
      diff.unchangedPackages.push(left[i]);
      i++;
      j++;
    } else if (order < 0) {
      removed.push(left[i++]);
    } else {
      added.push(right[j++]);
    }
  }
  if (removed.length === 1 && added.length === 1) {
    diffOne(diff, removed[0], added[0]);
  } else {
    diff.removed.push(...removed);
    diff.added.push(...added);
  }
}

/**
 * Rule "Package diff" of domain/README.md: compares two package lists by (name, arch), in RPM order. A name installed
 * in several versions (kernels) is matched version by version: what both lists hold is
 * unchanged; one left on each side is an upgrade or a downgrade; anything else is added or
 * removed. Every list comes out sorted by name, arch, version (code-unit order for text).
 */
export function diffPackages(older: readonly Package[], newer: readonly Package[]): PackageDiff {
  const diff: PackageDiff = {
    added: [], removed: [], upgraded: [], downgraded: [], unchanged: 0, unchangedPackages: [],
  };
  const oldGroups = groupByName(older);
  const newGroups = groupByName(newer);
  const names = [...oldGroups.keys()];

  for (const name of newGroups.keys()) {
    if (!oldGroups.has(name)) {
      names.push(name);
    }
  }
  // The default sort compares strings by UTF-16 code units, like compareText, only faster. On lists
  // from parsePackageList the names are two sorted runs (the old names, then the new-only ones):
  // the sort merges them in linear time, where 5,000 shuffled names took half of the whole diff.
  names.sort();

  for (const name of names) {
    const oldGroup = oldGroups.get(name);
    const newGroup = newGroups.get(name);

    // The common case: one package of that name on each side, no list to build.
    if (oldGroup && newGroup && !Array.isArray(oldGroup) && !Array.isArray(newGroup) && oldGroup.arch === newGroup.arch) {
      diffOne(diff, oldGroup, newGroup);
      continue;
    }
    const left = asList(oldGroup);
    const right = asList(newGroup);
    const arches = [...new Set([...left, ...right].map((pkg) => pkg.arch))].sort();

    for (const arch of arches) {
      const oldOfArch = left.filter((pkg) => pkg.arch === arch);
      const newOfArch = right.filter((pkg) => pkg.arch === arch);

      if (!newOfArch.length) {
        diff.removed.push(...oldOfArch.sort(compareVersionsThenText));
      } else if (!oldOfArch.length) {
        diff.added.push(...newOfArch.sort(compareVersionsThenText));
      } else {
        diffOneKey(diff, oldOfArch, newOfArch);
      }
    }
  }
  diff.unchanged = diff.unchangedPackages.length;

  return diff;
}

function packageKey(pkg: Package): string {
  return `${ pkg.name }\u0000${ pkg.arch }\u0000${ pkg.epoch }\u0000${ pkg.version }\u0000${ pkg.release }`;
}

/**
 * The older list with the diff applied (the inverse of diffPackages), sorted like a diff.
 * Packages are matched by value (name, arch, epoch, version, release).
 */
export function applyPackageDiff(older: readonly Package[], diff: PackageDiff): Package[] {
  const pending = new Map<string, Array<Package | undefined>>();
  const result: Package[] = [...diff.added];
  const plan = (from: Package, to: Package | undefined) => {
    const key = packageKey(from);

    pending.set(key, [...(pending.get(key) ?? []), to]);
  };

  for (const pkg of diff.removed) {
    plan(pkg, undefined);
  }
  for (const change of [...diff.upgraded, ...diff.downgraded]) {
    plan(change.from, change.to);
  }
  for (const pkg of older) {
    const replacements = pending.get(packageKey(pkg));

    if (replacements?.length) {
      const replacement = replacements.shift();

      if (replacement) {
        result.push(replacement);
      }
    } else {
      result.push(pkg);
    }
  }

  return result.sort(comparePackages);
}
