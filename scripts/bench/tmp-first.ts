import { chromium } from '@playwright/test';
import { loginAs } from '../../tests/e2e/support/login';
import { networkArgs } from './network-args';

const base = 'https://localhost:8997';
const runs = Number(process.env.RUNS || 5);
const path = '/os-upgrades/c/_/channels/fleet-default/sl-micro-6.1-scale/compare?old=scale-v2.2.0-7.1-os&new=scale-v2.2.0-7.500-os';

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', ...await networkArgs(base)] });
  const times: number[] = []; const marks: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 900 }, ignoreHTTPSErrors: true });
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn); performance.setResourceTimingBufferSize(5000);');
    const page = await context.newPage();
    await loginAs(page, 'admin');
    await page.goto('/os-upgrades/c/_/channels');
    await page.locator('[data-testid="channels-table"] [data-testid="channel-link"]').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="channel-count-loading"]'));
    await page.waitForTimeout(1000);
    const cdp = process.env.PROFILE ? await context.newCDPSession(page) : undefined;
    if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 500 }); await cdp.send('Profiler.start'); }
    if (process.env.TRACE) await browser.startTracing(page, { path: `/tmp/first-${ i }.trace.json`, screenshots: false });
    const cpu = () => { const out: Record<string, number> = {}; const fs = require('fs'); for (const pid of fs.readdirSync('/proc').filter((d: string) => /^\d+$/.test(d))) { try { const stat = fs.readFileSync(`/proc/${ pid }/stat`, 'utf8'); const cmd = fs.readFileSync(`/proc/${ pid }/cmdline`, 'utf8'); const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); const t = (Number(f[11]) + Number(f[12])) * 10; const k = /emulator/.test(cmd) ? 'emulator' : /--type=renderer/.test(cmd) ? 'renderer' : /--type=utility.*network/.test(cmd) ? 'network' : /--type=gpu/.test(cmd) ? 'gpu' : /chromium/.test(cmd) ? 'browser' : /tsx|playwright|node/.test(cmd) ? 'node-other' : 'other'; out[k] = (out[k] || 0) + t; } catch {} } return out; };
    const before = cpu();
    const r = await page.evaluate((p) => new Promise<Record<string, number>>((resolve) => {
      const router = (document.querySelector('#app') as any).__vue_app__.config.globalProperties.$router;
      performance.clearMarks();
      const start = performance.now();
      const done = () => !!document.querySelector('[data-testid="image-compare"] [data-testid="package-diff"]') && !!document.querySelector('[data-testid="advisories"] [data-testid="severity-summary"], [data-testid="advisories"] [data-testid="no-advisories"]') && !document.querySelector('[data-testid="image-compare"] .loading');
      let finished = false;
      const check = () => { if (!finished && done()) { finished = true; obs.disconnect(); requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => { const out: Record<string, number> = { total: performance.now() - start }; for (const m of performance.getEntriesByType('mark')) out[m.name] = m.startTime - start;
        const groups: Record<string, PerformanceResourceTiming[]> = {};
        for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) { if (e.startTime < start) continue; const k = /\.js/.test(e.name) ? 'js' : /\.packages/.test(e.name) ? 'pkgs' : /updates\.log/.test(e.name) ? 'logs' : 'other:' + e.name.replace(/^https:\/\/[^/]+/, '').replace(/\?.*/, '').slice(0, 50); (groups[k] ||= []).push(e); }
        for (const [k, es] of Object.entries(groups)) { out[k + ' first start'] = Math.min(...es.map((e) => e.startTime)) - start; out[k + ' last end'] = Math.max(...es.map((e) => e.responseEnd)) - start; out[k + ' n'] = es.length; }
        resolve(out); }; ch.port2.postMessage(0); }); } };
      const obs = new MutationObserver(check);
      obs.observe(document.body, { childList: true, subtree: true, attributes: true });
      router.push(p).then(check);
    }), path);
    if (cdp) { const { profile } = await cdp.send('Profiler.stop'); require('fs').writeFileSync(`/tmp/first-${ i }.cpuprofile`, JSON.stringify(profile)); }
    if (process.env.TRACE) await browser.stopTracing();
    const after = cpu(); for (const k of Object.keys(after)) r['cpu ' + k] = after[k] - (before[k] || 0);
    times.push(r.total);
    for (const [k, v] of Object.entries(r)) (marks[k] ||= []).push(v);
    console.log(`run ${ i }: ${ r.total.toFixed(0) } ms`);
    await context.close();
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  for (const [k, v] of Object.entries(marks).sort((a, b) => med(a[1]) - med(b[1]))) console.log(k.padEnd(28), 'median', med(v).toFixed(0));
  await browser.close();
}
main();
