// Code, tests and docs cite the domain README's rules by name (its `### <name>` headings under
// "## Rules"): every cited name must be a rule there, so a renamed or removed rule is found.
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '../../../..');
const README = join(ROOT, 'pkg/os-upgrades/domain/README.md');
const SEARCHED = ['pkg/os-upgrades', 'tests', 'docs', 'README.md'];
const SKIPPED = new Set(['node_modules', 'dist', 'dist-pkg', 'test-results', 'playwright-report', 'screenshots']);

function ruleNames(): string[] {
  const text = readFileSync(README, 'utf8');
  const rules = text.slice(text.indexOf('## Rules\n'), text.indexOf('\n## ', text.indexOf('## Rules\n') + 1));

  return [...rules.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
}

function files(path: string): string[] {
  const full = join(ROOT, path);

  if (statSync(full).isFile()) {
    return /\.(ts|vue|md|mjs|js)$/.test(path) ? [path] : [];
  }

  return readdirSync(full).filter((name) => !SKIPPED.has(name)).flatMap((name) => files(join(path, name)));
}

/** Each cited name (in `rule "…"`, `rules "…", "…"` or `rules "…" and "…"`), with the file citing it. */
function citations(): { file: string; name: string }[] {
  // This file's own patterns are not citations.
  return SEARCHED.flatMap(files).filter((file) => !file.endsWith('rule-names.test.ts')).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');

    return [...text.matchAll(/\b[Rr]ules? ("[^"\n]+"(?:(?:, | and )"[^"\n]+")*)/g)]
      .flatMap((match) => [...match[1].matchAll(/"([^"\n]+)"/g)].map((name) => ({ file, name: name[1] })));
  });
}

describe('the domain README\'s rules', () => {
  it('each has its own name', () => {
    const names = ruleNames();

    expect(names.length).toBeGreaterThan(30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('every rule a file cites by name is a rule of the README', () => {
    const names = new Set(ruleNames());
    const cited = citations();

    expect(cited.length).toBeGreaterThan(40);
    expect(cited.filter((citation) => !names.has(citation.name))).toEqual([]);
  });
});
