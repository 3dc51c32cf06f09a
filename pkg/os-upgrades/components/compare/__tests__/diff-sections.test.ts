import { splitUnifiedDiff } from '../diff-sections';

const header = '--- a/old\n+++ b/new';
const hunk = (n: number) => `@@ -${ n },2 +${ n },2 @@\n pkg${ n }.x86_64  1-1\n-curl${ n }.x86_64  8.0-1\n+curl${ n }.x86_64  8.1-1`;

describe('splitUnifiedDiff', () => {
  it('groups hunks into sections that are each a complete unified diff', () => {
    const sections = splitUnifiedDiff(`${ header }\n${ [1, 2, 3, 4, 5].map(hunk).join('\n') }\n`, 2);

    expect(sections).toHaveLength(3);
    expect(sections[0].unified).toBe(`${ header }\n${ hunk(1) }\n${ hunk(2) }\n`);
    expect(sections[2].unified).toBe(`${ header }\n${ hunk(5) }\n`);
    expect(sections[0]).toMatchObject({
      first: 'curl1.x86_64', last: 'curl2.x86_64', added: 2, removed: 2
    });
  });

  it('has no section when nothing changed', () => {
    expect(splitUnifiedDiff(`${ header }\n`)).toEqual([]);
  });
});
