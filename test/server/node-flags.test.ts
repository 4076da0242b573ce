// `npm start` runs `exec node $(node scripts/node-flags.mjs) dist/server/main.js`: the script must print the flags for
// the database the server will use (a 32 MB young generation on PostgreSQL, 8 MB beside embedded PGlite), also when
// run through a path with a space or a symlink, and print nothing when imported (the benches import it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nodeFlags } from '../../scripts/node-flags.mjs';

const root = new URL('../..', import.meta.url).pathname;
const script = join(root, 'scripts/node-flags.mjs');
const printed = (path: string, env: Record<string, string>) => execFileSync(process.execPath, [path], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' }).trim().split(' ');

test('the start script runs node with the flags node-flags.mjs prints', () => {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  assert.match(start, /&& exec node \$\(node scripts\/node-flags\.mjs\) dist\/server\/main\.js$/);
});

test('the flags follow the database: a 32 MB young generation on PostgreSQL, 8 MB on PGlite', () => {
  assert.deepEqual(printed(script, { DATABASE_URL: 'postgres://x@127.0.0.1/db' }), ['--enable-source-maps', '--max-semi-space-size=32', '--liftoff-only']);
  assert.deepEqual(printed(script, {}), ['--enable-source-maps', '--max-semi-space-size=8', '--liftoff-only']);
  assert.deepEqual(printed(script, { DATABASE_URL: '' }), nodeFlags({ DATABASE_URL: '' }));
});

test('printed through a path with a space and through a symlink; nothing printed when imported', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ramp flags '));
  try {
    copyFileSync(script, join(dir, 'node-flags.mjs'));
    symlinkSync(join(dir, 'node-flags.mjs'), join(dir, 'link.mjs'));
    assert.deepEqual(printed(join(dir, 'node-flags.mjs'), {}), nodeFlags({}));
    assert.deepEqual(printed(join(dir, 'link.mjs'), {}), nodeFlags({}));
    const imported = execFileSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(script)})`], { encoding: 'utf8' });
    assert.equal(imported, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
