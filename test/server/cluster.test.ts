// RAMP_WORKERS: several server processes on one port and one PostgreSQL. Every process answers, a process that dies is
// replaced while the others keep serving, SIGTERM stops them all and the supervisor exits 0; on the embedded database
// the start is refused. PostgreSQL only for the running part: PGlite belongs to one process.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { scaledMs, serverArgs } from '../support/server-child';
import pg from 'pg';
import { generateApiKey } from '../../server/domain/api-keys';

const url = process.env.DATABASE_URL;
const SKIP = url ? false : 'SKIPPED: several server processes need PostgreSQL (set DATABASE_URL); PGlite belongs to one process';
if (SKIP) process.stderr.write(`\n*** ${SKIP} ***\n\n`);

const children: ChildProcess[] = [];
/** The running server's last output, for a timeout's message. */
let lastOutput = () => '';
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).map(Number);
}

/** Sends one request on a fresh connection (so connections spread over the processes) with a request id of its own. */
function ask(port: number, apiKey: string, requestId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${apiKey}`, 'x-request-id': requestId };
    const req = request({ host: '127.0.0.1', port, path: '/v2/customers?size=1', headers, agent: new Agent({ keepAlive: false }) }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.setTimeout(5_000, () => req.destroy(new Error(`${requestId}: no answer in 5 s`)));
    req.end();
  });
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${lastOutput()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('several server processes (PostgreSQL)', { skip: SKIP }, () => {
  test('two processes answer on one port; one killed is replaced while the other serves; SIGTERM stops all, exit 0', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ramp-cluster-'));
    const schema = `ramp_cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
    t.after(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });
    const apiKey = generateApiKey('sandbox');
    const child = spawn(process.execPath, serverArgs(), {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', RAMP_WORKERS: '2', RAMP_API_KEY: apiKey, RAMP_DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_SCHEMA: schema, RAMP_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    lastOutput = () => out.slice(-1500);
    let port = 0;
    let asked = 0;
    /** The pid of the process that answered: from its request log line, found by the request's id. */
    const whoAnswers = async (): Promise<number> => {
      const id = `cluster-${process.pid}-${++asked}`;
      await ask(port, apiKey, id);
      let pid = 0;
      await eventually(`the log line of ${id}`, () => {
        const line = out.split('\n').find((l) => l.includes(`"requestId":"${id}"`));
        pid = line ? (JSON.parse(line) as { pid: number }).pid : 0;
        return pid > 0;
      });
      return pid;
    };
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await eventually('both processes listening', () => /listening on .*2 processes/.test(out), scaledMs(120_000));
    port = Number(/"port":(\d+)/.exec(out)![1]);
    const workers = childrenOf(child.pid!);
    assert.equal(workers.length, 2, out);

    const pids = new Set<number>();
    for (let i = 0; i < 40 && pids.size < 2; i++) pids.add(await whoAnswers());
    assert.deepEqual([...pids].sort(), [...workers].sort(), 'each process answers requests');

    process.kill(workers[0]!, 'SIGKILL');
    // Once the supervisor has seen the death (a connection handed over at that very instant dies with the process),
    // and while the replacement starts, the survivor answers every request.
    await eventually('the supervisor seeing the death', () => /a server process died; starting another/.test(out));
    for (let i = 0; i < 10; i++) assert.equal(await whoAnswers(), workers[1]);
    await eventually('a replacement process', () => childrenOf(child.pid!).length === 2);
    const now = childrenOf(child.pid!);
    assert.ok(now.includes(workers[1]!) && !now.includes(workers[0]!), `${now} after ${workers}`);
    await eventually('the replacement answering', async () => (await whoAnswers()) !== workers[1]);

    child.kill('SIGTERM');
    assert.equal(await exited, 0, out);
    for (const pid of now) assert.throws(() => process.kill(pid, 0), /ESRCH/, `process ${pid} is gone`);
    assert.ok(!existsSync(join(dataDir, 'api-key')), 'the configured key is used: none generated');
  });
});

test('several processes on the embedded database: refused at start, with one line', () => {
  const run = spawnSync(process.execPath, serverArgs(), {
    env: { ...process.env, RAMP_WORKERS: '2', DATABASE_URL: '', PORT: '0' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(run.status, 78, run.stderr);
  assert.match(run.stderr.trim(), /^ramp: invalid configuration: RAMP_WORKERS: more than one process needs DATABASE_URL/);
});
