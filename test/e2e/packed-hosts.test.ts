// The package partners install with a bundler (packages/elements, `ramp-elements`): `npm pack` builds it (prepack) and
// packs the browser library with its types and manifest, nothing of the server; a React 19 host (.tsx) and a Vue 3 host
// type-check strictly against the shipped typings (JSX.IntrinsicElements, GlobalComponents: every tag, property and
// event of custom-elements.json; a wrong prop fails) and build with Vite from the installed package alone.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ramp-packed-'));
const project = join(tmp, 'host');
const installed = join(project, 'node_modules/ramp-elements');

/** What a host needs besides the package and the package's own dependencies, from this repo's node_modules. */
const hostModules = ['react', 'react-dom', '@types/react', 'vue'];

let files: string[] = [];
let manifest: { modules: { declarations?: { tagName?: string; attributes?: { fieldName: string }[]; members?: { kind: string; name: string }[]; events?: { name: string }[] }[] }[] };
let tags: { tag: string; fields: string[]; events: string[] }[] = [];

before(async () => {
  // prepack builds first (`npm run build` at the root), as it would before a publish.
  await run('npm', ['pack', '--pack-destination', tmp], { cwd: join(root, 'packages/elements'), maxBuffer: 64 * 1024 * 1024 });
  const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote no tarball');
  files = (await run('tar', ['-tzf', join(tmp, tarball)])).stdout.split('\n').filter(Boolean);
  await run('tar', ['-xzf', join(tmp, tarball), '-C', tmp]);
  mkdirSync(dirname(installed), { recursive: true });
  renameSync(join(tmp, 'package'), installed);
  // Only what the package declares (and the host's frameworks) is installed: an undeclared import fails the build.
  const declared = Object.keys((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  for (const name of [...declared, ...hostModules]) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
  manifest = JSON.parse(readFileSync(join(installed, 'custom-elements.json'), 'utf8'));
  tags = manifest.modules.flatMap((m) =>
    (m.declarations ?? [])
      .filter((d) => d.tagName)
      .map((d) => ({
        tag: d.tagName!,
        fields: [...new Set([...(d.attributes ?? []).map((a) => a.fieldName), ...(d.members ?? []).filter((x) => x.kind === 'field').map((x) => x.name)])],
        events: (d.events ?? []).map((e) => e.name),
      })),
  );
  assert.ok(tags.length >= 7, `the manifest lists ${tags.length} tags`);
});

after(() => rmSync(tmp, { recursive: true, force: true }));

/** The package names a file imports (`lit/decorators.js` → `lit`, `@lit/task` → `@lit/task`). */
function packagesImported(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[\w.-]+)*)["']/g)].map((m) => m[1]!);
  return specifiers.map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
}

const camel = (event: string) => event.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase());

describe('the packed ramp-elements', () => {
  test('holds the built library, its types and manifest, and nothing of the server, the tests or the data', () => {
    const allowed = /^package\/(package\.json|README\.md|LICENSE|custom-elements\.json|dist\/lib\/.+)$/;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), []);
    for (const needed of ['index.js', 'define.js', 'widget.js', 'quote.js', 'types/index.d.ts', 'types/jsx/react.d.ts', 'types/jsx/vue.d.ts']) {
      assert.ok(files.includes(`package/dist/lib/${needed}`), `no dist/lib/${needed}`);
    }
    assert.deepEqual(files.filter((f) => /(^|\/)(server|test|\.env[^/]*|\.ramp-data|migrations)(\/|$)|\.sql$/.test(f.slice('package/'.length))), []);
  });

  test('declares every package its code and types import, at the versions the repository builds with', () => {
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string; private?: boolean; dependencies: Record<string, string> };
    const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
    assert.equal(pkg.private, undefined);
    assert.equal(pkg.version, rootPkg.version);
    const imported = new Set<string>();
    for (const f of files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
      for (const name of packagesImported(readFileSync(join(installed, f.slice('package/'.length)), 'utf8'))) imported.add(name);
    }
    // React and Vue: only the opt-in typing entries name them, for hosts that have them.
    const undeclared = [...imported].filter((name) => !(name in pkg.dependencies) && !['react', 'vue'].includes(name));
    assert.deepEqual(undeclared, []);
    for (const [name, range] of Object.entries(pkg.dependencies)) assert.equal(range, rootPkg.dependencies[name], `${name}: ${range} here, ${rootPkg.dependencies[name]} at the root`);
  });

  test('a React 19 host and a Vue 3 host type-check strictly against the shipped typings, and a wrong prop fails', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          // The package's own declarations are checked too (an import they cannot resolve is an error, not `any`).
          skipLibCheck: false,
          types: [],
        },
        include: ['src'],
      }),
    );
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src/react-host.tsx'), reactHost());
    writeFileSync(join(project, 'src/vue-host.ts'), vueHost());
    // @types/react-dom is not installed here: the one function the host calls.
    writeFileSync(join(project, 'src/react-dom.d.ts'), "declare module 'react-dom/client' { export function createRoot(container: Element): { render(node: import('react').ReactNode): void }; }\n");
    const tsc = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project]).catch((e: { stdout: string; stderr: string }) => e);
    assert.equal(`${tsc.stdout}${tsc.stderr}`.trim(), '');
  });

  test('both hosts build with Vite from the installed package', async () => {
    for (const host of ['react-host.tsx', 'vue-host.ts']) {
      const entry = join(project, 'src', host);
      await build({
        configFile: false,
        logLevel: 'silent',
        publicDir: false,
        root: project,
        define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
        oxc: { jsx: { runtime: 'automatic' } },
        build: { outDir: join(tmp, 'out'), emptyOutDir: true, lib: { entry, formats: ['es'], fileName: () => 'host.js' }, minify: true },
      });
      const bundle = readFileSync(join(tmp, 'out/host.js'), 'utf8');
      // Everything bundled (no import left for a browser to resolve), every tag defined.
      assert.deepEqual(packagesImported(bundle), [], host);
      for (const { tag } of tags) assert.ok(bundle.includes(tag), `${host}: ${tag} is not in the bundle`);
    }
  });
});

/** Type-level: `true` only when `K` is a key of `T`. */
const hasType = 'type Has<T, K extends PropertyKey> = K extends keyof T ? true : false;';

function reactHost(): string {
  const covered = tags.flatMap(({ tag, fields, events }) => [...fields, ...events.map((e) => `on${e}`)].map((k) => `Has<JSX.IntrinsicElements['${tag}'], '${k}'>`));
  return `import 'ramp-elements/define';
import 'ramp-elements/react';
import type { JSX } from 'react';
import { useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { RampQuote, RampQuoteLockedEvent } from 'ramp-elements';

${hasType}
// Every property and event of every tag in the manifest.
export const covered: [${covered.join(', ')}] = [${covered.map(() => 'true').join(', ')}];

function Host({ session }: { session: string }) {
  const quote = useRef<RampQuote>(null);
  return (
    <>
      <ramp-quote ref={quote} session={session} direction="sell" amount="100" hideDirection onramp-error={(e) => console.log(e.detail.code)} onramp-quote-locked={(e: RampQuoteLockedEvent) => console.log(e.detail.exchangeRateId)} />
      <ramp-widget session={session} sandbox={false} theme="dark" lang="pt-BR" onramp-session-expired={(e) => e.preventDefault()} onramp-transaction-created={(e) => console.log(e.detail.id)} />
      <ramp-pix-checkout session={session} sandbox quote={undefined} pollInterval={2000} className="checkout" />
      ${tags.map(({ tag }) => `<${tag} session={session} />`).join('\n      ')}
      {/* @ts-expect-error \`direction\` is 'buy' or 'sell' */}
      <ramp-quote direction="sideways" />
      {/* @ts-expect-error \`sandbox\` is a boolean */}
      <ramp-widget sandbox="yes" />
      {/* @ts-expect-error ramp-error's detail has no \`nope\` */}
      <ramp-offramp onramp-error={(e) => e.detail.nope} />
    </>
  );
}

createRoot(document.getElementById('app')!).render(<Host session="token" />);
`;
}

function vueHost(): string {
  const covered = tags.flatMap(({ tag, fields, events }) => [...fields, ...events.map((e) => `on${camel(e)}`)].map((k) => `Has<Props<'${tag}'>, '${k}'>`));
  return `import 'ramp-elements/define';
import 'ramp-elements/vue';
import { createApp, defineComponent, h, type GlobalComponents } from 'vue';

type Props<T extends keyof GlobalComponents> = InstanceType<GlobalComponents[T]>['$props'];
${hasType}
// Every property and event of every tag in the manifest.
export const covered: [${covered.join(', ')}] = [${covered.map(() => 'true').join(', ')}];

const quote: Props<'ramp-quote'> = { session: 'token', direction: 'sell', amount: '100', hideDirection: true, onRampError: (e) => console.log(e.detail.code) };
const widget: Props<'ramp-widget'> = { session: 'token', sandbox: true, onRampQuoteLocked: (e) => console.log(e.detail.exchangeRateId) };
// @ts-expect-error \`direction\` is 'buy' or 'sell'
export const sideways: Props<'ramp-quote'> = { direction: 'sideways' };
// @ts-expect-error \`sandbox\` is a boolean
export const yes: Props<'ramp-widget'> = { sandbox: 'yes' };

createApp(defineComponent({ render: () => [h('ramp-quote', quote), h('ramp-widget', widget)] })).mount('#app');
`;
}
