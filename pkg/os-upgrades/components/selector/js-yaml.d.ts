// js-yaml 3 (installed with the shell) ships no types: the one function the l10n tests use.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
