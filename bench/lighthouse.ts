// Lighthouse on the demo page as a phone sees it (Lighthouse's default mobile run: Moto G Power viewport, simulated
// slow 4G and 4× CPU): the performance score and the cumulative layout shift, against issue 13's targets (score ≥ 95,
// CLS < 0.05). The median run of RUNS is kept, as Lighthouse advises for a noisy machine. Writes
// bench/lighthouse.json (the figures) beside bench/results.json. Needs `npm run build` (npm run bench does).
import { writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { startServer } from '../test/e2e/support';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const TARGET = { score: 95, cls: 0.05 };

interface Run {
  score: number;
  cls: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
}

const chromePath = findChromium();
if (!chromePath) throw new Error('No Chromium found: run `node scripts/ensure-chromium.mjs` or set CHROME_PATH.');

const ramp = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--lang=en-US'],
});
const runs: Run[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(`${ramp.url}/`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
    const num = (id: string) => Number(audits[id]?.numericValue ?? Number.NaN);
    runs.push({
      score: Math.round((categories.performance?.score ?? 0) * 100),
      cls: num('cumulative-layout-shift'),
      lcpMs: num('largest-contentful-paint'),
      fcpMs: num('first-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      speedIndexMs: num('speed-index'),
    });
  }
} finally {
  await chrome.kill();
  await ramp.stop();
}

const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!;
const worstCls = Math.max(...runs.map((r) => r.cls));
const ok = (pass: boolean) => (pass ? 'met' : 'MISSED');
console.log(`Lighthouse mobile, demo page (median of ${RUNS} runs; scores ${runs.map((r) => r.score).join(', ')})`);
console.log(`  performance ${median.score} (target ≥ ${TARGET.score}: ${ok(median.score >= TARGET.score)})`);
console.log(`  CLS ${median.cls.toFixed(3)}, worst ${worstCls.toFixed(3)} (target < ${TARGET.cls}: ${ok(worstCls < TARGET.cls)})`);
console.log(`  FCP ${median.fcpMs.toFixed(0)} ms, LCP ${median.lcpMs.toFixed(0)} ms, TBT ${median.tbtMs.toFixed(0)} ms, Speed Index ${median.speedIndexMs.toFixed(0)} ms`);
writeFileSync(
  new URL('./lighthouse.json', import.meta.url),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), runs, median, worstCls, target: TARGET }, null, 2)}\n`,
);
