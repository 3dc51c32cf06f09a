// marked 4.0.17 ships no types: only what safe-html.ts uses.
declare module 'marked' {
  export const marked: {
    parse(markdown: string, options?: { gfm?: boolean; breaks?: boolean; headerIds?: boolean; mangle?: boolean }): string;
  };
}
