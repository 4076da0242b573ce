// The server under test: the real app on a real database (in-memory PGlite, or PostgreSQL in a schema of its own when DATABASE_URL is set).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import pg from 'pg';
import { createApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { loadConfig } from '../../server/config';
import { generateApiKey } from '../../server/domain/api-keys';
import type { SettlementProvider } from '../../server/domain/settlement/settlement-provider';
import { createLogger } from '../../server/logger';
import { openStore, type Store, type StoreOptions } from '../../server/store/db';
import { type FileStore, LocalFileStore } from '../../server/store/file-store';
import { advanceAllPartnerClocks, partnerClockOffset } from '../../server/store/queries/partner-clocks';
import type { JobRunner } from '../../server/workers/runner';
import { createWorkers } from '../../server/workers/index';
import { appendFileSync } from 'node:fs';
import { type ApiVersion, documentFor, LATEST, VERSIONS } from '../../server/http/versions';
import { compileContract, type Contract } from './contract';
import { checkStoredEvents, eventViolations } from './support/event-payloads';

export interface TestServer {
  app: ReturnType<typeof createApp>;
  deps: Awaited<ReturnType<typeof bootstrap>>;
  /** The bootstrap partner's key (the one the BFF uses). */
  apiKey: string;
  /** Every log line written so far, as text. */
  logs: string[];
  /** The job runner, not started: tests run due jobs with `workers.runDue()` after moving the clock. */
  workers: JobRunner;
  /** Moves every partner's clock forward and runs every job that became due. */
  advance(seconds: number): Promise<number>;
  /** The time on one partner's clock (what its requests and jobs read). */
  nowFor(partnerId: string): Promise<Date>;
  close(): Promise<void>;
}

export async function openTestStore(pgOptions: Pick<StoreOptions, 'poolSize' | 'preparedStatements'> = {}): Promise<{ store: Store; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const store = await openStore({ dataDir: 'memory://' });
    return { store, drop: () => store.close() };
  }
  const schema = `ramp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const store = await openStore({ databaseUrl: url, schema, ...pgOptions });
  return {
    store,
    async drop() {
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export async function startTestServer(env: Record<string, string> = {}, opts: { store?: Store; settlement?: SettlementProvider; files?: (dir: string) => FileStore } = {}): Promise<TestServer> {
  const opened = opts.store ? { store: opts.store, drop: async () => {} } : await openTestStore();
  const { store, drop } = opened;
  const filesDir = mkdtempSync(join(tmpdir(), 'ramp-files-'));
  const config = loadConfig({
    RAMP_ENV: 'sandbox',
    RAMP_API_KEY: generateApiKey('sandbox'),
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    RAMP_PUBLIC_URL: 'http://ramp.test',
    RAMP_DATA_DIR: '/nonexistent',
    // Tests send far more than any client would, all from one in-process "address": limits out of reach unless a test sets them.
    ...Object.fromEntries(['API_KEY', 'SESSION', 'LINK', 'AUTH_FAILURES', 'ADDRESS', 'DEMO_SESSION'].map((n) => [`RAMP_RATE_LIMIT_${n}`, '1000000/1'])),
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const deps = await bootstrap(config, createLogger('info', sink), { store, files: opts.files ? opts.files(filesDir) : new LocalFileStore(filesDir), settlement: opts.settlement });
  const app = createApp(deps);
  const workers = createWorkers(deps);
  return {
    app,
    deps,
    apiKey: config.RAMP_API_KEY!,
    logs,
    workers,
    async advance(seconds) {
      // Time passes for everyone: every partner's clock moves (in the database, as /v2/sandbox/clock/advance does for one).
      await advanceAllPartnerClocks(store.db, seconds * 1000);
      return workers.runDue();
    },
    async nowFor(partnerId) {
      return new Date(Date.now() + (await partnerClockOffset(store.db, partnerId)));
    },
    async close() {
      await workers.stop();
      try {
        // Every event any test wrote, whatever wrote it, is what the webhooks section documents for its type.
        const mode = process.env.RAMP_CONTRACT ?? 'strict';
        if (mode !== 'off') await checkStoredEvents(store.db).catch((e: Error) => (mode === 'report' ? appendFileSync('contract-violations.txt', `${e.message}\n`) : Promise.reject(e)));
      } finally {
        await drop();
        rmSync(filesDir, { recursive: true, force: true });
      }
    },
  };
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

const contracts = new WeakMap<TestServer, Map<string, Promise<Contract>>>();
/** The contract of the version an answer says it follows (`Ramp-Version`): a pinned answer is checked against its version's document. */
const contractOf = (server: TestServer, answered: string | null): Promise<Contract> => {
  let byVersion = contracts.get(server);
  if (!byVersion) contracts.set(server, (byVersion = new Map()));
  const version = answered && (VERSIONS as readonly string[]).includes(answered) ? (answered as ApiVersion) : LATEST;
  let c = byVersion.get(version);
  if (!c) byVersion.set(version, (c = Promise.resolve(server.app.request('/openapi.json')).then(async (r: Response) => compileContract(documentFor(await r.json(), version)))));
  return c;
};

/**
 * Every /v2 answer is checked against /openapi.json (test/server/contract.ts), and each event GET /v2/events answers
 * against its type's schema (support/event-payloads.ts); a violation fails the request's test.
 * `RAMP_CONTRACT=report` appends violations to `contract-violations.txt` instead (to survey them), `off` skips the check.
 */
async function checkContract(server: TestServer, method: string, path: string, res: Response, body: unknown) {
  const mode = process.env.RAMP_CONTRACT ?? 'strict';
  if (mode === 'off' || !path.startsWith('/v2/')) return;
  const violations = (await contractOf(server, res.headers.get('ramp-version'))).check(method, path, res.status, res.headers, body);
  // The document types an event by its `eventType`; this also names any member of `data` the schema does not (zod's strays).
  if (method === 'GET' && res.status === 200 && /^\/v2\/events(\/[^/?]+)?(\?|$)/.test(path)) {
    const b = body as { data?: unknown };
    for (const e of Array.isArray(b.data) ? (b.data as object[]) : [b]) violations.push(...eventViolations(e).map((v) => `event payload violation: ${v}`));
  }
  if (!violations.length) return;
  if (mode === 'report') appendFileSync('contract-violations.txt', violations.join('\n') + '\n');
  else throw new Error(`contract violation (see /openapi.json):\n${violations.join('\n')}`);
}

/** A client of the app for one API key (or none). */
export function client(server: TestServer, apiKey?: string) {
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await server.app.request(path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    await checkContract(server, method, path, res, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => send('POST', path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => send('PATCH', path, body, headers),
    send,
  };
}

/** A customer's balance of one stablecoin on one chain, as the API reads it (a decimal string). */
export const balanceOf = async (api: ReturnType<typeof client>, id: string, chain = 'POLYGON', coin = 'USDC') =>
  (await api.get(`/v2/customers/${id}?includeBalances=true`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === chain).balances.find((b: { stablecoin: string }) => b.stablecoin === coin).balance as string;

/** A new partner with its own key, so a test's data is its own. */
export async function newPartner(server: TestServer, name = 'Test partner') {
  const res = await client(server, server.apiKey).post('/v2/sandbox/partners', { name });
  if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${res.text}`);
  return { partnerId: res.body.partnerId as string, apiKey: res.body.apiKey as string, api: client(server, res.body.apiKey) };
}

/** A valid numeric CPF (or CNPJ) ending in `lastDigit` when given: the sandbox reads the last digit. */
export function taxIdEndingIn(kind: 'cpf' | 'cnpj', lastDigit?: number): string {
  const body = kind === 'cpf' ? 9 : 12;
  for (;;) {
    const base = Array.from({ length: body }, () => Math.floor(Math.random() * 10)).join('');
    for (let dv = 0; dv < 100; dv++) {
      const v = base + String(dv).padStart(2, '0');
      if ((kind === 'cpf' ? cpf.isValid(v) : cnpj.isValid(v)) && (lastDigit === undefined || v.endsWith(String(lastDigit)))) return v;
    }
  }
}

export const individual = (over: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL',
  name: 'Ana Souza',
  taxId: taxIdEndingIn('cpf'),
  birthDate: '1990-05-17',
  ...over,
});

export const business = (over: Record<string, unknown> = {}) => ({
  type: 'BUSINESS',
  legalName: 'Acme Pagamentos Ltda',
  taxId: taxIdEndingIn('cnpj'),
  incorporationDate: '2015-03-02',
  country: 'BRA',
  email: 'finance@acme.example',
  ...over,
});
