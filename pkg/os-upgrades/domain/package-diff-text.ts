import { comparePackages, formatPackageVersion, Package, PackageDiff } from './packages';
import { compareText } from './text';

/** Context lines shown around each change in the unified diff. */
export const UNIFIED_CONTEXT_LINES = 3;

/** `name.arch  version-release` (epoch as `E:` when not 0). */
export function packageLine(pkg: Package): string {
  return `${ pkg.name }.${ pkg.arch }  ${ formatPackageVersion(pkg) }`;
}

type DiffLine = { mark: ' ' | '-' | '+'; text: string; pkg: Package };

/**
 * Every line of both lists in order: packages sorted by name and arch; within one (name, arch)
 * the old lines come before the new ones, so an upgrade reads as `-old` then `+new`.
 */
function diffLines(diff: PackageDiff): DiffLine[] {
  const lines: DiffLine[] = [
    ...diff.unchangedPackages.map((pkg): DiffLine => ({
      mark: ' ', text: packageLine(pkg), pkg
    })),
    ...diff.removed.map((pkg): DiffLine => ({
      mark: '-', text: packageLine(pkg), pkg
    })),
    ...diff.added.map((pkg): DiffLine => ({
      mark: '+', text: packageLine(pkg), pkg
    })),
  ];

  for (const change of [...diff.upgraded, ...diff.downgraded]) {
    lines.push({
      mark: '-', text: packageLine(change.from), pkg: change.from
    });
    lines.push({
      mark: '+', text: packageLine(change.to), pkg: change.to
    });
  }
  const markOrder = {
    ' ': 0, '-': 1, '+': 2
  };

  return lines.sort((a, b) => compareText(a.pkg.name, b.pkg.name) || compareText(a.pkg.arch, b.pkg.arch) ||
    markOrder[a.mark] - markOrder[b.mark] || comparePackages(a.pkg, b.pkg));
}

/** Control characters from outside would break the diff's line structure. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return String(text).replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function range(start: number, count: number): string {
  // A hunk that holds no line of one side names the line before it (GNU diff convention).
  return `${ count === 0 ? start - 1 : start },${ count }`;
}

/**
 * A unified diff of the two package lists as sorted `name.arch  version-release` lines (valid
 * input for diff2html): only changed packages are `-`/`+` lines, with UNIFIED_CONTEXT_LINES of
 * context around them. No hunk at all when nothing changed.
 */
export function packageDiffToUnified(diff: PackageDiff, oldLabel: string, newLabel: string, contextLines = UNIFIED_CONTEXT_LINES): string {
  const lines = diffLines(diff);
  const out = [`--- a/${ oneLine(oldLabel) }`, `+++ b/${ oneLine(newLabel) }`];
  const changed = lines.map((line, index) => (line.mark === ' ' ? -1 : index)).filter((index) => index >= 0);
  // oldBefore[i] / newBefore[i]: how many lines of each side come before line i.
  const oldBefore: number[] = [];
  const newBefore: number[] = [];
  let next = 0;

  lines.forEach((line, index) => {
    oldBefore.push(index === 0 ? 0 : oldBefore[index - 1] + (lines[index - 1].mark === '+' ? 0 : 1));
    newBefore.push(index === 0 ? 0 : newBefore[index - 1] + (lines[index - 1].mark === '-' ? 0 : 1));
  });

  while (next < changed.length) {
    const start = Math.max(0, changed[next] - contextLines);
    let end = changed[next];

    // Merge changes whose context would touch or overlap.
    while (next + 1 < changed.length && changed[next + 1] - end <= 2 * contextLines + 1) {
      next++;
      end = changed[next];
    }
    end = Math.min(lines.length - 1, end + contextLines);
    next++;

    const hunk = lines.slice(start, end + 1);
    const oldCount = hunk.filter((line) => line.mark !== '+').length;
    const newCount = hunk.filter((line) => line.mark !== '-').length;

    out.push(`@@ -${ range(oldBefore[start] + 1, oldCount) } +${ range(newBefore[start] + 1, newCount) } @@`);
    for (const line of hunk) {
      out.push(`${ line.mark }${ oneLine(line.text) }`);
    }
  }

  return `${ out.join('\n') }\n`;
}
