import { parse } from 'diff2html';
import { splitUnifiedDiff } from '../diff-sections';

const header = '--- a/old\n+++ b/new';
const hunk = (n: number) => `@@ -${ n },2 +${ n },2 @@\n pkg${ n }.x86_64  1-1\n-curl${ n }.x86_64  8.0-1\n+curl${ n }.x86_64  8.1-1`;

describe('splitUnifiedDiff', () => {
  it('groups hunks into sections that are each a complete unified diff', () => {
    const sections = splitUnifiedDiff(`${ header }\n${ [1, 2, 3, 4, 5].map(hunk).join('\n') }\n`, 6);

    expect(sections).toHaveLength(3);
    expect(sections[0].unified).toBe(`${ header }\n${ hunk(1) }\n${ hunk(2) }\n`);
    expect(sections[2].unified).toBe(`${ header }\n${ hunk(5) }\n`);
    expect(sections[0]).toMatchObject({
      first: 'curl1.x86_64', last: 'curl2.x86_64', added: 2, removed: 2
    });
  });

  it('cuts one long hunk into sections whose line numbers continue where the last one ended', () => {
    const removed = Array.from({ length: 50 }, (_, i) => `-old${ i }.x86_64  1-1`);
    const added = Array.from({ length: 50 }, (_, i) => `+new${ i }.x86_64  1-1`);
    const sections = splitUnifiedDiff(`${ header }\n@@ -10,51 +10,51 @@\n ctx.x86_64  1-1\n${ [...removed, ...added].join('\n') }\n`, 40);
    const files = sections.map((section) => parse(section.unified)[0]);

    expect(sections).toHaveLength(3);
    expect(sections.map((section) => section.removed + section.added)).toStrictEqual([39, 40, 21]);
    expect(files.map((file) => file.blocks[0].oldStartLine)).toStrictEqual([10, 50, 61]);
    expect(files.map((file) => file.blocks[0].newStartLine)).toStrictEqual([10, 11, 40]);
    expect(sections.reduce((sum, section) => sum + section.removed, 0)).toBe(50);
    expect(sections.reduce((sum, section) => sum + section.added, 0)).toBe(50);
  });

  it('has no section when nothing changed', () => {
    expect(splitUnifiedDiff(`${ header }\n`)).toEqual([]);
  });
});
