// Kinds of request (request-kinds.ts) the browser makes that no recording can hold, with why:
// what answers them cannot run here. coverage.ts reports them apart from the recorded ones.
export const NOT_RECORDABLE: Record<string, string> = {};
