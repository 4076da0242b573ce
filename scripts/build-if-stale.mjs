// `npm start` (before it execs the server): builds the browser bundles only when dist/ is missing or older than their
// sources, so a fresh clone builds once and later starts skip the vite build.
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
const stamp = join(root, 'dist/sdk');
const inputs = Math.max(newest('src'), newest('demo'), statSync(join(root, 'vite.config.ts')).mtimeMs, statSync(join(root, 'package.json')).mtimeMs);
if (!existsSync(stamp) || statSync(stamp).mtimeMs < inputs || process.env.RAMP_REBUILD === '1') {
  console.error('npm start: building the browser bundles (dist/ is missing or older than src/)');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit', cwd: root });
}
