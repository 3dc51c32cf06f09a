// Modules that ship no types of their own, with only what this repository uses of them.

// js-yaml 3, installed with the shell.
declare module 'js-yaml' {
  /** The JSON schema: null, booleans, numbers and strings only (no dates, no custom types). */
  export const JSON_SCHEMA: unknown;
  export function load(text: string, options?: { schema?: unknown }): unknown;
  export function safeLoad(text: string): unknown;
  export function safeLoadAll(text: string): unknown[];
  export function dump(value: unknown): string;
}

// marked 4.0.17.
declare module 'marked' {
  export const marked: {
    parse(markdown: string, options?: { gfm?: boolean; breaks?: boolean; headerIds?: boolean; mangle?: boolean }): string;
  };
}

// The shell's untyped create-yaml.js.
declare module '@shell/utils/create-yaml' {
  export function saferDump(obj: unknown): string;
}

// The shell's untyped preferences store: the names of the date and time format preferences.
declare module '@shell/store/prefs' {
  export const DATE_FORMAT: string;
  export const TIME_FORMAT: string;
}
