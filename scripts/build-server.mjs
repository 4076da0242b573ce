// Bundles the server (server/main.ts and what it imports from server/ and src/) into dist/server/main.js with esbuild, so
// `npm start` runs plain JavaScript: no TypeScript compiler in the running process. Packages stay external (loaded from
// node_modules as they are: PGlite finds its WebAssembly beside itself); the SQL migrations are copied beside the bundle.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const out = `${root}dist/server`;
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [`${root}server/main.ts`],
  outfile: `${out}/main.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  tsconfig: `${root}tsconfig.json`,
  logLevel: 'warning',
});
cpSync(`${root}server/store/migrations`, `${out}/migrations`, { recursive: true });
