// Size benchmark: what a partner page downloads for the first onboarding step (the loader, its chunks and one language's
// core messages, min+gzip) as a ratio of a Lit-only bundle built in the same run, plus every budget of
// scripts/size-budget.mjs. Builds the SDK first when dist/sdk is missing.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** The first step may weigh at most this many Lit-only bundles (it was 99 kB of monolith, ~15×, before the loader). */
const BUDGET_RATIO = 6;
const root = fileURLToPath(new URL('..', import.meta.url));

async function litOnly() {
  const outDir = mkdtempSync(join(tmpdir(), 'ramp-size-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      outDir,
      target: 'es2022',
      lib: { entry: join(root, 'bench/fixtures/lit-only.ts'), formats: ['es'], fileName: () => 'out.js' },
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
  const code = readFileSync(join(outDir, 'out.js'));
  rmSync(outDir, { recursive: true, force: true });
  return gzipSync(code, { level: 9 }).length;
}

if (!existsSync(join(root, 'dist/sdk/.vite/manifest.json'))) execSync('npx vite build', { cwd: root, stdio: 'inherit' });
const { measure } = await import('../scripts/size-budget.mjs');
const baseline = await litOnly();
const sizes = measure();
const firstStep = Math.max(...sizes.firstStep.map((f) => f.size));
const ratio = firstStep / baseline;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`lit-only baseline            ${kb(baseline)} gzip`);
console.log(`loader (/sdk/ramp-widget.js) ${kb(sizes.loader)} gzip`);
console.log(`loader + first step          ${kb(firstStep)} gzip, ${ratio.toFixed(2)}× the baseline (budget ${BUDGET_RATIO}×)`);
for (const c of sizes.components) console.log(`<ramp-${c.name}>`.padEnd(29) + `${kb(c.own)} own chunk`);
execSync('node scripts/size-budget.mjs', { cwd: root, stdio: 'inherit' });
if (ratio > BUDGET_RATIO) {
  console.error('size: over budget');
  process.exit(1);
}
