// Runtime dependencies are exactly what runs: the packages the server's bundles (the server, its tracing preload, the
// operator CLI) and the browser sources import. A production install without devDependencies (`npm ci --omit=dev`)
// then starts the server and runs `npm run ops`; a test-only package among the dependencies is caught too.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };

/** The package a bare import names (`@scope/name/sub` → `@scope/name`); undefined for Node's own modules. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!)) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The packages `entries` import, at any depth through our own files (packages left external, as the bundles do). */
async function packagesImported(entries: string[]): Promise<Set<string>> {
  const result = await build({
    entryPoints: entries.map((e) => join(root, e)),
    bundle: true,
    write: false,
    outdir: '/nonexistent',
    platform: entries.some((e) => e.startsWith('src/')) ? 'browser' : 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
    tsconfig: join(root, 'tsconfig.json'),
  });
  const found = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const i of output.imports) {
      const name = i.external ? packageOf(i.path) : undefined;
      if (name) found.add(name);
    }
  }
  return found;
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath ?? e.path, e.name).slice(root.length));

test('the server, its tracing preload and the operator CLI import only runtime dependencies', async () => {
  const server = await packagesImported(['server/main.ts', 'server/tracing-preload.ts', 'server/ops/main.ts']);
  const missing = [...server].filter((p) => !(p in pkg.dependencies)).sort();
  assert.deepEqual(missing, [], 'imported by the server but not in dependencies (a production install would not have them)');
});

/** Packages the server finds at run time by name rather than imports (`require.resolve('swagger-ui-dist/package.json')`: files it serves). */
const resolvedByName = (): string[] =>
  sourceFiles('server').flatMap((f) => [...readFileSync(join(root, f), 'utf8').matchAll(/(?:require|import\.meta)\.resolve\('([^']+)'\)/g)].map((m) => packageOf(m[1]!)!).filter(Boolean));

test('every runtime dependency is imported by the server or the browser sources; the rest are devDependencies', async () => {
  const used = new Set([...(await packagesImported(['server/main.ts', 'server/tracing-preload.ts', 'server/ops/main.ts'])), ...(await packagesImported(sourceFiles('src'))), ...resolvedByName()]);
  const unused = Object.keys(pkg.dependencies).filter((d) => !used.has(d)).sort();
  assert.deepEqual(unused, [], 'in dependencies but imported by nothing that runs: move to devDependencies');
  const browserMissing = [...(await packagesImported(sourceFiles('src')))].filter((p) => !(p in pkg.dependencies)).sort();
  assert.deepEqual(browserMissing, [], 'imported by the browser sources (kept external by the library build) but not in dependencies');
});

test('npm start and npm run ops run the bundles with plain node: no TypeScript loader in production', () => {
  for (const script of ['start', 'ops']) {
    assert.doesNotMatch(pkg.scripts[script]!, /tsx|ts-node/, `${script}: ${pkg.scripts[script]}`);
    assert.match(pkg.scripts[script]!, /dist\/server\/\w+\.js/, script);
  }
});
