// Size budgets of the built SDK (dist/sdk, after `npm run build`), from Vite's manifest of which chunk imports which.
// Fails (exit 1) when the loader, the first onboarding step or any one component's own chunk weighs more than allowed.
// `--markdown` prints the table docs/embedding.md reports (Sizes).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGETS = {
  /** /sdk/ramp-widget.js and what it imports statically: what every partner page downloads first. */
  loader: 8 * 1024,
  /** The loader plus everything the first onboarding step needs to render (code and one language's messages). */
  firstStep: 34 * 1024,
  /** Any one component's own chunk (shared chunks such as lit and the client not counted). */
  component: 20 * 1024,
  /**
   * Files the first onboarding step fetches, the loader included: each costs a throttled phone's main thread a
   * request to issue and a task to compile (vite.config.ts: the `core` and `forms` chunks).
   */
  firstStepFiles: 6,
};

const sdk = fileURLToPath(new URL('../dist/sdk/', import.meta.url));
const LOADER = '../src/loader.ts';
const ELEMENT = /^\.\.\/src\/elements\/([\w-]+)\.ts$/;
const locales = ['en', 'pt-BR', 'es'];

/** gzip size of each built file, measured once. */
const gzipCache = new Map();
function gzipSize(file) {
  let size = gzipCache.get(file);
  if (size === undefined) gzipCache.set(file, (size = gzipSync(readFileSync(sdk + file), { level: 9 }).length));
  return size;
}

/** A chunk and everything it imports statically (what the browser fetches before the chunk runs), as file names. */
export function closure(manifest, key, into = new Set()) {
  const entry = manifest[key];
  if (!entry) throw new Error(`size-budget: ${key} is not in the build manifest`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const dep of entry.imports ?? []) closure(manifest, dep, into);
  return into;
}

/** Vite's manifest of the built SDK: which chunk imports which, by source key (`../src/loader.ts`). */
export function readManifest() {
  return JSON.parse(readFileSync(`${sdk}.vite/manifest.json`, 'utf8'));
}

const total = (files) => [...files].reduce((sum, file) => sum + gzipSize(file), 0);

export function measure() {
  const manifest = readManifest();
  const loader = closure(manifest, LOADER);
  // The components are what the loader imports on demand, one chunk per tag (some shared with a component that nests it);
  // the loader also imports the i18n chunk on demand (see src/loader.ts), which every component imports anyway.
  const components = (manifest[LOADER].dynamicImports ?? []).filter((key) => !key.startsWith('../src/i18n/')).map((key) => {
    const entry = manifest[key];
    const name = ELEMENT.exec(key)?.[1] ?? entry.name;
    return { name, file: entry.file, own: gzipSize(entry.file), withShared: total(closure(manifest, key, new Set(loader))) };
  });
  const expected = readdirSync(fileURLToPath(new URL('../src/elements/', import.meta.url))).filter((f) => f !== 'define-once.ts').length;
  if (components.length !== expected) throw new Error(`size-budget: the loader imports ${components.length} component chunks, src/elements has ${expected}`);
  const firstStep = locales.map((locale) => {
    const files = closure(manifest, '../src/elements/onboarding.ts', new Set(loader));
    closure(manifest, `../src/i18n/messages/${locale}/core.ts`, files);
    // What the loader imports on demand for any tag: the chunk that loads the element's messages.
    for (const key of manifest[LOADER].dynamicImports ?? []) if (key.startsWith('../src/i18n/')) closure(manifest, key, files);
    return { locale, size: total(files), files: [...files] };
  });
  return { loader: total(loader), loaderFiles: [...loader], firstStep, components };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

function main() {
  const m = measure();
  const failures = [];
  if (m.loader > BUDGETS.loader) failures.push(`loader ${kb(m.loader)} > ${kb(BUDGETS.loader)}`);
  // A static import would cost the page a round trip before the loader runs and asks for the component.
  if (m.loaderFiles.length !== 1) failures.push(`the loader imports ${m.loaderFiles.slice(1).join(', ')} statically: it must import on demand only`);
  for (const f of m.firstStep) if (f.size > BUDGETS.firstStep) failures.push(`first onboarding step (${f.locale}) ${kb(f.size)} > ${kb(BUDGETS.firstStep)}`);
  for (const f of m.firstStep) if (f.files.length > BUDGETS.firstStepFiles) failures.push(`first onboarding step (${f.locale}) fetches ${f.files.length} files > ${BUDGETS.firstStepFiles}: ${f.files.join(', ')}`);
  for (const c of m.components) if (c.own > BUDGETS.component) failures.push(`<ramp-${c.name}> chunk ${kb(c.own)} > ${kb(BUDGETS.component)}`);
  // A chunk that lost its `defineOnce('ramp-…')` (tree-shaken as side-effect free, say) would load and define nothing.
  for (const c of m.components) {
    if (!new RegExp(`[\`'"]ramp-${c.name}[\`'"]`).test(readFileSync(sdk + c.file, 'utf8'))) failures.push(`<ramp-${c.name}> chunk does not define its tag`);
  }

  if (process.argv.includes('--markdown')) {
    console.log('| What (gzip) | Size | Budget |\n|---|---|---|');
    console.log(`| Loader, \`/sdk/ramp-widget.js\` | ${kb(m.loader)} | ${kb(BUDGETS.loader)} |`);
    for (const f of m.firstStep) console.log(`| Loader + first onboarding step, ${f.locale} | ${kb(f.size)} | ${kb(BUDGETS.firstStep)} |`);
    for (const c of m.components) console.log(`| \`<ramp-${c.name}>\` own chunk (with loader and shared chunks) | ${kb(c.own)} (${kb(c.withShared)}) | ${kb(BUDGETS.component)} |`);
  } else {
    console.log(`loader                          ${kb(m.loader).padStart(8)}  (budget ${kb(BUDGETS.loader)}: ${m.loaderFiles.join(', ')})`);
    for (const f of m.firstStep) console.log(`loader + first step (${f.locale.padEnd(5)})    ${kb(f.size).padStart(8)}  (budget ${kb(BUDGETS.firstStep)}: ${f.files.length} files, at most ${BUDGETS.firstStepFiles})`);
    for (const c of m.components) {
      console.log(`<ramp-${c.name}>`.padEnd(32) + `${kb(c.own).padStart(8)}  own chunk (budget ${kb(BUDGETS.component)}), ${kb(c.withShared)} with the loader and shared chunks`);
    }
  }
  if (failures.length) {
    console.error(`size budget exceeded:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
