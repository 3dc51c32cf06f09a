/** A part of the package diff, rendered by diff2html on its own when opened. */
export interface DiffSection {
  key: string;
  /** First and last changed `name.arch` in the section, for its heading. */
  first: string;
  last: string;
  added: number;
  removed: number;
  /** A unified diff of its own: the file header and the section's hunks. */
  unified: string;
}

interface Hunk {
  oldStart: number;
  newStart: number;
  lines: string[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

function packageOf(line: string): string {
  return line.slice(1).split(/\s+/)[0] ?? '';
}

const inOld = (line: string) => !line.startsWith('+');
const inNew = (line: string) => !line.startsWith('-');

function hunkHeader(hunk: Hunk): string {
  return `@@ -${ hunk.oldStart },${ hunk.lines.filter(inOld).length } +${ hunk.newStart },${ hunk.lines.filter(inNew).length } @@`;
}

/**
 * Cuts a hunk into pieces of at most `maxLines` lines, each with its own position, so images far
 * apart (one hunk of hundreds of changed packages) still render a section at a time.
 */
function cutHunk(hunk: Hunk, maxLines: number): Hunk[] {
  const pieces: Hunk[] = [];
  let { oldStart, newStart } = hunk;

  for (let i = 0; i < hunk.lines.length; i += maxLines) {
    const lines = hunk.lines.slice(i, i + maxLines);

    pieces.push({
      oldStart, newStart, lines
    });
    oldStart += lines.filter(inOld).length;
    newStart += lines.filter(inNew).length;
  }

  return pieces;
}

function parseHunks(lines: string[]): Hunk[] {
  const hunks: Hunk[] = [];

  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);

    if (header) {
      hunks.push({
        oldStart: Number(header[1]), newStart: Number(header[2]), lines: []
      });
    } else if (hunks.length && line !== '') {
      hunks[hunks.length - 1].lines.push(line);
    }
  }

  return hunks;
}

function toSection(header: string, hunks: Hunk[], index: number): DiffSection {
  const changed = hunks.flatMap((hunk) => hunk.lines).filter((line) => line.startsWith('+') || line.startsWith('-'));

  return {
    key:     `section-${ index }`,
    first:   packageOf(changed[0] ?? ''),
    last:    packageOf(changed[changed.length - 1] ?? ''),
    added:   changed.filter((line) => line.startsWith('+')).length,
    removed: changed.filter((line) => line.startsWith('-')).length,
    unified: `${ header }\n${ hunks.map((hunk) => [hunkHeader(hunk), ...hunk.lines].join('\n')).join('\n') }\n`,
  };
}

/** Splits a unified diff (one file) into sections of at most `linesPerSection` diff lines. */
export function splitUnifiedDiff(unified: string, linesPerSection = 60): DiffSection[] {
  const lines = unified.split('\n');
  const header = lines.slice(0, 2).join('\n');
  const pieces = parseHunks(lines.slice(2)).flatMap((hunk) => cutHunk(hunk, linesPerSection));
  const groups: Hunk[][] = [];
  let size = 0;

  for (const piece of pieces) {
    if (!groups.length || size + piece.lines.length > linesPerSection) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(piece);
    size += piece.lines.length;
  }

  return groups.map((group, index) => toSection(header, group, index));
}
