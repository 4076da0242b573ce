// The built SDK (dist/sdk, after `npm run build`): V8's compile hint on what a first step runs, and source maps that
// still point at the right lines after it. Skipped when the SDK is not built.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
// @ts-expect-error: plain JavaScript without types
import { closure as budgetClosure, readManifest } from '../../scripts/size-budget.mjs';

const sdk = new URL('../../dist/sdk/', import.meta.url);
const HINT = '//# allFunctionsCalledOnLoad\n';

interface ManifestEntry {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

// The size budget's own reading of the build: the manifest, and a chunk's static closure.
const manifest = readManifest as () => Record<string, ManifestEntry>;
const closure = budgetClosure as (m: Record<string, ManifestEntry>, key: string, into?: Set<string>) => Set<string>;

const read = (file: string) => readFileSync(new URL(file, sdk), 'utf8');
const mappings = (file: string) => (JSON.parse(read(`${file}.map`)) as { mappings: string }).mappings;

test('what a first step runs carries the compile hint on its first line, and its map starts a line lower', (t) => {
  if (!existsSync(new URL('ramp-widget.js', sdk))) return t.skip('not built (npm run build)');
  const m = manifest();
  const loader = '../src/loader.ts';
  const firstSteps = new Set<string>();
  for (const key of [loader, ...(m[loader]!.dynamicImports ?? [])]) closure(m, key, firstSteps);
  assert.ok(firstSteps.size >= 9, `the loader, boot, core and the seven tags' chunks at least: ${[...firstSteps].join(', ')}`);
  for (const file of firstSteps) {
    assert.ok(read(file).startsWith(HINT), `${file} starts with the hint`);
    // The hint is a line of its own that maps to nothing: the mappings begin with an empty line.
    assert.ok(mappings(file).startsWith(';'), `${file}.map accounts for the hint's line`);
    assert.ok(!mappings(file).startsWith(';;'), `${file}.map moved one line, not two`);
  }
});

test('the steps loaded later stay lazy: no hint, maps unmoved', (t) => {
  if (!existsSync(new URL('ramp-widget.js', sdk))) return t.skip('not built (npm run build)');
  const m = manifest();
  const later = Object.entries(m).filter(([key]) => /\/(kyc-steps|session-renewal)\.ts$/.test(key));
  assert.equal(later.length, 2, 'the KYC steps and the session renewal are chunks of their own');
  for (const [, { file }] of later) {
    assert.ok(!read(file).startsWith(HINT), `${file} is compiled as it is called`);
    assert.ok(!mappings(file).startsWith(';'), `${file}.map is as the bundler wrote it`);
  }
});

/** The line of the source that the built `file` maps the first occurrence of `needle` to. */
function sourceLineOf(file: string, needle: string): string {
  const code = read(file).split('\n');
  const line = code.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} is in ${file}`);
  const map = new TraceMap(read(`${file}.map`));
  const at = originalPositionFor(map, { line: line + 1, column: code[line]!.indexOf(needle) });
  assert.ok(at.source && at.line, `${file}: ${needle} maps to a source`);
  const index = map.sources.indexOf(at.source);
  return map.sourcesContent![index]!.split('\n')[at.line - 1]!;
}

test('a name in the built loader and in a hinted chunk maps to its own line of the source', (t) => {
  if (!existsSync(new URL('ramp-widget.js', sdk))) return t.skip('not built (npm run build)');
  // The loader's names after the preload map the build writes into its one line, and before it.
  for (const needle of ['closest(', 'modulepreload', 'MutationObserver(', 'customElements.whenDefined(', 'import(`./widget-']) {
    const name = needle.replace(/[(`]|\.\/widget-/g, '');
    assert.match(sourceLineOf('ramp-widget.js', needle), new RegExp(name.replace('.', '\\.')), `ramp-widget.js: ${needle}`);
  }
  const m = manifest();
  const onboarding = m['../src/elements/onboarding.ts']!;
  const chunk = (onboarding.imports ?? []).map((key) => m[key]!.file).concat(onboarding.file).find((file) => read(file).includes('probedSession'))!;
  assert.ok(read(chunk).startsWith(HINT), `${chunk} is hinted`);
  assert.match(sourceLineOf(chunk, 'probedSession'), /probedSession/);
});
