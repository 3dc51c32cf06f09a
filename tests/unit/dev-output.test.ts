/** @jest-environment node */
// `scripts/run` pipes the dev server through scripts/lib/dev-output.mjs: a person sees the compile's
// progress in ten lines, not thousands, and no stack trace for a browser tab that was closed.
import { spawnSync } from 'child_process';
import path from 'path';

const FILTER = path.join(__dirname, '../../scripts/lib/dev-output.mjs');

function filtered(input: string): string[] {
  const run = spawnSync(process.execPath, [FILTER], { input, encoding: 'utf8' });

  expect(run.status).toBe(0);

  return run.stdout.split('\n').filter(Boolean);
}

describe('the dev server output filter', () => {
  it('turns thousands of progress lines into one per ten percent', () => {
    const progress = Array.from({ length: 3000 }, (_, i) => `[${ Math.floor(i / 30) }%] building (${ i } modules)`).join('\r');
    const out = filtered(`${ progress }\n App running at:\n  - Local:   https://localhost:8005/\n`);

    expect(out.filter((line) => line.includes('compiling'))).toHaveLength(10);
    expect(out).toContain(' App running at:');
    expect(out).toContain('  - Local:   https://localhost:8005/');
  });

  it('drops the stack trace of a closed tab\'s websocket and counts it, but keeps other errors', () => {
    const trace = [
      'Proxy WS Error: Error: write EPIPE',
      '    at afterWriteDispatched (node:internal/stream_base_commons:161:15)',
      '    at writeGeneric (node:internal/stream_base_commons:152:3)',
      '  errno: -32,',
      "  code: 'EPIPE',",
      "  syscall: 'write'",
      '}',
    ].join('\n');
    const out = filtered(`${ trace }\n${ trace }\nProxy Error: connect ECONNREFUSED 127.0.0.1:8989\n`);

    expect(out).toEqual([
      'Proxy Error: connect ECONNREFUSED 127.0.0.1:8989',
      '[os-upgrades] 2 closed browser websockets were not shown',
    ]);
  });
});
