// Tenancy sweep: every by-id route of /openapi.json and of /bff, called with real ids of another partner (or customer), answers 404 and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { webhookDispatcher } from '../../server/workers/webhooks';
import { business, client, newPartner, type Reply, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, approvedIndividual, businessInfo, individualInfo, PNG } from './kyc-helpers';
import { pixAccount } from './transactions-helpers';

type Ids = Record<'customer' | 'business' | 'party' | 'verification' | 'bankAccount' | 'partnerFee' | 'transaction' | 'event' | 'endpoint' | 'quote', string>;
type Op = { method: string; template: string };

let server: TestServer;
let doc: { paths: Record<string, Record<string, { parameters?: { in: string }[]; requestBody?: unknown }>> };
/** Partner A (the bootstrap partner, so that its widget sessions reach the BFF) owns everything in `ids`. */
let ids: Ids;
let partnerA: string;
/** A widget session of another of A's customers (a business), who owns nothing in `ids`. */
let otherSession: string;

before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '600000' });
  doc = (await client(server).get('/openapi.json')).body;
  partnerA = server.deps.partnerId!;
  const api = client(server, server.apiKey);
  const ok = (r: Reply, what: string) => {
    assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const endpoint = ok(await api.post('/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' }), 'endpoint').id;
  const customer = await approvedIndividual(server, api, server.apiKey);
  // A CNPJ ending in 1 stays NOT_STARTED, so its party stays editable: a tenancy hole would answer 200, not 409.
  const biz = ok(await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 1) })), 'business').id;
  ok(await api.patch(`/v2/customers/${biz}/additional-information`, businessInfo()), 'business information');
  const party = ok(await api.post(`/v2/customers/${biz}/associated-parties`, ubo()), 'party').id;
  const verification = ok(await api.get(`/v2/customers/${customer}/verifications`), 'verifications').data[0].id;
  const bankAccount = ok(await api.post('/v2/bank-accounts', pixAccount(customer)), 'bank account').id;
  const partnerFee = ok(await api.post('/v2/partner-fees', fee()), 'partner fee').id;
  const quote = ok(await api.post('/v2/exchange-rates', { customerId: customer, type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' }), 'quote').id;
  const transaction = ok(await api.post('/v2/transactions/on-ramp', { customerId: customer, purpose: 'INVESTMENT', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' }), 'transaction').id;
  const event = ok(await api.get(`/v2/events?customerId=${customer}&size=1`), 'events').data[0].eventId;
  // One attempt in the endpoint's log (port 9 refuses), so that a foreign read of the log would have something to show.
  await webhookDispatcher(server.deps).runDue();
  ids = { customer, business: biz, party, verification, bankAccount, partnerFee, transaction, event, endpoint, quote };
  for (const [k, v] of Object.entries(ids)) assert.match(String(v), /^[0-9a-f-]{36}$/, `fixture ${k}`);
  // A business of its own, so that its session's party routes reach the party lookup (an individual is refused before it).
  const other = ok(await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 1) })), 'other customer').id;
  otherSession = ok(await api.post('/v2/widget-sessions', { customerId: other }), 'session').token;
});
after(() => server.close());

const ubo = () => ({ type: 'INDIVIDUAL', roles: ['UBO'], ownershipPercentage: '40', name: 'Carla Dias', taxId: taxIdEndingIn('cpf'), birthDate: '1980-01-01', email: 'carla@acme.example', address });
const fee = () => ({ name: 'Fee', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } } });

/**
 * How to fill each templated path of the document with A's ids. A path the document gains without an entry here fails the
 * sweep: nobody adds a by-id route that this file does not call.
 */
const V2_PATHS: Record<string, (i: Ids) => Record<string, string>> = {
  '/v2/customers/{id}': (i) => ({ id: i.customer }),
  '/v2/customers/{id}/additional-information': (i) => ({ id: i.customer }),
  '/v2/customers/{id}/documents': (i) => ({ id: i.customer }),
  '/v2/customers/{id}/associated-parties': (i) => ({ id: i.business }),
  '/v2/customers/{id}/associated-parties/{partyId}': (i) => ({ id: i.business, partyId: i.party }),
  '/v2/customers/{id}/verifications': (i) => ({ id: i.customer }),
  '/v2/customers/{id}/verifications/{verificationId}': (i) => ({ id: i.customer, verificationId: i.verification }),
  '/v2/customers/{id}/transaction-limits': (i) => ({ id: i.customer }),
  '/v2/partner-fees/{id}': (i) => ({ id: i.partnerFee }),
  '/v2/bank-accounts/{id}': (i) => ({ id: i.bankAccount }),
  '/v2/transactions/{id}': (i) => ({ id: i.transaction }),
  '/v2/events/{id}': (i) => ({ id: i.event }),
  '/v2/events/{id}/redeliver': (i) => ({ id: i.event }),
  '/v2/webhook-endpoints/{id}': (i) => ({ id: i.endpoint }),
  '/v2/webhook-endpoints/{id}/rotate-secret': (i) => ({ id: i.endpoint }),
  '/v2/webhook-endpoints/{id}/deliveries': (i) => ({ id: i.endpoint }),
  '/v2/webhook-endpoints/{id}/test': (i) => ({ id: i.endpoint }),
  '/v2/sandbox/customers/{id}/liveness': (i) => ({ id: i.customer }),
  '/v2/sandbox/customers/{id}/review': (i) => ({ id: i.customer }),
  '/v2/sandbox/transactions/{id}/pay': (i) => ({ id: i.transaction }),
  '/v2/sandbox/transactions/{id}/fail': (i) => ({ id: i.transaction }),
};

/** Valid bodies, so that a 404 is about the id and never about the body. */
const V2_BODIES: Record<string, () => unknown> = {
  'PATCH /v2/customers/{id}/additional-information': () => individualInfo(),
  'POST /v2/customers/{id}/documents': () => {
    const form = new FormData();
    form.set('type', 'BANK_STATEMENT');
    form.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'statement.png');
    return form;
  },
  'POST /v2/customers/{id}/associated-parties': ubo,
  'PATCH /v2/customers/{id}/associated-parties/{partyId}': () => ({ name: 'Mallory' }),
  'PUT /v2/customers/{id}/transaction-limits': () => ({ single: '1000.00', daily: '2000.00', monthly: '5000.00' }),
  'PATCH /v2/webhook-endpoints/{id}': () => ({ url: 'http://127.0.0.1:9/stolen', enabled: false }),
  'POST /v2/webhook-endpoints/{id}/rotate-secret': () => ({ gracePeriodSeconds: 0 }),
  'POST /v2/sandbox/customers/{id}/review': () => ({ outcome: 'FINAL_REJECTION' }),
};

const BFF_PATHS: Record<string, (i: Ids) => Record<string, string>> = {
  '/bff/customer/associated-parties/{partyId}': (i) => ({ partyId: i.party }),
  '/bff/transactions/{id}': (i) => ({ id: i.transaction }),
  '/bff/bank-accounts/{id}': (i) => ({ id: i.bankAccount }),
  '/bff/sandbox/transactions/{id}/pay': (i) => ({ id: i.transaction }),
};
const BFF_BODIES: Record<string, () => unknown> = { 'PATCH /bff/customer/associated-parties/{partyId}': () => ({ name: 'Mallory' }) };

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
/** A read without its verification links, which carry a fresh token on every read. */
const withoutLinks = (v: unknown): unknown => JSON.parse(JSON.stringify(v), (k, x) => (k === 'link' ? undefined : x));
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** Every operation of the document whose path has a path parameter. */
function templatedOperations(): Op[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m) && /\{\w+\}/.test(template))
      .map((m) => ({ method: m.toUpperCase(), template })),
  );
}

/** The app's own routes with a `:param` under `prefix`, as `METHOD /path/{param}`. */
function appRoutes(prefix: string): string[] {
  return sorted(server.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith(prefix) && r.path.includes('/:')).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`));
}

async function send(token: string, method: string, path: string, body: unknown): Promise<Reply> {
  if (body instanceof FormData) {
    const res = await server.app.request(path, { method, headers: { authorization: `Bearer ${token}` }, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  }
  return client(server, token).send(method, path, body);
}

/** Every row of partner A, table by table, as one digest each: any write to A's data shows. */
async function digestOfA(): Promise<Record<string, string>> {
  const res = (await server.deps.store.db.execute(sql`SELECT table_name FROM information_schema.columns WHERE column_name = 'partner_id' AND table_schema = current_schema() ORDER BY table_name`)) as unknown as { rows: { table_name: string }[] };
  const tables = res.rows.map((r) => r.table_name);
  for (const t of ['customers', 'associated_parties', 'bank_accounts', 'transactions', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts']) assert.ok(tables.includes(t), `${t} is among the tables checked`);
  const out: Record<string, string> = {};
  for (const { table_name } of res.rows) {
    const r = (await server.deps.store.db.execute(sql`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${sql.identifier(table_name)} t WHERE partner_id = ${partnerA}`)) as unknown as { rows: { n: number; h: string }[] };
    out[table_name] = `${r.rows[0]!.n}:${r.rows[0]!.h}`;
  }
  return out;
}

/** Calls each operation with A's ids under `token`; answers what was covered and every answer that was not a 404 NOT_FOUND. */
async function sweep(token: string, ops: Op[], paths: Record<string, (i: Ids) => Record<string, string>>, bodies: Record<string, () => unknown>) {
  const covered: string[] = [];
  const wrong: string[] = [];
  for (const { method, template } of ops) {
    const values = paths[template]?.(ids);
    if (!values) continue;
    const path = fill(template, values);
    assert.doesNotMatch(path, /\{/, `${template}: a parameter without a value`);
    const res = await send(token, method, path, bodies[`${method} ${template}`]?.());
    covered.push(`${method} ${template}`);
    if (res.status !== 404 || res.body?.code !== 'NOT_FOUND') wrong.push(`${method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
  }
  return { covered, wrong };
}

describe('tenancy: by-id routes', () => {
  test("another partner's key gets 404 from every /v2 operation with a path parameter, for ids that exist, and changes nothing", async () => {
    const ops = templatedOperations();
    // The document and the app agree on the by-id routes, so an undocumented one cannot hide from the sweep.
    assert.deepEqual(sorted(ops.map((o) => `${o.method} ${o.template}`)), appRoutes('/v2/'));
    assert.deepEqual(sorted(Object.keys(V2_PATHS)), sorted(ops.map((o) => o.template)), 'every templated path of /openapi.json has a fill here, and no stale one');
    for (const key of Object.keys(V2_BODIES)) assert.ok(ops.some((o) => `${o.method} ${o.template}` === key), `stale body for ${key}`);

    // A reads everything first: the ids are real, so a 404 below is tenancy, not absence.
    const api = client(server, server.apiKey);
    const reads = ops.filter((o) => o.method === 'GET');
    const readAll = async () => Promise.all(reads.map(async (o) => [o.template, await api.get(fill(o.template, V2_PATHS[o.template]!(ids)))] as const));
    const before = await readAll();
    for (const [t, r] of before) assert.equal(r.status, 200, `A reads its own ${t}: ${r.text}`);
    const rows = await digestOfA();

    const b = await newPartner(server, 'Partner B');
    const { covered, wrong } = await sweep(b.apiKey, ops, V2_PATHS, V2_BODIES);
    assert.deepEqual(wrong, [], 'every foreign id is a 404 NOT_FOUND');
    assert.deepEqual(sorted(covered), sorted(ops.map((o) => `${o.method} ${o.template}`)));

    assert.deepEqual(await digestOfA(), rows, "no row of A's changed");
    const afterwards = await readAll();
    for (const [i, [t, r]] of afterwards.entries()) assert.deepEqual(withoutLinks(r.body), withoutLinks(before[i]![1].body), `A's ${t} is as it was`);
  });

  test("another customer's widget session gets 404 from every /bff route with an id, and changes nothing", async () => {
    const routes = appRoutes('/bff/');
    assert.deepEqual(sorted(routes.map((r) => r.split(' ')[1]!)), sorted(Object.keys(BFF_PATHS)), 'every /bff route with an id has a fill here, and no stale one');
    const ops = routes.map((r) => ({ method: r.split(' ')[0]!, template: r.split(' ')[1]! }));
    const rows = await digestOfA();
    const { covered, wrong } = await sweep(otherSession, ops, BFF_PATHS, BFF_BODIES);
    assert.deepEqual(wrong, [], 'every id of another customer is a 404 NOT_FOUND');
    assert.deepEqual(sorted(covered), routes);
    assert.deepEqual(await digestOfA(), rows, "no row of A's changed");
    const api = client(server, server.apiKey);
    assert.equal((await api.get(`/v2/transactions/${ids.transaction}`)).body.state.status, 'AWAITING_FUNDS', 'not paid through a foreign session');
    assert.equal((await api.get(`/v2/bank-accounts/${ids.bankAccount}`)).status, 200, 'not deleted through a foreign session');
  });
});

describe('tenancy: ids in bodies and filters', () => {
  test("another partner's ids in a request body are 404 naming the field; as a list filter they find nothing", async () => {
    const b = await newPartner(server, 'Partner B');
    const mine = await approvedIndividual(server, b.api, b.apiKey);
    const i = ids;
    const quote = { type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' };
    const onRamp = { purpose: 'INVESTMENT', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' };
    const transfer = { currency: 'USDC', amount: '0.000001', blockchain: 'ETHEREUM' };
    const cases: [string, unknown, string][] = [
      ['/v2/exchange-rates', { customerId: i.customer, ...quote }, 'customerId'],
      ['/v2/exchange-rates', { customerId: mine, partnerFeeId: i.partnerFee, ...quote }, 'partnerFeeId'],
      ['/v2/bank-accounts', pixAccount(i.customer), 'customerId'],
      ['/v2/transactions/on-ramp', { customerId: i.customer, ...onRamp }, 'customerId'],
      ['/v2/transactions/on-ramp', { customerId: mine, exchangeRateId: i.quote, purpose: 'INVESTMENT' }, 'exchangeRateId'],
      ['/v2/transactions/off-ramp', { bankAccountId: i.bankAccount, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1.000000' }, 'bankAccountId'],
      ['/v2/transactions/transfer', { from: i.customer, to: '0x52908400098527886E0F7030069857D2E4169EE7', ...transfer }, 'from'],
      ['/v2/transactions/transfer', { from: mine, to: i.customer, ...transfer }, 'to'],
      ['/v2/widget-sessions', { customerId: i.customer }, 'customerId'],
      ['/v2/sandbox/wallets/fund', { customerId: i.customer, blockchain: 'ETHEREUM', stablecoin: 'USDC', amount: '1.000000' }, 'customerId'],
    ];
    const rows = await digestOfA();
    for (const [path, body, field] of cases) {
      const res = await b.api.post(path, body);
      assert.equal(res.status, 404, `${path} with A's ${field}: ${res.text}`);
      assert.deepEqual(res.body.errors?.map((e: { path: string }) => e.path), [field], `${path}: ${res.text}`);
    }
    const api = client(server, server.apiKey);
    for (const list of ['/v2/bank-accounts', '/v2/transactions', '/v2/events']) {
      assert.ok((await api.get(`${list}?customerId=${i.customer}`)).body.data.length > 0, `A has ${list}`);
      assert.deepEqual((await b.api.get(`${list}?customerId=${i.customer}`)).body.data, [], `B filtering ${list} by A's customer`);
    }
    assert.deepEqual(await digestOfA(), rows, "no row of A's changed");
  });
});
