// The test run itself (issue 37): every stage runs and is reported even after one fails, a stage past its deadline is
// ended with what it started, a file that fails, hangs or leaves a listener open ends promptly with a message naming it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runStages } from '../../scripts/test.mjs';
import { scaledMs } from '../support/server-child';

const node = (code: string) => [process.execPath, '-e', code];

/** Runs node's test runner with the guard on one fixture; resolves with its status and output, or fails after 90 s. */
function runFixture(fixture: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  // Without NODE_TEST_CONTEXT, which this file's runner sets: the child is a run of its own, not a part of this one.
  const { NODE_TEST_CONTEXT: _, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/support/guard.mjs', '--test', `test/runner/${fixture}`], {
    env: { ...parentEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${fixture}: the run did not end within 90 s:\n${out}`));
    }, scaledMs(90_000));
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, out });
    });
  });
}

test('every stage runs and is reported; a failed stage makes the run fail; a stage that needs it is reported skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-runner-'));
  try {
    const lines: string[] = [];
    const status = await runStages(
      [
        { name: 'first', commands: [node('process.exit(3)')], timeoutS: 60 },
        { name: 'second', commands: [node(`require('fs').writeFileSync(${JSON.stringify(join(dir, 'ran'))}, 'yes')`)], timeoutS: 60 },
        { name: 'third', needs: ['first'], commands: [node('')], timeoutS: 60 },
      ],
      { log: (l: string) => lines.push(l), quiet: true },
    );
    assert.equal(status, 1);
    assert.equal(readFileSync(join(dir, 'ran'), 'utf8'), 'yes', 'the stage after a failed one still ran');
    const summary = lines.slice(lines.indexOf('== summary'));
    assert.match(summary.find((l) => l.includes(' first '))!, /^FAIL\s+first\s+failed in \d+ s — .*exited 3/);
    assert.match(summary.find((l) => l.includes(' second '))!, /^ok\s+second\s+passed/);
    assert.match(summary.find((l) => l.includes(' third '))!, /^FAIL\s+third\s+skipped — first did not pass/);
    assert.equal(summary.at(-1), '2 of 3 stages did not pass: first, third');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stage with nothing to run here (the races without PostgreSQL) is said, and does not fail the run', async () => {
  const lines: string[] = [];
  const status = await runStages(
    [
      { name: 'races', prepare: async () => ({ skip: 'no PostgreSQL answers', failed: false }), commands: [node('process.exit(1)')], timeoutS: 60 },
      { name: 'other', commands: [node('')], timeoutS: 60 },
    ],
    { log: (l: string) => lines.push(l), quiet: true },
  );
  assert.equal(status, 0);
  assert.ok(lines.some((l) => /^SKIP\s+races\s+not run — no PostgreSQL answers/.test(l)), lines.join('\n'));
  assert.equal(lines.at(-1), 'all 1 stages passed (1 not run)');
});

test('a stage past its deadline is ended with everything it started, and reported timed out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-runner-'));
  try {
    const pidFile = join(dir, 'grandchild');
    // The stage starts a grandchild that would outlive it, then hangs.
    const hang = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
    const lines: string[] = [];
    const status = await runStages([{ name: 'stuck', commands: [node(hang)], timeoutS: 3 }], { log: (l: string) => lines.push(l), quiet: true });
    assert.equal(status, 1);
    assert.ok(lines.some((l) => /^FAIL\s+stuck\s+timed out/.test(l)), lines.join('\n'));
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    const gone = async () => {
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(grandchild, 0);
        } catch {
          return true;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };
    assert.ok(await gone(), `the grandchild ${grandchild} outlived its stage`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a test file that leaves a listener open ends non-zero, naming the listener and where it was made', async () => {
  const { code, out } = await runFixture('leaks.fixture.ts', { RAMP_TEST_LEAK_GRACE_S: '1' });
  assert.notEqual(code, 0, out);
  assert.match(out, /test\/runner\/leaks\.fixture\.ts: left open after its last test/);
  assert.match(out, /a listening server made .*test\/runner\/leaks\.fixture\.ts:6/);
});

test('a deliberately failing test fails the run with its name', async () => {
  const { code, out } = await runFixture('fails.fixture.ts');
  assert.notEqual(code, 0, out);
  assert.match(out, /not ok 1 - a deliberately failing test/);
});

test('a file that never finishes is ended at its deadline, naming what kept it alive', async () => {
  const { code, out } = await runFixture('hangs.fixture.ts', { RAMP_TEST_FILE_TIMEOUT_S: '3', RAMP_TEST_TIMEOUT_SCALE: '1' });
  assert.notEqual(code, 0, out);
  assert.match(out, /test\/runner\/hangs\.fixture\.ts: still running after 3 s .*Open: .*Timeout/);
});
