// Prints one closing line over every test runner's JSON report: "tests: N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    // A runner whose report is gone must not vanish from the count.
    console.log(`no report ${ file }: counted as one failure`); // eslint-disable-line no-console
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));

  if ('numPassedTests' in report) { // jest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests;
  } else if (report.stats) { // playwright
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}

console.log(`tests: ${ passed } passed, ${ failed } failed, ${ skipped } skipped`); // eslint-disable-line no-console
process.exit(failed ? 1 : 0);
