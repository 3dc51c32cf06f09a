/**
 * Benchmarks of the domain core on synthetic data:
 *   node_modules/.bin/tsx scripts/bench/domain.ts
 * Prints a table and writes bench/results/domain.json.
 */
import { mkdirSync, writeFileSync } from 'fs';
import { cpus, loadavg } from 'os';
import { resolve } from 'path';
import { performance } from 'perf_hooks';
import {
  aggregateChangelog, diffPackages, OSVersion, packageDiffToUnified, parsePackageList, parseUpdateLog, resolveSelector, toOSVersion, UpdateLogs
} from '../../pkg/os-upgrades/domain';
import { toManagedOSVersion } from '../../tests/support/fixtures';
import { syntheticChannelEntries, syntheticPackageList, syntheticUpdateLog } from '../../tests/support/synthetic';

const WARMUP_RUNS = 20;
const RUNS = 100;
const START = 1700000000;
const HOUR = 3600;

interface Case {
  name: string;
  /** Milliseconds per call the median must stay under, when there is a target. */
  targetMs?: number;
  /** Builds the case's data (not timed) and returns the call to time. */
  setup: () => () => unknown;
}


interface Result {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  /** CPU time of this process per call: less sensitive than wall time to other processes. */
  cpuMedianMs: number;
  targetMs?: number;
  pass?: boolean;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function measure(benchCase: Case): Result {
  const run = benchCase.setup();

  for (let i = 0; i < WARMUP_RUNS; i++) {
    run();
  }
  const times: number[] = [];
  const cpuTimes: number[] = [];

  for (let i = 0; i < RUNS; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();

    run();
    times.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);

    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const result: Result = {
    name: benchCase.name, runs: RUNS, medianMs: percentile(times, 0.5), p95Ms: percentile(times, 0.95), minMs: times[0], cpuMedianMs: percentile(cpuTimes, 0.5),
  };

  if (benchCase.targetMs !== undefined) {
    result.targetMs = benchCase.targetMs;
    result.pass = result.medianMs < benchCase.targetMs;
  }

  return result;
}

/** 10,000 versions: 5 channels of 2,000 container images, one a day. */
function manyVersions(): OSVersion[] {
  const versions: OSVersion[] = [];

  for (let channel = 0; channel < 5; channel++) {
    const entries = syntheticChannelEntries({
      count: 2000, prefix: `c${ channel }`, baseVersion: `2.${ channel }.0`, startCreated: START, stepSeconds: 24 * HOUR, displayName: 'SL Micro',
    });

    versions.push(...entries.map((entry) => toOSVersion(toManagedOSVersion(entry, { channel: `channel-${ channel }` }))));
  }

  return versions;
}

/** A 501-version channel with 40 advisories per image: a 500-version span of 20,000 advisories. */
function changelogData(): { versions: OSVersion[]; logs: UpdateLogs; from: string; to: string } {
  const entries = syntheticChannelEntries({
    count: 501, prefix: 'base', startCreated: START, stepSeconds: 24 * HOUR, displayName: 'SL Micro'
  });
  const logs: UpdateLogs = {};

  for (const entry of entries) {
    const created = entry.spec.metadata.created as number;

    // Each log repeats some older advisories, as the producer may.
    logs[entry.metadata.name] = parseUpdateLog(syntheticUpdateLog(entry.metadata.name, {
      count: 40, seed: entry.metadata.name, after: created - 3 * 24 * HOUR, before: created
    }));
  }

  return {
    versions: entries.map((entry) => toOSVersion(toManagedOSVersion(entry, { channel: 'base' }))),
    logs,
    from:     entries[entries.length - 1].metadata.name,
    to:       entries[0].metadata.name,
  };
}

function print(line: string): void {
  process.stdout.write(`${ line }\n`);
}

function main(): void {
  const now = START + 2000 * 24 * HOUR;
  const cases: Case[] = [
    {
      name:     'resolveSelector, 10000 versions',
      targetMs: 5,
      setup:    () => {
        const versions = manyVersions();
        const selector = {
          channel: 'channel-2', version: '>=2.2.0 <2.3.0', platform: 'linux/aarch64', minAgeHours: 24
        };

        return () => resolveSelector(selector, versions, now);
      },
    },
    {
      name:     'diffPackages, 5000 vs 5000 packages',
      targetMs: 5,
      setup:    () => {
        const older = parsePackageList(syntheticPackageList(5000, 'bench', 100));
        const newer = parsePackageList(syntheticPackageList(5000, 'bench', 140));

        return () => diffPackages(older, newer);
      },
    },
    {
      name:     'aggregateChangelog, 500-version span, 20000 advisories',
      targetMs: 50,
      setup:    () => {
        const data = changelogData();

        return () => aggregateChangelog(data.versions, data.from, data.to, data.logs);
      },
    },
    {
      name:     'aggregateChangelog with package evidence, 500-version span, 20000 advisories, 5000 packages',
      targetMs: 50,
      setup:    () => {
        const data = changelogData();
        const packages = {
          [data.from]: parsePackageList(syntheticPackageList(5000, 'bench', 100)),
          [data.to]:   parsePackageList(syntheticPackageList(5000, 'bench', 140)),
        };

        return () => aggregateChangelog(data.versions, data.from, data.to, data.logs, packages);
      },
    },
    {
      name:  'parsePackageList, 5000 lines',
      setup: () => {
        const text = syntheticPackageList(5000, 'bench', 140);

        return () => parsePackageList(text);
      },
    },
    {
      name:  'packageDiffToUnified, 5000 packages',
      setup: () => {
        const diff = diffPackages(parsePackageList(syntheticPackageList(5000, 'bench', 100)), parsePackageList(syntheticPackageList(5000, 'bench', 140)));

        return () => packageDiffToUnified(diff, 'old', 'new');
      },
    },
    {
      // 20,000 advisories would pass MAX_UPDATE_LOG_BYTES: the largest log is bytes-bound.
      name:  'parseUpdateLog, 8000 advisories (about 4.8 MiB)',
      setup: () => {
        const text = syntheticUpdateLog('big', {
          count: 8000, seed: 1, after: START, before: now
        });

        return () => parseUpdateLog(text);
      },
    },
  ];
  const results = cases.map(measure);

  print(`load average ${ loadavg().map((load) => load.toFixed(2)).join(' ') } on ${ cpus().length } CPUs (wall times need an idle machine)`);
  print(`${ 'case'.padEnd(56) } ${ 'median ms'.padStart(10) } ${ 'p95 ms'.padStart(9) } ${ 'min ms'.padStart(9) } ${ 'cpu med'.padStart(9) } ${ 'target'.padStart(8) }`);
  for (const result of results) {
    const target = result.targetMs === undefined ? '' : `${ result.pass ? '<' : 'NOT <' } ${ result.targetMs }`;

    print(`${ result.name.padEnd(56) } ${ result.medianMs.toFixed(3).padStart(10) } ${ result.p95Ms.toFixed(3).padStart(9) } ${ result.minMs.toFixed(3).padStart(9) } ${ result.cpuMedianMs.toFixed(3).padStart(9) } ${ target.padStart(8) }`);
  }

  const outputDir = resolve(__dirname, '../../bench/results');

  mkdirSync(outputDir, { recursive: true });
  writeFileSync(resolve(outputDir, 'domain.json'), `${ JSON.stringify({
    // Timings are only comparable on an idle machine: the load average says how idle it was.
    node: process.version, cpus: cpus().length, loadAverage: loadavg(), date: new Date().toISOString(), warmupRuns: WARMUP_RUNS, results
  }, null, 2) }\n`);
  print(`\nwrote ${ resolve(outputDir, 'domain.json') }`);
  if (results.some((result) => result.pass === false)) {
    process.exitCode = 1;
  }
}

main();
