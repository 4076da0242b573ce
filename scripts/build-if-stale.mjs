// `npm start` (before it runs the server): builds the browser bundles when dist/ is missing or older than their sources,
// and the server bundle (scripts/build-server.mjs) when dist/server/main.js is older than server/ or src/; a fresh clone
// builds once and later starts skip both. RAMP_REBUILD=1 forces both. `--server-only` (npm run ops, which serves no page)
// skips the browser bundles. What the builds print goes to stderr (`npm run ops -- … --json` prints one JSON object on stdout).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const newest = (dir) => {
  let t = 0;
  for (const e of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs);
  }
  return t;
};
const mtime = (file) => (existsSync(join(root, file)) ? statSync(join(root, file)).mtimeMs : 0);
const force = process.env.RAMP_REBUILD === '1';
const pkg = mtime('package.json');

const sdk = join(root, 'dist/sdk');
const browserInputs = Math.max(newest('src'), newest('demo'), mtime('vite.config.ts'), pkg);
const serverOnly = process.argv.includes('--server-only');
if (!serverOnly && (force || !existsSync(sdk) || statSync(sdk).mtimeMs < browserInputs)) {
  console.error('npm start: building the browser bundles (dist/ is missing or older than src/)');
  execFileSync('npm', ['run', 'build'], { stdio: [0, 2, 2], cwd: root });
}

const serverInputs = Math.max(newest('server'), newest('src'), mtime('tsconfig.json'), pkg, mtime('scripts/build-server.mjs'));
if (force || mtime('dist/server/main.js') < serverInputs) {
  console.error('npm start: bundling the server (dist/server/main.js is missing or older than server/)');
  execFileSync(process.execPath, [join(root, 'scripts/build-server.mjs')], { stdio: [0, 2, 2], cwd: root });
}
