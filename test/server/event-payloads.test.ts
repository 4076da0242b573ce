// Every event type the service sends has a `data` that its documented schema (the OpenAPI `webhooks` section) accepts,
// exactly: the flows below write at least one event of each type the sandbox can reach, GET /v2/events reads them back,
// and each is parsed with its type's schema. A missing field, or a field the schema does not name, fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { EVENT_TYPES as DOCUMENTED } from '../../src/contract/webhook-events';
import { EVENT_TYPES as EMITTED } from '../../src/contract/webhooks';
import { TransactionSchema } from '../../src/contract/transactions';
import { pauseFailingEndpoint } from '../../server/flows/webhooks';
import { presentDeposit } from '../../server/presenters';
import { insertDeposit } from '../../server/store/queries/chain-deposits';
import { insertEvent } from '../../server/store/queries/events';
import { events } from '../../server/store/schema/index';
import { client, individual, newPartner, taxIdEndingIn, type TestServer, startTestServer } from './harness';
import { approvedIndividual, readyIndividual } from './kyc-helpers';
import { eventViolations } from './support/event-payloads';
import { pixAccount, selfPixAccount, settle } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

// Transaction statuses the sandbox without a PSP never reaches (an on-ramp's refund is a Pix devolução): their data is
// the same Transaction as every other transaction event's, from the same presenter (lifecycle.ts eventOf).
const PSP_ONLY = ['onramp.refunding', 'onramp.refunded'];

test('the documented event types are exactly the types the service sends', () => {
  assert.deepEqual(DOCUMENTED.map((e) => e.name).sort(), [...EMITTED].sort());
  for (const t of PSP_ONLY) assert.equal(DOCUMENTED.find((e) => e.name === t)!.data, TransactionSchema);
});

test('every event type written by the flows reads back as its documented schema', async () => {
  const { partnerId, apiKey, api } = await newPartner(server);
  // customer.created, under_verification, approved (0), temporary_rejection (2), final_rejection (3).
  const a = await approvedIndividual(server, api, apiKey, 0);
  const b = await approvedIndividual(server, api, apiKey, 0);
  for (const digit of [2, 3]) {
    const id = await readyIndividual(server, api, apiKey, digit);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    await settle(server, 5);
  }
  // bank_account.under_verification, approved, final_rejection (a holder whose taxId ends in 3).
  const own = await api.post('/v2/bank-accounts', await selfPixAccount(api, a));
  assert.equal(own.status, 201, own.text);
  const rejected = await api.post('/v2/bank-accounts', pixAccount(a, { holder: { ...pixAccount(a).holder, taxId: taxIdEndingIn('cpf', 3) } }));
  assert.equal(rejected.status, 201, rejected.text);
  await settle(server, 5);
  // onramp: to SUCCESS, and one FAILED.
  const buy = () => api.post('/v2/transactions/on-ramp', { customerId: a, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });
  const paid = await buy();
  assert.equal(paid.status, 201, paid.text);
  await api.post(`/v2/sandbox/transactions/${paid.body.id}/pay`);
  const failed = await buy();
  await api.post(`/v2/sandbox/transactions/${failed.body.id}/fail`);
  // offramp: to SUCCESS, and one REFUNDED.
  await api.post('/v2/sandbox/wallets/fund', { customerId: a, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '100' });
  await api.post('/v2/sandbox/wallets/fund', { customerId: a, blockchain: 'BASE', stablecoin: 'USDT', amount: '100' });
  await settle(server, 5);
  const sell = () => api.post('/v2/transactions/off-ramp', { bankAccountId: own.body.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '10.000000' });
  const sold = await sell();
  assert.equal(sold.status, 201, sold.text);
  const refunded = await sell();
  await api.post(`/v2/sandbox/transactions/${refunded.body.id}/fail`);
  // transfer: SUCCESS, and one FAILED.
  const send = () => api.post('/v2/transactions/transfer', { currency: 'USDT', from: a, to: b, amount: '5', blockchain: 'BASE' });
  assert.equal((await send()).status, 201);
  const failing = await send();
  await api.post(`/v2/sandbox/transactions/${failing.body.id}/fail`);
  await settle(server);
  // webhook.test, webhook_endpoint.paused.
  const ep = await api.post('/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' });
  assert.equal(ep.status, 201, ep.text);
  assert.equal((await api.post(`/v2/webhook-endpoints/${ep.body.id}/test`)).status, 202);
  assert.ok(await pauseFailingEndpoint(server.deps.store.db, ep.body.id, 20, await server.nowFor(partnerId)));
  // deposit.confirmed: the row and event the chain watcher writes (chain-deposits.test.ts runs the watcher itself).
  const wallet = (await api.get(`/v2/customers/${a}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE');
  const at = await server.nowFor(partnerId);
  const deposit = await insertDeposit(
    server.deps.store.db,
    { partnerId, customerId: a, blockchain: 'BASE', asset: 'USDC', token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', fromAddress: '0x52908400098527886E0F7030069857D2E4169EE7', toAddress: wallet.address, value: '1.500000', amount: '1500000', transactionHash: `0x${'ab'.repeat(32)}`, logIndex: 0, blockNumber: 19000000n, blockHash: `0x${'cd'.repeat(32)}` },
    at,
  );
  await insertEvent(server.deps.store.db, { partnerId, customerId: a, eventType: 'deposit.confirmed', data: presentDeposit(deposit!, true) }, at);

  // Read back through the API: the harness's client parses each event with its type's schema; here each is checked again by name.
  const seen = new Set<string>();
  for (let cursor: string | undefined; ; ) {
    const page = await api.get(`/v2/events?size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, page.text);
    for (const e of page.body.data) {
      assert.deepEqual(eventViolations(e), [], JSON.stringify(e));
      seen.add(e.eventType);
    }
    if (!page.body.pagination.hasNextPage) break;
    cursor = page.body.pagination.nextCursor;
  }
  const missing = EMITTED.filter((t) => !seen.has(t) && !PSP_ONLY.includes(t));
  assert.deepEqual(missing, [], 'every type the sandbox can reach was produced');
  // The customer events carry no verification link, and the document says so.
  const c = (await api.get(`/v2/events?customerId=${a}&eventType=customer.approved`)).body.data[0];
  assert.equal(c.data.verification.link, undefined);
  assert.ok(!JSON.stringify(c).includes('/verify/'));
});

test('a payload missing a required field, with a field the schema does not name, or of an unknown type fails the check', async () => {
  const { api } = await newPartner(server);
  const id = (await api.post('/v2/customers', individual())).body.id;
  const [created] = (await api.get(`/v2/events?customerId=${id}`)).body.data;
  assert.deepEqual(eventViolations(created), []);
  const { taxId: _, ...noTaxId } = created.data;
  assert.match(eventViolations({ ...created, data: noTaxId }).join('\n'), /data\.taxId/);
  assert.match(eventViolations({ ...created, data: { ...created.data, verification: { ...created.data.verification, link: 'http://ramp.test/verify/x' } } }).join('\n'), /data\.verification\.link is not in the documented schema/);
  assert.match(eventViolations({ ...created, data: { ...created.data, secret: 'x' } }).join('\n'), /data\.secret is not in the documented schema/);
  assert.match(eventViolations({ ...created, eventType: 'customer.deleted' }).join('\n'), /not a documented event type/);
  // A stored event that breaks its schema fails the read that returns it (the harness's client) and the server's close.
  const { db } = server.deps.store;
  await db.update(events).set({ data: noTaxId }).where(eq(events.id, created.eventId));
  await assert.rejects(api.get(`/v2/events/${created.eventId}`), /event payload violation[\s\S]*data\.taxId/);
  const other = await startTestServer();
  try {
    const p = await newPartner(other);
    await client(other, p.apiKey).post('/v2/customers', individual());
    await other.deps.store.db.update(events).set({ data: { ...noTaxId, extra: 1 } });
  } finally {
    await assert.rejects(other.close(), /event payload violation[\s\S]*data\.taxId/);
  }
  // Put back, so this server's own close passes.
  await db.update(events).set({ data: created.data }).where(eq(events.id, created.eventId));
});
