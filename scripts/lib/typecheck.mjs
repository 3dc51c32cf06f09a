// Type-checks pkg/, tests/ and scripts/ with vue-tsc. The shell ships TypeScript sources that
// do not type-check on their own (they import untyped .js modules), so only diagnostics in
// this repository's files fail the check; the shell's are counted, not reported.
import { spawnSync } from 'node:child_process';

const result = spawnSync('node_modules/.bin/vue-tsc', ['--noEmit', '--pretty', 'false', '-p', 'tsconfig.check.json'], { encoding: 'utf8' });
const lines = `${ result.stdout }${ result.stderr }`.split('\n');
const ours = [];
let shell = 0;
let current = null;

for (const line of lines) {
  if (/^\S.*\(\d+,\d+\): error TS\d+/.test(line)) {
    current = line.startsWith('node_modules/') ? null : [line];
    if (current) {
      ours.push(current);
    } else {
      shell++;
    }
  } else if (current && line.startsWith(' ')) {
    current.push(line);
  }
}

for (const diagnostic of ours) {
  console.error(diagnostic.join('\n')); // eslint-disable-line no-console
}
console.log(`type-check: ${ ours.length } error(s) in this repository (${ shell } in @rancher/shell's own sources, not ours)`); // eslint-disable-line no-console
if (result.error || (result.status !== 0 && ours.length + shell === 0)) {
  console.error(result.error || `vue-tsc failed without diagnostics:\n${ lines.join('\n') }`); // eslint-disable-line no-console
  process.exit(1);
}
process.exit(ours.length ? 1 : 0);
