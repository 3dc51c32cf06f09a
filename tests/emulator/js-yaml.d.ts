// js-yaml 3 (installed with the shell) ships no types; these are the two functions the emulator uses.
declare module 'js-yaml' {
  export function safeLoad(text: string): unknown;
  export function safeLoadAll(text: string): unknown[];
}
