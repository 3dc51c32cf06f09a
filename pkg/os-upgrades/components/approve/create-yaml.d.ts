// The one function this folder uses from the shell's untyped create-yaml.js.
declare module '@shell/utils/create-yaml' {
  export function saferDump(obj: unknown): string;
}
