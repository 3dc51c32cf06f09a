/** @jest-environment node */
// `scripts/run` pipes the dev server through scripts/lib/dev-output.mjs: a person sees the compile's
// progress in ten lines, not thousands, one line per event, and no stack trace for a browser tab
// that closed its websocket. The fixture is real output of `scripts/run` (DEV_OUTPUT=raw): two
// compiles, tabs closed by the browser tests (EPIPE) and connections reset (ECONNRESET).
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import path from 'path';

const FILTER = path.join(__dirname, '../../scripts/lib/dev-output.mjs');
const REAL_OUTPUT = readFileSync(path.join(__dirname, 'fixtures/dev-server-output.txt'), 'utf8');

function filtered(input: string): string[] {
  const run = spawnSync(process.execPath, [FILTER], { input, encoding: 'utf8' });

  expect(run.status).toBe(0);

  return run.stdout.split('\n').filter(Boolean);
}

const ECONNRESET_TRACE = [
  'Proxy WS Error: Error: read ECONNRESET',
  '    at TLSWrap.onStreamRead (node:internal/stream_base_commons:216:20) {',
  '  errno: -104,',
  "  code: 'ECONNRESET',",
  "  syscall: 'read'",
  '}',
].join('\n');

describe('the dev server output filter', () => {
  it('turns thousands of progress lines into one per ten percent', () => {
    const progress = Array.from({ length: 3000 }, (_, i) => `[${ Math.floor(i / 30) }%] building (${ i } modules)`).join('\r');
    const out = filtered(`${ progress }\n App running at:\n  - Local:   https://localhost:8005/\n`);

    expect(out.filter((line) => line.includes('compiling'))).toHaveLength(10);
    expect(out).toContain(' App running at:');
    expect(out).toContain('  - Local:   https://localhost:8005/');
  });

  it('shows no stack trace of a closed websocket from real output, in any of its forms', () => {
    const out = filtered(REAL_OUTPUT);

    // The real output has them: EPIPE on the last line of the trace, [HPM]'s copy, ECONNRESET.
    expect(REAL_OUTPUT).toMatch(/Proxy WS Error: Error: This socket has been ended/);
    expect(REAL_OUTPUT).toMatch(/\[HPM\] WebSocket error/);
    expect(REAL_OUTPUT).toMatch(/read ECONNRESET/);
    expect(out.filter((line) => /WS Error|WebSocket error|^\s+at\s|errno|code:|syscall|^\}$/.test(line))).toEqual([]);
    expect(out.filter((line) => line.includes('a browser tab closed its websocket'))).toHaveLength(1);
    expect(out[out.length - 1]).toBe('[os-upgrades] 8 stack traces of closed browser websockets were not shown');
    expect(out.some((line) => line.includes('Unknown Web socket upgrade request for /ws'))).toBe(false);
  });

  it('puts each status line\'s time apart from its text', () => {
    const out = filtered(REAL_OUTPUT);

    expect(REAL_OUTPUT).toContain(' DONE  Compiled successfully in 248107ms1:24:47 AM');
    expect(out).toContain(' DONE  Compiled successfully in 248107ms 1:24:47 AM');
    expect(out).toContain(' WAIT  Compiling... 1:24:54 AM');
    expect(filtered(' DONE  Compiled successfully in 59324ms10:07:31 PM\n')).toEqual([' DONE  Compiled successfully in 59324ms 10:07:31 PM']);
  });

  it('keeps other errors whole, their traces included, and the lines around a dropped trace', () => {
    const refused = [
      'Proxy WS Error: Error: connect ECONNREFUSED 127.0.0.1:8989',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16) {',
      "  code: 'ECONNREFUSED'",
      '}',
    ].join('\n');
    const out = filtered(`before\n${ ECONNRESET_TRACE }\n${ refused }\nProxy Error: connect ECONNREFUSED 127.0.0.1:8989\nafter\n`);

    expect(out).toEqual([
      'before',
      '[os-upgrades] a browser tab closed its websocket: such stack traces are not shown (DEV_OUTPUT=raw shows them)',
      ...refused.split('\n'),
      'Proxy Error: connect ECONNREFUSED 127.0.0.1:8989',
      'after',
      '[os-upgrades] 1 stack traces of closed browser websockets were not shown',
    ]);
  });
});
