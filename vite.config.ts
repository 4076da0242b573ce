// Builds the two browser artefacts the server serves: the script-tag SDK (dist/sdk/ramp-widget.js) and the demo page (dist/demo).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { decode, encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The server the dev page talks to (`npm run dev`); `npx vite` then serves the demo with the SDK from source. */
const devServer = process.env.RAMP_DEV_SERVER ?? 'http://localhost:8787';

/** In `vite` dev only: the demo's real embed, `/sdk/ramp-widget.js`, is answered with the SDK's source entry. */
function sdkFromSource(): Plugin {
  return {
    name: 'ramp-sdk-from-source',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url?.split('?')[0] === '/sdk/ramp-widget.js') req.url = `/@fs${here('./src/loader.ts')}`;
        next();
      });
    },
  };
}

type Bundle = Parameters<NonNullable<Extract<Plugin['generateBundle'], (...args: never[]) => unknown>>>[1];

/** A chunk and every chunk it imports statically, transitively: what runs when it is imported. */
function staticClosure(bundle: Bundle, file: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[file];
  if (!chunk || chunk.type !== 'chunk' || into.has(file)) return into;
  into.add(file);
  for (const dep of chunk.imports) staticClosure(bundle, dep, into);
  return into;
}

/**
 * Edits a chunk's source map after its code was edited in place in `generateBundle`, where the map is already an asset
 * of the bundle (`<file>.map`) written as it stands: `edit` gets the decoded mappings, one array of segments a line.
 */
function editMap(plugin: { error: (message: string) => never }, bundle: Bundle, file: string, edit: (lines: SourceMapMappings) => void): void {
  const map = bundle[`${file}.map`];
  if (map?.type !== 'asset') plugin.error(`no source map for ${file}`);
  const json = JSON.parse(typeof map.source === 'string' ? map.source : new TextDecoder().decode(map.source)) as { mappings: string };
  const lines = decode(json.mappings);
  edit(lines);
  map.source = JSON.stringify({ ...json, mappings: encode(lines) });
}

/** The loader's chunk in an SDK bundle (none in the other environments). */
function loaderChunk(bundle: Bundle) {
  const loader = bundle['ramp-widget.js'];
  return loader?.type === 'chunk' && loader.isEntry ? loader : undefined;
}

/**
 * The loader learns, per tag, every chunk the tag's chunk imports statically, so it can ask for them all at once
 * (`<link rel=modulepreload>`) instead of discovering them one round trip later. The map replaces the loader's
 * `__RAMP_PRELOAD__` placeholder once the chunk names (with their hashes) are final.
 */
function preloadMap(): Plugin {
  return {
    name: 'ramp-preload-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const loader = loaderChunk(bundle);
      if (!loader) return;
      const loaderFiles = staticClosure(bundle, loader.fileName);
      // Compact: every file once (`f`), each tag as indexes into it (`t`), each language's core messages (`m`).
      const files: string[] = [];
      const indexOf = (file: string): number => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1);
      const tags: Record<string, number[]> = {};
      for (const m of loader.code.matchAll(/["'`](ramp-[\w-]+)["'`]:\(\)=>import\(["'`]\.\/([^"'`]+)["'`]\)/g)) {
        tags[m[1]!] = [...staticClosure(bundle, m[2]!)]
          .filter((f) => !loaderFiles.has(f))
          .map(indexOf);
      }
      // Each language's core messages (what a first step shows), by lowercased tag and by its language alone, so the
      // loader can ask for them beside the tag's chunks rather than after the i18n chunk has run.
      const messages: Record<string, number> = {};
      for (const file of Object.keys(bundle).sort()) {
        const locale = /^messages-([\w-]+)-core-[\w-]{8}\.js$/.exec(file)?.[1];
        if (!locale) continue;
        const index = indexOf(file);
        messages[locale.toLowerCase()] = index;
        messages[locale.split('-')[0]!.toLowerCase()] ??= index;
      }
      if (Object.keys(messages).length === 0) this.error('ramp-preload-map: found no core message chunks');
      const map = { f: files, t: tags, m: messages };
      if (!loader.code.includes('__RAMP_PRELOAD__')) return;
      if (Object.keys(tags).length === 0) this.error('ramp-preload-map: found no tag chunks in the loader');
      // The source reads `typeof __RAMP_PRELOAD__ === 'object' ? __RAMP_PRELOAD__ : {…empty}` (development has no map):
      // `{…map} || {…empty}` keeps it one expression.
      const placeholder = /typeof __RAMP_PRELOAD__\s*===?\s*["'`]object["'`]\s*\?\s*__RAMP_PRELOAD__\s*:/.exec(loader.code);
      if (!placeholder) this.error('ramp-preload-map: the placeholder was not found');
      const replacement = `${JSON.stringify(map)}||`;
      const at = placeholder.index;
      const end = at + placeholder[0].length;
      loader.code = loader.code.slice(0, at) + replacement + loader.code.slice(end);
      if (loader.code.includes('__RAMP_PRELOAD__')) this.error('ramp-preload-map: the placeholder was not replaced');
      // The minified loader is one line: what follows the placeholder moved right by the map's length, and the map's
      // positions must move with it (or every name after it points at the wrong place in src/loader.ts).
      const line = loader.code.slice(0, at).split('\n').length - 1;
      const column = at - (loader.code.lastIndexOf('\n', at - 1) + 1);
      const shift = replacement.length - placeholder[0].length;
      editMap(this, bundle, loader.fileName, (lines) => {
        for (const segment of lines[line] ?? []) {
          if (segment[0] >= end - at + column) segment[0] += shift;
          else if (segment[0] > column) segment[0] = column;
        }
      });
    },
  };
}

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136+; other engines read a comment) on what a
 * component's first step runs: the loader, and each chunk it imports with what that chunk imports statically (the
 * tags' chunks, `core`, `boot`). V8 then compiles their functions while the file streams in, on a background thread,
 * instead of one by one on the main thread the first time each is called. In a trace of the throttled first step the
 * main thread's compiling went 109 → 54 ms; the time to interactive gained ~10 ms on this 2-core machine, whose second
 * core the compile threads share with the server and the browser (a phone's spare cores take more of it). The steps
 * loaded later (KYC steps, session renewal) stay lazy. The hint goes in after the content hashes: it changes no
 * code, only when V8 compiles it.
 */
function compileHints(): Plugin {
  const hint = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'ramp-compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      const loader = loaderChunk(bundle);
      if (!loader) return;
      const firstSteps = new Set<string>();
      for (const file of [loader.fileName, ...loader.dynamicImports]) staticClosure(bundle, file, firstSteps);
      for (const file of firstSteps) {
        const chunk = bundle[file];
        if (chunk?.type !== 'chunk') continue;
        chunk.code = hint + chunk.code;
        // One more line on top: every mapping moves down a line.
        editMap(this, bundle, file, (lines) => lines.unshift([]));
      }
    },
  };
}

/**
 * Brotli and gzip copies of every script, stylesheet, page and image the server sends to browsers (`x.js.br`,
 * `x.js.gz`), written once at build time: the server answers with them (serveStatic's `precompressed`) instead of
 * compressing each answer again, which cost ~1 ms of its CPU per chunk, and brotli at its best is smaller than gzip.
 */
function precompress(): Plugin {
  return {
    name: 'ramp-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      if (this.environment.name === 'lib') return; // for bundlers, not served
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(file) || file.startsWith('.vite/')) continue;
        const path = join(options.dir!, file);
        const source = readFileSync(path);
        if (source.length < 1024) continue; // too small to gain: sent as it is
        writeFileSync(`${path}.br`, brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
        writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/**
 * What every component needs, in one chunk: Lit's core (directives such as repeat and live, and the context provider
 * <ramp-widget> uses, go with their users); the element base and its define helper (ramp-element, the theme and the
 * form controls' styles, the support reference, the widget context it asks for); i18n (the catalogue, language
 * matching, Intl formatting, the controller; not `boot`, which the loader imports for the messages: as a chunk of its
 * own it needs no namespace object, which in a shared chunk would cost a runtime chunk more); the BFF client
 * and the events every component fires (uploads, the transaction feed and the money events only where used). One file,
 * not five: each module a page fetches costs the browser's main thread a request to issue and a task to compile, which
 * on a throttled phone CPU was a tenth of the first step's time to interactive (<ramp-quote> alone does not use the
 * controls' styles: 1.7 kB it loads for the others' sake). Never the loader's own file, whose short-cached code must
 * not be what hashed chunks import. The forms' rules share a chunk of their own (`forms`, below); everything else
 * shared gets a chunk of its own, named for what it holds.
 */
const core = [
  /node_modules[\\/](lit|lit-html|lit-element|@lit[\\/](?!context)[\w-]+)[\\/](?!(.*[\\/])?directives[\\/])/,
  /node_modules[\\/]@lit[\\/]context[\\/]lib[\\/]context-request-event\.js$/,
  /[\\/]src[\\/](components[\\/](ramp-element|theme\.styles|controls\.styles|support-reference|widget[\\/]context)|elements[\\/]define-once)\.ts$/,
  /[\\/]src[\\/](client[\\/](?!upload|transaction-feed|event-stream)|events[\\/](?!session|quote-|requote-|transaction-|bank-account-)|i18n[\\/](?!messages|boot))/,
];
/**
 * The customer forms' shared rules, in one chunk rather than three: the tax-id and customer rules with their view
 * formatting, the country codes and their names, the watch that follows a review, a radio option, and the text, date
 * and tax-id inputs every onboarding form renders (form-parts: the first step's and the later steps' chunks both use
 * them, and here the later ones import them from what the first step loaded). The first onboarding step fetches
 * fewer files for it (each file costs the main thread a request and a task). The other elements load some of it unused;
 * what that costs each is in docs/performance.md.
 */
const forms = /[\\/]src[\\/](contract[\\/](tax-id|text|customer-rules|countries)|components[\\/](onboarding[\\/](format|countries|form-parts)|customer-watch|radio-choice))\.ts$/;
const sharedChunks = [
  { name: 'core', test: (id: string) => core.some((pattern) => pattern.test(id)) },
  { name: 'forms', test: (id: string) => forms.test(id) },
];

/**
 * One `vite build`, two environments: `sdk` is a library build of src/loader.ts, the small script partners load with a
 * plain `<script type="module">` (`ramp-widget.js`, cached briefly), which imports each component's chunk and the
 * active language's messages on demand (content-hashed names, cached forever; same folder as the loader, so
 * `import.meta.url`-relative defaults such as `../bff` hold); `client` is the demo page, whose script tag for
 * `/sdk/ramp-widget.js` stays as written (`vite-ignore`), exactly as on a partner's page.
 */
export default defineConfig({
  root: here('./demo'),
  base: '/',
  publicDir: false,
  appType: 'mpa',
  plugins: [sdkFromSource(), preloadMap(), compileHints(), precompress()],
  server: {
    fs: { allow: [here('.')] },
    // Host and Origin pass through unchanged (no changeOrigin): /demo/session accepts the page's loopback origin.
    proxy: Object.fromEntries(['/bff', '/demo/session', '/v2', '/docs', '/openapi.json'].map((path) => [path, devServer])),
  },
  environments: {
    sdk: {
      consumer: 'client',
      build: {
        // (plugins below apply to every environment; the preload map only acts on the loader chunk)
        outDir: here('./dist/sdk'),
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        copyPublicDir: false,
        // Which chunk imports which, for scripts/size-budget.mjs (.vite/manifest.json; the server does not serve it).
        manifest: true,
        lib: {
          entry: here('./src/loader.ts'),
          formats: ['es'],
          fileName: () => 'ramp-widget.js',
        },
        rolldownOptions: {
          // Rolldown's pass that spares a dynamic entry the loads its importer made already (avoidRedundantChunkLoads)
          // makes <ramp-onboarding>'s chunk build a namespace object of its own once a module is used by that step
          // and by the later steps it imports (form-parts, though `forms` holds it): the helper that builds it then
          // goes into a runtime chunk of its own, one file more for the first step. Without the pass the chunks and
          // what each imports are the same.
          experimental: { chunkOptimization: { avoidRedundantChunkLoads: false } },
          output: {
            // Minified: library output keeps whitespace unless asked (build.minify alone does not do it here).
            minify: true,
            // No `/* @__PURE__ */` annotations: they tell a later bundler what it may drop, and these chunks go to
            // browsers as they are (the `lib` build below, for bundlers, keeps them).
            comments: { annotation: false },
            // Message bundles are named for their language: `messages-pt-BR-core-<hash>.js`.
            chunkFileNames: (chunk) => {
              const bundle = /[\\/]i18n[\\/]messages[\\/]([\w-]+)[\\/](\w+)\.ts$/.exec(chunk.facadeModuleId ?? '');
              return bundle ? `messages-${bundle[1]}-${bundle[2]}-[hash].js` : '[name]-[hash].js';
            },
            codeSplitting: { groups: sharedChunks },
          },
        },
      },
    },
    // For bundlers, the publishable package packages/elements (its `exports`): one ES entry per component, the eager
    // `define`, the side-effect-free index and the (empty) React and Vue typing entries; dependencies (lit, …) stay
    // imports for the partner's bundler to share, except the compiler's own helpers, which no partner installs.
    // Types: tsconfig.lib.json.
    lib: {
      consumer: 'client',
      build: {
        outDir: here('./packages/elements/dist/lib'),
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        copyPublicDir: false,
        lib: {
          entry: {
            index: here('./src/index.ts'),
            define: here('./src/define.ts'),
            ...Object.fromEntries(
              ['widget', 'onboarding', 'document-uploader', 'verification', 'quote', 'pix-checkout', 'offramp'].map((name) => [name, here(`./src/elements/${name}.ts`)]),
            ),
            react: here('./src/jsx/react.ts'),
            vue: here('./src/jsx/vue.ts'),
          },
          formats: ['es'],
        },
        rolldownOptions: {
          external: (id) => /^[^./\0]/.test(id) && !/^[a-zA-Z]:/.test(id) && !id.startsWith('@oxc-project/runtime'),
          output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
        },
      },
    },
    client: {
      build: {
        outDir: here('./dist/demo'),
        emptyOutDir: true,
        assetsDir: 'assets',
        target: 'es2022',
        copyPublicDir: false,
        rolldownOptions: { input: here('./demo/index.html') },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.sdk!);
      await builder.build(builder.environments.lib!);
      await builder.build(builder.environments.client!);
    },
  },
});
