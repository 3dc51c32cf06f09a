/** A run of hunks of the package diff, rendered by diff2html on its own when opened. */
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

function packageOf(line: string): string {
  return line.slice(1).split(/\s+/)[0] ?? '';
}

/** Splits a unified diff (one file) into sections of at most `hunksPerSection` hunks. */
export function splitUnifiedDiff(unified: string, hunksPerSection = 25): DiffSection[] {
  const lines = unified.split('\n');
  const header = lines.slice(0, 2).join('\n');
  const hunks: string[][] = [];

  for (const line of lines.slice(2)) {
    if (line.startsWith('@@')) {
      hunks.push([line]);
    } else if (hunks.length && line !== '') {
      hunks[hunks.length - 1].push(line);
    }
  }
  const sections: DiffSection[] = [];

  for (let start = 0; start < hunks.length; start += hunksPerSection) {
    const body = hunks.slice(start, start + hunksPerSection).flat();
    const changed = body.filter((line) => line.startsWith('+') || line.startsWith('-'));

    sections.push({
      key:     `section-${ start }`,
      first:   packageOf(changed[0] ?? ''),
      last:    packageOf(changed[changed.length - 1] ?? ''),
      added:   changed.filter((line) => line.startsWith('+')).length,
      removed: changed.filter((line) => line.startsWith('-')).length,
      unified: `${ header }\n${ body.join('\n') }\n`,
    });
  }

  return sections;
}
