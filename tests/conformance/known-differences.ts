// Where the emulator answers differently from the recorded real programs, on purpose or not yet
// fixed: `<scenario>#<step index>` → why, and what it changes for a person (docs/emulator.md,
// "What is real"). The replay fails when one of these starts to match, so the list stays true.
export const KNOWN_DIFFERENCES: Record<string, string> = {};
