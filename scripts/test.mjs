// `npm test`: every stage runs and is reported, whatever the one before it did; a stage past its deadline is ended with
// everything it started; the run ends non-zero if any stage failed. `npm test -- server e2e` runs just those stages.
import { spawn } from 'node:child_process';
import { readdirSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

/** Slow machines: every deadline of the run (stages, test files, server start-ups) is multiplied by this. */
export const timeoutScale = (() => {
  const v = Number(process.env.RAMP_TEST_TIMEOUT_SCALE);
  return Number.isFinite(v) && v > 0 ? v : 1;
})();

const testFiles = (dir) =>
  readdirSync(new URL(`../${dir}/`, import.meta.url))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `${dir}/${f}`);

/** Node's test runner with the guard that ends a file which hangs or leaves something open (test/support/guard.mjs). */
export const nodeTest = (files, concurrency) => [
  process.execPath,
  '--import',
  'tsx',
  '--import',
  './test/support/guard.mjs',
  '--test',
  `--test-concurrency=${concurrency}`,
  // One test (or describe block) at most this long; a whole file is bounded by the guard.
  `--test-timeout=${Math.round(300_000 * timeoutScale)}`,
  ...files,
];

/** The server test files whose tests run only on PostgreSQL: concurrency, several pools and processes, outages. */
export const RACE_FILES = ['races', 'deadlocks', 'claims', 'database-outage', 'db-pool-busy', 'cluster'].map((f) => `test/server/${f}.test.ts`);

/**
 * The PostgreSQL the races run on: DATABASE_URL when the run has one (the server stage already ran them there), else
 * RAMP_TEST_DATABASE_URL or the local default, when it answers. Each test works in a schema of its own and drops it.
 */
async function racesDatabase() {
  if (process.env.DATABASE_URL) return { skip: 'the server stage ran them on DATABASE_URL', failed: false };
  const url = process.env.RAMP_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { env: { DATABASE_URL: url } };
  } catch (err) {
    const line = `SKIPPED: the race tests need PostgreSQL and none answers at ${url.replace(/:[^:@/]*@/, ':***@')} (${err.message}); set RAMP_TEST_DATABASE_URL`;
    return { skip: line, failed: false, loud: true };
  } finally {
    await client.end().catch(() => {});
  }
}

const npx = (bin, ...args) => [process.execPath, `${root}node_modules/.bin/${bin}`, ...args];

/**
 * The server bundled from the sources (as `npm start` runs it, dist/server/main.js) for the tests that start it as a
 * process (test/support/server-child.ts `serverArgs`): it starts without compiling TypeScript. Built again at the start
 * of each stage that uses it, so it is always today's sources.
 */
const serverBundle = `${root}dist/server/main.js`;
const bundleServer = [process.execPath, 'scripts/build-server.mjs'];
const bundled = { RAMP_TEST_SERVER_BUNDLE: serverBundle };
const chromium = [process.execPath, 'scripts/ensure-chromium.mjs'];

/**
 * The stages of `npm test`, in order. `needs`: stages whose failure makes this one pointless (it is then reported skipped,
 * which fails the run); `prepare`: resolves the stage's extra environment, or why it has nothing to run here.
 */
export const stages = () => [
  { name: 'typecheck', commands: [npx('tsc', '--noEmit')], timeoutS: 300 },
  { name: 'build', commands: [npx('vite', 'build'), npx('tsc', '-p', 'tsconfig.lib.json')], timeoutS: 600 },
  { name: 'size', needs: ['build'], commands: [[process.execPath, 'scripts/size-budget.mjs']], timeoutS: 120 },
  { name: 'manifest', commands: [[process.execPath, 'scripts/custom-elements.mjs', '--check']], timeoutS: 120 },
  // On PostgreSQL one file at a time: the race and chaos tests want the database to themselves.
  { name: 'server', env: bundled, commands: [bundleServer, nodeTest(testFiles('test/server'), process.env.DATABASE_URL ? 1 : Number(process.env.RAMP_TEST_CONCURRENCY ?? 2))], timeoutS: 2700 },
  // The races need PostgreSQL (PGlite has one connection and serialises everything, so a race there proves nothing): run
  // here whenever one is reachable, so a developer's own `npm test` proves them too; said loudly when none is.
  { name: 'races', prepare: racesDatabase, env: bundled, commands: [bundleServer, nodeTest(RACE_FILES, 1)], timeoutS: 900 },
  { name: 'components', commands: [chromium, npx('web-test-runner')], timeoutS: 1800 },
  { name: 'e2e', needs: ['build'], env: bundled, commands: [chromium, bundleServer, nodeTest(testFiles('test/e2e'), 1)], timeoutS: 1800 },
];

/** Runs one command in a process group of its own, so a deadline or our own end takes everything it started with it. */
function run(command, deadlineMs, { env, quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: quiet ? 'ignore' : 'inherit', detached: true });
    running.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, deadlineMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code: 127, timedOut, error: err.message });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      // Whatever the command left behind in its group (a server a crashed test started) goes with it.
      killGroup(child, 'SIGKILL');
      resolve({ code: code ?? 1, signal, timedOut });
    });
  });
}

const running = new Set();
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Runs the stages one after another and prints a summary line per stage; resolves to the exit status (0 when every
 * stage passed). `log` receives the summary lines.
 */
export async function runStages(list, { log = (line) => process.stdout.write(`${line}\n`), env = {}, quiet = false } = {}) {
  const results = [];
  for (const stage of list) {
    const failedNeed = (stage.needs ?? []).find((n) => results.some((r) => r.name === n && r.outcome !== 'passed'));
    if (failedNeed) {
      results.push({ name: stage.name, outcome: 'skipped', detail: `${failedNeed} did not pass`, seconds: 0 });
      log(`== ${stage.name}: skipped (${failedNeed} did not pass)`);
      continue;
    }
    const prepared = stage.prepare ? await stage.prepare() : {};
    if (prepared.skip) {
      results.push({ name: stage.name, outcome: prepared.failed === false ? 'not run' : 'skipped', detail: prepared.skip, seconds: 0 });
      log(`== ${stage.name}: not run — ${prepared.skip}`);
      if (prepared.loud) process.stderr.write(`\n${'!'.repeat(100)}\n${prepared.skip}\n${'!'.repeat(100)}\n\n`);
      continue;
    }
    log(`== ${stage.name}`);
    const started = Date.now();
    const deadlineMs = stage.timeoutS * 1000 * timeoutScale;
    let outcome = 'passed';
    let detail = '';
    for (const command of stage.commands) {
      const left = deadlineMs - (Date.now() - started);
      const r = await run(command, Math.max(left, 1), { env: { ...env, ...stage.env, ...prepared.env }, quiet });
      if (r.timedOut) {
        outcome = 'timed out';
        detail = `ended after ${Math.round(deadlineMs / 1000)} s (RAMP_TEST_TIMEOUT_SCALE scales it)`;
        break;
      }
      if (r.code !== 0) {
        outcome = 'failed';
        detail = r.error ? r.error : `${command.slice(1).join(' ').slice(0, 80)} exited ${r.signal ?? r.code}`;
        break;
      }
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    results.push({ name: stage.name, outcome, detail, seconds });
    log(`== ${stage.name}: ${outcome} in ${seconds} s${detail ? ` — ${detail}` : ''}`);
  }
  log('');
  log('== summary');
  const mark = { passed: 'ok    ', 'not run': 'SKIP  ' };
  for (const r of results) log(`${mark[r.outcome] ?? 'FAIL  '} ${r.name.padEnd(11)} ${r.outcome}${r.outcome === 'skipped' || r.outcome === 'not run' ? '' : ` in ${r.seconds} s`}${r.detail ? ` — ${r.detail}` : ''}`);
  // `not run` is a stage that had nothing to run here (the races without a PostgreSQL): said, not failed.
  const failed = results.filter((r) => r.outcome !== 'passed' && r.outcome !== 'not run');
  const notRun = results.length - failed.length - results.filter((r) => r.outcome === 'passed').length;
  log(failed.length === 0 ? `all ${results.length - notRun} stages passed${notRun ? ` (${notRun} not run)` : ''}` : `${failed.length} of ${results.length} stages did not pass: ${failed.map((r) => r.name).join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child, 'SIGKILL');
    process.exit(130);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const wanted = process.argv.slice(2);
  const all = stages();
  const unknown = wanted.filter((w) => !all.some((s) => s.name === w));
  if (unknown.length) {
    process.stderr.write(`unknown stage ${unknown.join(', ')}; stages: ${all.map((s) => s.name).join(', ')}\n`);
    process.exit(2);
  }
  const chosen = wanted.length ? all.filter((s) => wanted.includes(s.name)).map((s) => ({ ...s, needs: (s.needs ?? []).filter((n) => wanted.includes(n)) })) : all;
  process.exit(await runStages(chosen));
}
