// Size benchmark: the SDK bundle (min+gzip) as a ratio of a Lit-only bundle built the same way in the same run; fails over budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** The SDK (seven components, two languages) may weigh at most this many Lit-only bundles (min+gzip); lazy chunks per component are the next step down. */
const BUDGET_RATIO = 20;
const root = fileURLToPath(new URL('..', import.meta.url));

async function bundle(entry) {
  const outDir = mkdtempSync(join(tmpdir(), 'ramp-size-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      outDir,
      target: 'es2022',
      lib: { entry: join(root, entry), formats: ['es'], fileName: () => 'out.js' },
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
  const code = readFileSync(join(outDir, 'out.js'));
  rmSync(outDir, { recursive: true, force: true });
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const baseline = await bundle('bench/fixtures/lit-only.ts');
const sdk = await bundle('src/define.ts');
const ratio = sdk.gzip / baseline.gzip;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`lit-only baseline  ${kb(baseline.raw)} min, ${kb(baseline.gzip)} gzip`);
console.log(`ramp-widget.js     ${kb(sdk.raw)} min, ${kb(sdk.gzip)} gzip`);
console.log(`ratio              ${ratio.toFixed(2)}× the baseline (budget ${BUDGET_RATIO}×)`);
if (ratio > BUDGET_RATIO) {
  console.error('size: over budget');
  process.exit(1);
}
