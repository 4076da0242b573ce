// Fuzz property over every operation of /openapi.json and every /bff route: hostile bodies, params and queries (NUL,
// control characters, 10,000-deep nesting, 1 MB strings, emoji/RTL/combining marks, wrong types) never answer 5xx, every
// refusal is an RFC 9457 problem (a VALIDATION_FAILED with a code and a pointer on each errors[] entry), and a refused
// request writes no row. Seed with FUZZ_SEED, size with FUZZ_RUNS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { FIELD_ERROR_CODES, fromPointer } from '../../src/contract/field-codes';
import { business, client, individual, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, approvedIndividual, businessInfo, individualInfo, PNG } from './kyc-helpers';
import { pixAccount } from './transactions-helpers';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/** Bounded runtime: each operation stops early once its share of this budget is spent. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 30_000);

const TABLES = [
  'partners',
  'api_keys',
  'customers',
  'associated_parties',
  'documents',
  'verifications',
  'wallets',
  'bank_accounts',
  'partner_fees',
  'exchange_rates',
  'transactions',
  'ledger_movements',
  'ledger_entries',
  'limit_overrides',
  'limit_reservations',
  'events',
  'jobs',
  'idempotency_keys',
];

type Schema = Record<string, any>;
interface Operation {
  id: string;
  method: string;
  /** With `{name}` placeholders. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  body?: { kind: 'json' | 'multipart'; schema: Schema };
  /** Which client sends it. */
  as: 'api' | 'bff' | 'onboarding';
}
interface Req {
  method: string;
  url: string;
  body?: string | FormData;
  contentType?: string;
}

let server: TestServer;
let doc: Schema;
const ids: Record<string, string[]> = {};
let sessions: { bff: string; onboarding: string };

before(async () => {
  server = await startTestServer();
  const api = client(server, server.apiKey);
  doc = await (await server.app.request('/openapi.json')).json();
  // Real resources, so generated ids reach the handlers and not only the 404 path.
  const customerId = await approvedIndividual(server, api, server.apiKey);
  const other = (await api.post('/v2/customers', individual())).body.id as string;
  const account = await api.post('/v2/bank-accounts', pixAccount(customerId));
  const feeRes = await api.post('/v2/partner-fees', {
    name: 'Fuzz fee',
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } },
  });
  const tx = await api.post('/v2/transactions/on-ramp', { customerId, purpose: 'INVESTMENT', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });
  const verifications = await api.get(`/v2/customers/${customerId}/verifications`);
  const biz = (await api.post('/v2/customers', business())).body.id as string;
  assert.equal((await api.patch(`/v2/customers/${biz}/additional-information`, businessInfo())).status, 200);
  ids.customer = [customerId, other];
  ids.business = [biz];
  ids.bankAccount = [account.body.id];
  ids.partnerFee = [feeRes.body.id];
  ids.transaction = [tx.body.id];
  ids.verification = (verifications.body.data ?? []).map((v: { id: string }) => v.id);
  for (const [k, v] of Object.entries(ids)) assert.ok(v.length && v.every(Boolean), `fixture ${k} missing: ${JSON.stringify(ids)}`);
  sessions = {
    bff: (await api.post('/v2/widget-sessions', { customerId })).body.token,
    onboarding: (await api.post('/v2/widget-sessions', {})).body.token,
  };
});
after(() => server.close());

const resolve = (s: Schema | undefined): Schema => {
  let out = s ?? {};
  for (let i = 0; out.$ref && i < 10; i++) out = doc.components.schemas[String(out.$ref).split('/').pop()!] ?? {};
  return out;
};

/** Every operation in the document. */
function openApiOperations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      const params: Schema[] = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const kind = content['application/json'] ? 'json' : content['multipart/form-data'] ? 'multipart' : undefined;
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: kind ? { kind, schema: content[kind === 'json' ? 'application/json' : 'multipart/form-data'].schema } : undefined,
        as: 'api',
      });
    }
  }
  return ops;
}

/** The /bff routes (a plain Hono app, not in the document), with the contract schema each forwards to /v2. */
function bffOperations(): Operation[] {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const page = [
    { name: 'size', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'cursor', schema: { type: 'string' } },
  ];
  const op = (method: string, path: string, o: Partial<Operation> = {}): Operation => ({
    id: `bff ${method} ${path}`,
    method,
    path,
    pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    query: [],
    as: 'bff',
    ...o,
  });
  return [
    op('GET', '/bff/session'),
    op('GET', '/bff/customer'),
    op('PATCH', '/bff/customer/additional-information', { body: { kind: 'json', schema: ref('AdditionalInformation') } }),
    op('GET', '/bff/customer/documents'),
    op('POST', '/bff/customer/documents', { body: { kind: 'multipart', schema: ref('UploadDocument') } }),
    op('GET', '/bff/customer/associated-parties'),
    op('POST', '/bff/customer/associated-parties', { body: { kind: 'json', schema: ref('CreateAssociatedParty') } }),
    op('GET', '/bff/customer/verifications'),
    op('POST', '/bff/customer/verifications'),
    op('POST', '/bff/exchange-rates', { body: { kind: 'json', schema: ref('QuoteRequest') } }),
    op('POST', '/bff/customers', { body: { kind: 'json', schema: ref('CreateCustomer') }, as: 'onboarding' }),
    op('POST', '/bff/transactions/on-ramp', { body: { kind: 'json', schema: ref('OnRampRequest') } }),
    op('POST', '/bff/transactions/off-ramp', { body: { kind: 'json', schema: ref('OffRampRequest') } }),
    op('POST', '/bff/transactions/transfer', { body: { kind: 'json', schema: ref('TransferRequest') } }),
    op('GET', '/bff/transactions', { query: page }),
    op('GET', '/bff/transactions/{id}'),
    op('GET', '/bff/bank-accounts', { query: page }),
    op('POST', '/bff/bank-accounts', { body: { kind: 'json', schema: ref('CreateBankAccount') } }),
    op('DELETE', '/bff/bank-accounts/{id}'),
    op('POST', '/bff/sandbox/transactions/{id}/pay'),
  ];
}

// Hostile values. DEEP stands for a 10,000-deep JSON value, spliced into the serialised body (JSON.stringify cannot build it).
const DEEP = '\u0000__deep__';
const DEEP_JSON = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
const controlStrings = fc.constantFrom('\u0000', 'Ana\u0000Souza', '\u0000\u0000', 'a\u0001b', '\u0007\u001b[31m', '\u007f', 'x\u0085y', '\u009b', '\ud800', 'lone\udfff', 'line\nbreak', 'tab\there');
const unicodeStrings = fc.constantFrom('💸🚀👩‍👩‍👧‍👦', 'مرحبا بالعالم', '\u202eevil\u202c', 'e\u0301\u0301\u0301\u0301', 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇', '\ufeff\u200b\u200d', '１２３４５');
const oddStrings = fc.constantFrom(' padded ', '', '%', '_', '%00', '\\', "'; drop table customers; --", '9'.repeat(400), 'x'.repeat(100_000));
const hostileString = fc.oneof({ weight: 5, arbitrary: controlStrings }, { weight: 2, arbitrary: unicodeStrings }, { weight: 2, arbitrary: oddStrings });
const HUGE = 'x'.repeat(1024 * 1024);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constant(DEEP) },
  { weight: 1, arbitrary: fc.constant(HUGE) },
  { weight: 2, arbitrary: fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, true, false, null, [], {}, [null], { '\u0000': 1 }, { 'k\u0001': 'v' }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const maybeHostile = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: hostile });

/** Plausible values, so that one hostile field often sits among valid ones and reaches deep code. */
function stringFor(s: Schema, name: string): fc.Arbitrary<string> {
  const pool = (k: string) => fc.constantFrom(...(ids[k] ?? []));
  if (s.format === 'uuid') {
    const kind = /bankAccount/i.test(name) ? 'bankAccount' : /partnerFee/i.test(name) ? 'partnerFee' : /exchangeRate|transaction/i.test(name) ? 'transaction' : 'customer';
    return fc.oneof(pool(kind), fc.uuid());
  }
  if (s.format === 'date') return fc.constantFrom('1990-05-17', '2015-03-02', '1990-02-30', '2999-01-01');
  if (s.format === 'date-time') return fc.constant('2026-01-01T00:00:00Z');
  if (s.format === 'email') return fc.constantFrom('ana@example.com', 'a@b.co');
  if (s.format === 'uri' || s.format === 'url') return fc.constantFrom('https://shop.example.com', 'http://localhost:3000');
  if (s.format === 'binary') return fc.constant('file');
  if (/taxId/i.test(name)) return fc.constantFrom('529.982.247-25', '11.222.333/0001-81', '52998224725');
  if (/amount|rate|volume|revenue|percentage/i.test(name)) return fc.constantFrom('100.00', '10', '0', '1000.000000', '-1', '1e5');
  if (/country/i.test(name)) return fc.constantFrom('BRA', 'USA', 'DEU');
  if (/walletAddress|^to$/.test(name)) return fc.constantFrom('0x52908400098527886E0F7030069857D2E4169EE7', ...(ids.customer ?? []));
  if (s.example !== undefined && typeof s.example === 'string') return fc.oneof(fc.constant(s.example), fc.string({ maxLength: 20 }));
  return fc.string({ maxLength: 20 });
}

function arbFor(schema: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const alts = s.oneOf ?? s.anyOf;
  if (Array.isArray(alts)) return fc.oneof(...alts.map((a: Schema) => arbFor(a, name, depth + 1)));
  if (Array.isArray(s.allOf)) return arbFor(Object.assign({}, ...s.allOf.map(resolve), { allOf: undefined }), name, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      if (!Object.keys(props).length) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, maybeHostile(arbFor(v, k, depth + 1))]));
      return fc.record(shape, { requiredKeys: (s.required ?? []).filter((k: string) => k in props) });
    }
    case 'array':
      return fc.array(maybeHostile(arbFor(s.items, name, depth + 1)), { maxLength: 3 });
    case 'integer':
    case 'number':
      return fc.integer({ min: s.minimum ?? -10, max: Math.min(s.maximum ?? 100_000, 2 ** 31) });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringFor(s, name);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A valid body per operation: mutating one of its leaves makes the hostile value reach the handler and the database. */
function templates(): Record<string, () => unknown> {
  const customerId = ids.customer![0]!;
  const meta = { ref: 'u_1', nested: { tier: 'gold', tags: ['a', 'b'] } };
  const party = () => ({
    type: 'INDIVIDUAL',
    roles: ['UBO'],
    ownershipPercentage: '40',
    name: 'Carla Dias',
    taxId: taxIdEndingIn('cpf'),
    birthDate: '1980-01-01',
    email: 'carla@acme.example',
    address,
  });
  const quote = { type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' };
  const onRamp = { purpose: 'INVESTMENT', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' };
  const offRamp = { bankAccountId: ids.bankAccount![0], purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1.000000' };
  const { customerId: _, ...bffAccount } = pixAccount(customerId);
  return {
    createCustomer: () => individual({ email: 'ana@example.com', country: 'BRA', metadata: meta }),
    updateAdditionalInformation: () => individualInfo(),
    createAssociatedParty: party,
    createExchangeRate: () => ({ customerId, ...quote }),
    createPartnerFee: () => ({
      name: 'Fee',
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } },
    }),
    createBankAccount: () => pixAccount(customerId),
    createOnRamp: () => ({ customerId, ...onRamp }),
    createOffRamp: () => offRamp,
    createTransfer: () => ({ currency: 'USDC', from: customerId, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '0.000001', blockchain: 'ETHEREUM' }),
    createWidgetSession: () => ({ customerId, allowedOrigins: ['https://shop.example.com'], expiresIn: 900 }),
    setTransactionLimits: () => ({ single: '1000.00', daily: '2000.00', monthly: '5000.00' }),
    sandboxCreatePartner: () => ({ name: 'Fuzz partner' }),
    sandboxFundWallet: () => ({ customerId, blockchain: 'ETHEREUM', stablecoin: 'USDC', amount: '1.000000' }),
    sandboxAdvanceClock: () => ({ seconds: 1 }),
    sandboxReview: () => ({ outcome: 'APPROVED' }),
    'bff POST /bff/customers': () => individual({ metadata: meta }),
    'bff PATCH /bff/customer/additional-information': () => individualInfo(),
    'bff POST /bff/customer/associated-parties': party,
    'bff POST /bff/exchange-rates': () => quote,
    'bff POST /bff/transactions/on-ramp': () => onRamp,
    'bff POST /bff/transactions/off-ramp': () => offRamp,
    'bff POST /bff/bank-accounts': () => bffAccount,
    'bff POST /bff/transactions/transfer': () => ({ currency: 'USDC', to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '0.000001', blockchain: 'ETHEREUM' }),
  };
}

/** Every path to a value inside `v` (objects and arrays included), so one can be replaced. */
function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

/** The template with one value replaced by a hostile one, or (as a key) a hostile key added beside it. */
function mutate(template: unknown, pick: number, value: unknown, asKey: boolean): unknown {
  const copy = structuredClone(template);
  const all = pathsOf(copy).filter((p) => p.length > 0);
  const leaves = all.filter((p) => typeof p.reduce<any>((o, k) => o[k], copy) === 'string');
  // Mostly a text leaf (where NUL and friends matter), sometimes any value or container.
  const paths = pick % 4 === 0 || !leaves.length ? all : leaves;
  pick = Math.floor(pick / 4);
  const path = paths[pick % paths.length]!;
  let parent = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  if (asKey && !Array.isArray(parent)) parent[typeof value === 'string' ? value.slice(0, 60) || '\u0000' : '\u0000'] = 'v';
  else parent[path.at(-1)!] = value;
  return copy;
}

/** Serialises a body that may hold the DEEP marker; hostile text may also replace the whole body. */
const serialise = (v: unknown): string => JSON.stringify(v).replaceAll(JSON.stringify(DEEP), DEEP_JSON);
const wholeBodyHostile = fc.oneof(
  fc.constantFrom('[]', 'null', '"text"', '42', 'true', '{', '{"a":1,}', '\u0000', '{"\\u0000":1}', DEEP_JSON, '['.repeat(5000) + ']'.repeat(5000)),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** A path segment; a lone surrogate cannot be percent-encoded, so it goes out as the bytes of an invalid UTF-8 sequence. */
function encodeSegment(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

function requestArb(op: Operation): fc.Arbitrary<Req> {
  const template = templates()[op.id];
  const pathParam = (name: string) =>
    maybeHostile(
      fc.oneof(
        fc.constantFrom(
          ...(name === 'verificationId'
            ? ids.verification!
            : /associated-parties/.test(op.path)
              ? [...ids.business!, ...ids.customer!]
              : /bank-accounts/.test(op.path)
              ? ids.bankAccount!
              : /partner-fees/.test(op.path)
                ? ids.partnerFee!
                : /transactions/.test(op.path)
                  ? ids.transaction!
                  : ids.customer!),
        ),
        fc.uuid(),
      ),
    );
  const params = fc.tuple(...op.pathParams.map(pathParam));
  const query = fc.tuple(
    fc.array(fc.tuple(fc.constantFrom(...(op.query.length ? op.query : [{ name: 'size', schema: {} }])), fc.integer({ min: 0, max: 3 }).map((n) => n === 0)), {
      maxLength: op.query.length ? 3 : 1,
    }).chain((picked) =>
      fc.tuple(...picked.map(([q, hostileValue]) => (hostileValue ? hostile : arbFor(q.schema, q.name)).map((v) => [q.name, v] as const))),
    ),
    fc.option(fc.tuple(hostileString, hostileString), { freq: 8 }),
  );
  const body: fc.Arbitrary<Pick<Req, 'body' | 'contentType'>> = ['GET', 'DELETE'].includes(op.method)
    ? fc.constant({})
    : !op.body
    ? fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: wholeBodyHostile.map((b) => ({ body: b, contentType: 'application/json' })) })
    : op.body.kind === 'json'
      ? fc.oneof(
          ...(template
            ? [
                {
                  weight: 8,
                  arbitrary: fc
                    .tuple(fc.nat(), hostile, fc.integer({ min: 0, max: 5 }).map((n) => n === 0))
                    .map(([pick, value, asKey]) => ({ body: serialise(mutate(template(), pick, value, asKey)), contentType: 'application/json' })),
                },
              ]
            : []),
          { weight: 3, arbitrary: arbFor(op.body.schema).map((b) => ({ body: serialise(b), contentType: 'application/json' })) },
          { weight: 1, arbitrary: hostile.map((b) => ({ body: b === undefined ? '' : serialise(b), contentType: 'application/json' })) },
          { weight: 1, arbitrary: wholeBodyHostile.map((b) => ({ body: b, contentType: 'application/json' })) },
        )
      : fc.oneof(
          {
            weight: 5,
            arbitrary: fc
              .record({
                type: maybeHostile(fc.constantFrom('BANK_STATEMENT', 'ID_CARD', 'PASSPORT', 'SELFIE')),
                side: fc.option(maybeHostile(fc.constantFrom('FRONT_SIDE', 'BACK_SIDE'))),
                country: fc.option(maybeHostile(fc.constant('BRA'))),
                associatedPartyId: fc.option(maybeHostile(fc.uuid())),
                fileName: fc.oneof(fc.constant('statement.png'), hostileString),
              })
              .map((f) => {
                const form = new FormData();
                for (const k of ['type', 'side', 'country', 'associatedPartyId'] as const) {
                  const v = f[k];
                  if (v !== null && v !== undefined && v !== DEEP) form.set(k, typeof v === 'string' ? v.slice(0, 2000) : JSON.stringify(v));
                }
                form.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), f.fileName.slice(0, 300));
                return { body: form };
              }),
          },
          { weight: 1, arbitrary: wholeBodyHostile.map((b) => ({ body: b, contentType: 'application/json' })) },
        );
  return fc.tuple(params, query, body).map(([values, [pairs, extra], b]) => {
    let url = op.path;
    op.pathParams.forEach((name, i) => {
      const v = values[i];
      url = url.replace(`{${name}}`, encodeSegment(v === DEEP ? 'deep' : typeof v === 'string' ? v.slice(0, 2000) : String(JSON.stringify(v))));
    });
    const qs = new URLSearchParams();
    for (const [k, v] of pairs) qs.append(k, v === DEEP ? DEEP_JSON.slice(0, 5000) : typeof v === 'string' ? v.slice(0, 5000) : JSON.stringify(v) ?? '');
    if (extra) qs.append(extra[0].slice(0, 100), extra[1].slice(0, 1000));
    const search = qs.toString();
    return { method: op.method, url: search ? `${url}?${search}` : url, ...b };
  });
}

async function counts(): Promise<Record<string, number>> {
  const select = TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ');
  const res = (await server.deps.store.db.execute(sql.raw(`select ${select}`))) as unknown as { rows: Record<string, number>[] };
  return Object.fromEntries(Object.entries(res.rows[0]!).map(([k, v]) => [k, Number(v)]));
}

/**
 * Every VALIDATION_FAILED names its fields: errors[] is not empty, and each entry has a code of the table and an RFC 6901
 * pointer to the place its dotted path names (`(body)` is the whole body, pointer "").
 */
function assertActionable(problem: Record<string, any>, what: string): void {
  if (problem.code !== 'VALIDATION_FAILED') return;
  const errors = problem.errors as { path: string; pointer: unknown; code: unknown }[] | undefined;
  assert.ok(Array.isArray(errors) && errors.length > 0, `VALIDATION_FAILED without errors[] for ${what}: ${JSON.stringify(problem).slice(0, 400)}`);
  for (const e of errors) {
    assert.ok((FIELD_ERROR_CODES as readonly unknown[]).includes(e.code), `errors[].code ${String(e.code)} not in the table for ${what}: ${JSON.stringify(e).slice(0, 300)}`);
    assert.equal(typeof e.pointer, 'string', `no pointer for ${what}: ${JSON.stringify(e).slice(0, 300)}`);
    const segments = fromPointer(e.pointer as string);
    assert.ok(segments, `errors[].pointer ${String(e.pointer)} is not an RFC 6901 pointer for ${what}`);
    // The whole body is the pointer "" and the path `(body)`; a field named "" is the pointer "/" and the path "".
    assert.equal(e.pointer === '' ? '(body)' : segments.join('.'), e.path, `pointer ${String(e.pointer)} and path ${e.path} disagree for ${what}`);
  }
}

const show = (r: Req) => `${r.method} ${r.url.slice(0, 300)} ${typeof r.body === 'string' ? r.body.slice(0, 300) : r.body ? '(multipart)' : ''}`;

/** Sends one request as the fuzz does and checks the same three rules; answers the status. */
async function check(op: Operation, body: string, contentType = 'application/json'): Promise<number> {
  const token = op.as === 'api' ? server.apiKey : op.as === 'bff' ? sessions.bff : sessions.onboarding;
  let url = op.path;
  for (const name of op.pathParams) url = url.replace(`{${name}}`, /associated-parties/.test(op.path) ? ids.business![0]! : ids.customer![0]!);
  const before = await counts();
  const res = await server.app.request(url, { method: op.method, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
  const text = await res.text();
  const what = `${op.method} ${url} ${body.slice(0, 200)}`;
  assert.ok(res.status < 500, `${res.status} for ${what}: ${text.slice(0, 400)}`);
  if (res.status >= 400) {
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = JSON.parse(text);
    assert.equal(problem.status, res.status);
    assert.equal(typeof problem.type, 'string');
    assertActionable(problem, what);
    assert.deepEqual(await counts(), before, `a refused ${what} (${res.status}) wrote rows`);
  }
  return res.status;
}

test('sweep: NUL in each text field, 10,000-deep nesting and a 1 MB string in each body of every operation with a body', async (t) => {
  const ops = [...openApiOperations(), ...bffOperations()].filter((o) => o.body?.kind === 'json');
  const all = templates();
  // An operation without a valid template is still fuzzed from its schema below; give it one so the sweep reaches each field.
  const missing = ops.filter((o) => !all[o.id]).map((o) => o.id);
  if (missing.length) t.diagnostic(`no template (schema-generated bodies only): ${missing.join(', ')}`);
  for (const op of ops) {
    const template = all[op.id];
    if (!template) continue;
    const sample = template();
    const leaves = pathsOf(sample).filter((p) => p.length && typeof p.reduce<any>((o, k) => o[k], sample) === 'string');
    for (const path of leaves) {
      const body = structuredClone(template()) as any;
      let parent = body;
      for (const k of path.slice(0, -1)) parent = parent[k];
      parent[path.at(-1)!] = `x\u0000${parent[path.at(-1)!]}`;
      const status = await check(op, JSON.stringify(body));
      assert.equal(status, 400, `NUL in ${path.join('.')} of ${op.id} answered ${status}`);
    }
    assert.equal(await check(op, JSON.stringify(template()).replace(/}$/, `,"deep":${DEEP_JSON}}`)), 400, `deep body of ${op.id}`);
    assert.equal(await check(op, JSON.stringify({ ...(template() as object), huge: HUGE })), 413, `1 MB body of ${op.id}`);
  }
});

test(`fuzz: every operation of /openapi.json and every /bff route (FUZZ_SEED=${SEED})`, async (t) => {
  t.diagnostic(`FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
  const ops = [...openApiOperations(), ...bffOperations()];
  const v2Ops = ops.filter((o) => o.as === 'api');
  assert.ok(v2Ops.length >= 30, `the document lists ${v2Ops.length} operations`);
  const started = Date.now();
  const perOp = BUDGET_MS / ops.length;
  let sent = 0;
  let last: Record<string, number> | undefined;
  for (const [index, op] of ops.entries()) {
    const opStarted = Date.now();
    const token = op.as === 'api' ? server.apiKey : op.as === 'bff' ? sessions.bff : sessions.onboarding;
    await t.test(op.id, async () => {
      await fc.assert(
        fc.asyncProperty(requestArb(op), async (req) => {
          if (Date.now() - opStarted > 2 * perOp || Date.now() - started > BUDGET_MS) return; // over budget: skip the rest
          sent++;
          const before = last ?? (await counts());
          const headers: Record<string, string> = { authorization: `Bearer ${token}` };
          if (req.contentType) headers['content-type'] = req.contentType;
          const res = await server.app.request(req.url, { method: req.method, headers, body: req.body });
          const text = await res.text();
          if (process.env.FUZZ_DEBUG) t.diagnostic(`${res.status} ${show(req).slice(0, 400)} → ${text.slice(0, 400)}`);
          assert.ok(res.status < 500, `${res.status} for ${show(req)}: ${text.slice(0, 500)}`);
          if (res.status >= 400) {
            assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, `${res.status} without a problem body for ${show(req)}`);
            const problem = JSON.parse(text);
            assert.equal(typeof problem.type, 'string');
            assert.equal(typeof problem.title, 'string');
            assert.equal(problem.status, res.status);
            assertActionable(problem, show(req));
          }
          // No worker runs and requests go one at a time, so this count is the next request's "before".
          last = await counts();
          if (res.status >= 400) assert.deepEqual(last, before, `a refused ${show(req)} (${res.status}) wrote rows: ${text.slice(0, 300)}`);
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
  t.diagnostic(`${sent} requests over ${ops.length} operations in ${Date.now() - started} ms`);
});
