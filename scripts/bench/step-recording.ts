/**
 * What the bench keeps of one measured step, shared by browser.ts and pages.ts: its request
 * waterfall (<label>.waterfall.json), and under the profiler also a CPU profile
 * (<label>.cpuprofile, DevTools' Profiler, 200 µs sampling) and a Chromium trace
 * (<label>.trace.json); index.json in the folder sums every step up.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { CDPSession, Page } from '@playwright/test';
import { recordWaterfall, WaterfallSummary } from './waterfall';
import { CpuProfile, CpuSummary, summarizeProfile } from './cpu-profile';

export interface RecordedStep {
  ms?: number;
  waterfall?: WaterfallSummary;
  cpu?: CpuSummary;
}

/** Where the files go, and what each step's files said so far (for index.json). */
export interface Recorder {
  dir: string;
  steps: Record<string, RecordedStep>;
}

/** The step's time, when `work` resolves with one (a number, or an object with `ms`). */
function stepMs(result: unknown): number | undefined {
  if (typeof result === 'number') {
    return result;
  }

  return typeof (result as { ms?: unknown } | undefined)?.ms === 'number' ? (result as { ms: number }).ms : undefined;
}

/** Runs `work` recording its requests: <label>.waterfall.json. */
export async function withWaterfall<T>(recorder: Recorder, cdp: CDPSession, label: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(recorder.dir, { recursive: true });
  const recording = await recordWaterfall(cdp);
  const result = await work();
  const waterfall = await recording.stop();

  writeFileSync(join(recorder.dir, `${ label }.waterfall.json`), `${ JSON.stringify(waterfall, null, 1) }\n`);
  recorder.steps[label] = {
    ...recorder.steps[label], ms: stepMs(result), waterfall: waterfall.summary
  };

  return result;
}

/** Runs `work` under the CPU profiler, a Chromium trace and the request recorder. */
export async function profiled<T>(recorder: Recorder, page: Page, cdp: CDPSession, label: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(recorder.dir, { recursive: true });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.context().browser()?.startTracing(page, { path: join(recorder.dir, `${ label }.trace.json`), screenshots: false });
  await cdp.send('Profiler.start');
  const result = await withWaterfall(recorder, cdp, label, work);
  const { profile } = await cdp.send('Profiler.stop');

  await page.context().browser()?.stopTracing();
  writeFileSync(join(recorder.dir, `${ label }.cpuprofile`), JSON.stringify(profile));
  recorder.steps[label] = { ...recorder.steps[label], cpu: summarizeProfile(profile as unknown as CpuProfile) };

  return result;
}

/** index.json in the folder (the steps of earlier runs kept, these replacing theirs); one line per step logged. */
export function writeProfileIndex(recorder: Recorder, log: (message: string) => void): void {
  const previous = (() => {
    try {
      return JSON.parse(readFileSync(join(recorder.dir, 'index.json'), 'utf8')) as { steps?: Record<string, RecordedStep> };
    } catch {
      return {};
    }
  })();

  mkdirSync(recorder.dir, { recursive: true });
  writeFileSync(join(recorder.dir, 'index.json'), `${ JSON.stringify({ date: new Date().toISOString(), steps: { ...previous.steps, ...recorder.steps } }, null, 2) }\n`);
  for (const [label, step] of Object.entries(recorder.steps)) {
    const requests = step.waterfall ? `${ step.waterfall.requests } requests, ${ Math.round(step.waterfall.bytes / 1024) } kB, network busy ${ Math.round(step.waterfall.busyMs) } ms, at most ${ step.waterfall.maxInFlight } at once` : '';
    const cpu = step.cpu ? `; CPU: ${ step.cpu.top.slice(0, 3).map((entry) => `${ entry.name } ${ entry.selfMs.toFixed(1) } ms`).join(', ') }, native ${ step.cpu.programMs.toFixed(0) } ms, GC ${ step.cpu.gcMs.toFixed(0) } ms` : '';

    log(`${ label }: ${ step.ms === undefined ? '' : `${ Math.round(step.ms) } ms; ` }${ requests }${ cpu }`);
  }
  log(`profiles, traces and waterfalls in ${ recorder.dir }/`);
}
