// Chaos on the upload routes: the real server process (server/main.ts as a child) takes 50 uploads aborted at random points on
// /v2, /bff and /verify/api while normal requests run. The process stays up, every normal request succeeds, and afterwards the
// file store holds exactly the files of the accepted documents (no temporaries, no partial files).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { scaledMs, serverArgs } from '../support/server-child';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '../../server/domain/api-keys';
import { LocalFileStore } from '../../server/store/file-store';
import { individual } from './harness';
import { individualInfo } from './kyc-helpers';
import { abortedUpload, eventually, multipartBody, pdfOfSize, sha256, storeEntries, type UploadTarget } from './uploads-helpers';

const ABORTS = 50;
const apiKey = generateApiKey('sandbox');
let dataDir: string;
let child: ChildProcess;
let output = '';
let port: number;
let base: string;

before(async () => {
  const t0 = Date.now();
  dataDir = mkdtempSync(join(tmpdir(), 'ramp-chaos-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    RAMP_ENV: 'sandbox',
    PORT: '0',
    HOST: '127.0.0.1',
    RAMP_DATA_DIR: dataDir,
    RAMP_API_KEY: apiKey,
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    RAMP_LOG_LEVEL: 'info',
    RAMP_SANDBOX_REVIEW_MS: '600000',
    // The run is about aborts, not limits: its normal traffic may send more than a link's 60 a minute.
    ...Object.fromEntries(['API_KEY', 'SESSION', 'LINK', 'AUTH_FAILURES', 'ADDRESS'].map((n) => [`RAMP_RATE_LIMIT_${n}`, '1000000/1'])),
  };
  delete env.DATABASE_URL; // its own embedded database in dataDir: never the shared PostgreSQL's public schema
  const root = fileURLToPath(new URL('../..', import.meta.url));
  child = spawn(process.execPath, serverArgs(), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), scaledMs(120_000));
    const look = () => {
      const m = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', look);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  base = `http://127.0.0.1:${port}`;
  console.log(`chaos: the server started in ${Date.now() - t0} ms`);
});

after(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(path: string, token: string, init: RequestInit = {}) {
  const res = await fetch(base + path, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, text };
}

/** A customer of the bootstrap partner ready for documents, and its three upload routes. */
async function customerTargets(): Promise<UploadTarget[]> {
  const session = await call('/v2/widget-sessions', apiKey, { method: 'POST', body: '{}' });
  assert.equal(session.status, 201, session.text);
  const created = await call('/bff/customers', session.body.token, { method: 'POST', body: JSON.stringify(individual()) });
  assert.equal(created.status, 201, created.text);
  const token = created.body.session.token as string;
  const info = await call('/bff/customer/additional-information', token, { method: 'PATCH', body: JSON.stringify(individualInfo()) });
  assert.equal(info.status, 200, info.text);
  const link = (await call('/bff/customer', token)).body.verification.link as string;
  const id = created.body.customer.id as string;
  return [
    { route: '/v2', path: `/v2/customers/${id}/documents`, token: apiKey },
    { route: '/bff', path: '/bff/customer/documents', token },
    { route: '/verify/api', path: '/verify/api/customer/documents', token: new URL(link).pathname.split('/')[2]! },
  ];
}

/** mulberry32: the run's randomness comes from one printed seed, so a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test(`${ABORTS} uploads aborted at random points on the three routes, amid normal traffic: the process stays up and keeps only accepted files`, async () => {
  const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const random = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const customers = await Promise.all([customerTargets(), customerTargets()]);
  const allTargets = customers.flat();

  const context = `seed ${seed} (CHAOS_SEED replays it)`;
  const accepted = new Set<string>();
  const failures: string[] = [];
  let normal = 0;
  let aborted = 0;
  let done = false;

  const aborter = async () => {
    while (aborted < ABORTS) {
      aborted++;
      const target = pick(allTargets);
      const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, pdfOfSize(Math.floor(1_000 + random() * 1_500_000)));
      await abortedUpload(port, target, body, contentType, Math.floor(random() * body.length), Math.floor(random() * 40));
      await new Promise((r) => setTimeout(r, random() * 300)); // spread over the normal traffic
    }
  };
  const regular = async () => {
    while (!done || normal < 20) {
      const target = pick(allTargets);
      const kind = random();
      normal++;
      try {
        if (kind < 0.4) {
          const bytes = pdfOfSize(Math.floor(1_000 + random() * 400_000));
          const { body, contentType } = multipartBody({ type: 'OTHER' }, bytes);
          const res = await fetch(base + target.path, { method: 'POST', headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType }, body: new Uint8Array(body) });
          const text = await res.text();
          if (res.status === 201) accepted.add(sha256(bytes));
          else failures.push(`upload on ${target.route}: ${res.status} ${text}`);
        } else {
          const path = target.route === '/v2' ? target.path : target.route === '/bff' ? '/bff/customer' : '/verify/api/customer';
          const res = await call(path, target.token);
          if (res.status !== 200) failures.push(`GET ${path}: ${res.status} ${res.text}`);
        }
      } catch (err) {
        failures.push(`${target.route}: ${(err as Error).message} ${(err as { cause?: Error }).cause?.message ?? ''}`);
      }
    }
  };

  const started = Date.now();
  const normals = [regular(), regular(), regular()];
  await Promise.all([aborter(), aborter(), aborter(), aborter(), aborter()]);
  done = true;
  await Promise.all(normals);
  console.log(`chaos: ${ABORTS} aborts and ${normal} normal requests (${accepted.size} uploads) in ${Date.now() - started} ms, ${context}`);

  assert.equal(child.exitCode, null, `the server exited (${context}):\n${output.slice(-3000)}`);
  assert.deepEqual(failures, [], `normal requests failed (${context})`);
  assert.ok(normal >= 10 && accepted.size >= 3, `too little normal traffic ran: ${normal} requests, ${accepted.size} uploads`);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  assert.doesNotMatch(output, /uncaught|unhandled/i, `the log reports an unhandled error (${context})`);

  // Aborted requests finish (and clean up) shortly after their sockets close.
  const files = new LocalFileStore(join(dataDir, 'files'));
  const expected = [...accepted].sort();
  await eventually(() => storeEntries(files), (s) => s.temps.length === 0 && JSON.stringify(s.files) === JSON.stringify(expected), `the store (${context}) should hold only the ${expected.length} accepted files`);
});
