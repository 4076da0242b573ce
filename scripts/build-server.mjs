// Bundles the server (server/main.ts and what it imports from server/ and src/) into dist/server/main.js with esbuild, so
// `npm start` runs plain JavaScript: no TypeScript compiler in the running process. Packages stay external (loaded from
// node_modules as they are: PGlite finds its WebAssembly beside itself); the SQL migrations are copied beside the bundle.
import { cpSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

// `node scripts/build-server.mjs [entry outfile]`: another entry (the bench's server) bundles the same way.
const root = new URL('..', import.meta.url).pathname;
const [entry = 'server/main.ts', outfile = 'dist/server/main.js'] = process.argv.slice(2);
const out = dirname(`${root}${outfile}`);
rmSync(out, { recursive: true, force: true });
/** One ESM file for Node 20 from `entry`, packages left to node_modules. */
const bundle = (entry, outfile) =>
  build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    tsconfig: `${root}tsconfig.json`,
    logLevel: 'warning',
  });
await bundle(`${root}${entry}`, `${root}${outfile}`);
// The tracing preload beside it, for `node --import` when OTEL_TRACES_EXPORTER is set (scripts/node-flags.mjs): a file of its
// own, because it must run before the server's modules are imported.
await bundle(`${root}server/tracing-preload.ts`, `${out}/tracing-preload.js`);
// The operator CLI (`npm run ops`) beside it: it runs where the server runs, production installs without devDependencies.
await bundle(`${root}server/ops/main.ts`, `${out}/ops.js`);
cpSync(`${root}server/store/migrations`, `${out}/migrations`, { recursive: true });
