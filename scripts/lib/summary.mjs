// Prints, for each test runner's JSON report, what ran and what was skipped and why (the reason a
// test gave test.skip, e.g. "needs fault injection"), then one closing line over all of them:
// "tests: N passed, N failed, N skipped". tests/conformance/coverage.ts's report counts as one test.
// Each failed test is named under its report with its error's first line: CI shows only the end of
// the output, so a failure must be readable there.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

/** Every Playwright test of a report, through nested describe blocks. */
function playwrightTests(suites = []) {
  return suites.flatMap((suite) => [...(suite.specs ?? []).flatMap((spec) => spec.tests ?? []), ...playwrightTests(suite.suites)]);
}

function firstLine(text = '') {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).find(Boolean) ?? '';
}

/** Each failed Playwright spec as "file:line › describe › title: first line of its error", through nested describe blocks. */
function playwrightFailures(suites = [], titles = []) {
  return suites.flatMap((suite) => {
    const path = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    const failed = (suite.specs ?? []).filter((spec) => spec.tests?.some((t) => t.status === 'unexpected')).map((spec) => {
      const error = spec.tests.flatMap((t) => t.results ?? []).map((r) => r.error?.message).find(Boolean);

      return `${ spec.file }:${ spec.line } › ${ [...path, spec.title].join(' › ') }: ${ firstLine(error) }`;
    });

    return [...failed, ...playwrightFailures(suite.suites, path)];
  });
}

function jestFailures(report) {
  return (report.testResults ?? []).flatMap((file) => (file.assertionResults ?? []).filter((a) => a.status === 'failed')
    .map((a) => `${ file.name.replace(`${ process.cwd() }/`, '') } › ${ a.fullName }: ${ firstLine(a.failureMessages?.[0]) }`));
}

function skipReasons(report) {
  const reasons = new Map();

  for (const test of playwrightTests(report.suites)) {
    if (test.status !== 'skipped') {
      continue;
    }
    const annotations = [...(test.annotations ?? []), ...(test.results ?? []).flatMap((r) => r.annotations ?? [])];
    const reason = annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description || 'no reason given';

    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }

  return [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${ n } ${ reason }`);
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    // A runner whose report is gone must not vanish from the count.
    console.log(`no report ${ file }: counted as one failure`); // eslint-disable-line no-console
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  let counts;

  if ('numPassedTests' in report) { // jest
    counts = [report.numPassedTests, report.numFailedTests, report.numPendingTests, [], jestFailures(report)];
  } else if (report.stats) { // playwright
    counts = [report.stats.expected + report.stats.flaky, report.stats.unexpected, report.stats.skipped, skipReasons(report), playwrightFailures(report.suites)];
  } else if (Array.isArray(report.uncovered)) { // tests/conformance/coverage.ts: one check
    counts = [report.uncovered.length ? 0 : 1, report.uncovered.length ? 1 : 0, 0, report.uncovered.map((u) => `not recorded: ${ u.kind }`), []];
  } else {
    continue;
  }
  const [p, f, s, reasons, failures] = counts;

  passed += p;
  failed += f;
  skipped += s;
  // eslint-disable-next-line no-console
  console.log(`${ file }: ${ p } passed, ${ f } failed, ${ s } skipped${ reasons.length ? ` (${ reasons.join('; ') })` : '' }`);
  failures.forEach((failure) => console.log(`  FAILED ${ failure }`)); // eslint-disable-line no-console
}

console.log(`tests: ${ passed } passed, ${ failed } failed, ${ skipped } skipped`); // eslint-disable-line no-console
process.exit(failed ? 1 : 0);
