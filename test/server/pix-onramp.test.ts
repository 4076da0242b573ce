// PIX on-ramps through a real PSP (issue 31, points 1–4), against the PSP double over HTTPS with client certificates and
// the service on a real port for its callbacks: the webhook registered at start, the charge as the payment, callbacks
// only as hints, lost callbacks found by polling, expiry removing the charge, late or extra money returned in full.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { chargeBackoffMs } from '../../server/flows/pix/charges';
import { refundIdOf, txidOf } from '../../server/domain/pix/pix-psp';
import { client } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { PspDouble } from './support/psp-double';
import { scaledMs } from '../support/server-child';
import { type PixService, startPixService } from './support/pix-service';

const double = new PspDouble();
let svc: PixService;
let api: ReturnType<typeof client>;
let customerId: string;

before(async () => {
  await double.start();
  svc = await startPixService(double, { RAMP_SANDBOX_STEP_MS: '0' });
  api = client(svc.server, svc.server.apiKey);
  customerId = await approvedIndividual(svc.server, api, svc.server.apiKey);
});
after(async () => {
  await svc.close();
  await double.close();
});
afterEach(() => {
  double.dropCallbacks = false;
  double.delayMs = 0;
  double.goUp();
  double.assertConforming();
});

const onRamp = (sourceAmount = '150.00', headers: Record<string, string> = {}) =>
  api.post('/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount }, headers);
const status = async (id: string) => (await api.get(`/v2/transactions/${id}`)).body.state.status as string;
/** Runs the job worker until nothing is due (the steps after the payment run at once: RAMP_SANDBOX_STEP_MS=0). */
const runJobs = async () => {
  for (let i = 0; i < 20 && (await svc.server.workers.runDue()) > 0; i++);
};
/** Runs the PIX monitor until `done` holds (each charge's next check comes after its back-off). */
const pollUntil = async (done: () => Promise<boolean>, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('the PIX monitor did not get there in time');
    await svc.monitor.runDue();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const rows = async (q: ReturnType<typeof sql>) => {
  const r = await svc.server.deps.store.db.execute(q);
  return ((r as unknown as { rows?: Record<string, unknown>[] }).rows ?? (r as unknown as Record<string, unknown>[])) as Record<string, any>[];
};

describe('webhook registration', () => {
  test('at start the webhook is registered under RAMP_PUBLIC_URL with an unguessable token; registering again is the same', async () => {
    await svc.monitor.runDue();
    const url = double.webhooks.get(double.env().RAMP_PIX_KEY!)!;
    assert.match(url, new RegExp(`^${svc.base}/psp/pix/[A-Za-z0-9_-]{32}$`));
    const { pixMonitor } = await import('../../server/workers/pix-monitor');
    await pixMonitor(svc.server.deps)!.runDue();
    assert.equal(double.webhooks.get(double.env().RAMP_PIX_KEY!), url);
    // A wrong token is nobody's callback.
    const res = await fetch(url.replace(/[A-Za-z0-9_-]{32}$/, 'x'.repeat(32)) + '/pix', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"pix":[]}' });
    assert.equal(res.status, 404);
    // Hostile bodies at the right path: not JSON, 10,000 levels deep, far too large. None is a 5xx.
    for (const [body, want] of [['not json', 200], ['['.repeat(10_000) + ']'.repeat(10_000), 200], ['{"pix":[' + '{"endToEndId":"x"},'.repeat(30_000) + '{}]}', 413]] as const) {
      const hostile = await fetch(`${url}/pix`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(hostile.status, want, body.slice(0, 20));
    }
  });
});

describe('webhook registration with the PSP down at start', () => {
  test('the monitor keeps going (payments are still polled) and registers once the PSP is back', async () => {
    const { pixMonitor } = await import('../../server/workers/pix-monitor');
    const fresh = pixMonitor(svc.server.deps)!;
    const puts = () => double.calls.filter((c) => c.startsWith('PUT /webhook/')).length;
    const before = puts();
    double.goDown();
    await fresh.runDue();
    double.goUp();
    assert.equal(puts(), before, 'nothing reached the PSP while it was down');
    await fresh.runDue();
    assert.equal(puts(), before + 1);
    await fresh.runDue();
    assert.equal(puts(), before + 1, 'registered once per process');
  });
});

describe('an on-ramp is a charge', () => {
  test('PUT /cob/{txid} with the derived txid, the window, the amount, our key and the customer; brCode is its pixCopiaECola', async () => {
    const { status: code, body: t } = await onRamp('150.00');
    assert.equal(code, 201);
    const cob = double.cobs.get(txidOf(t.id))!;
    assert.ok(cob, 'the charge is at the PSP under the txid derived from the transaction');
    assert.equal(t.state.payment.brCode, cob.pixCopiaECola);
    assert.equal(cob.valor.original, '150.00');
    assert.equal(cob.calendario.expiracao, 900);
    assert.equal(cob.chave, double.env().RAMP_PIX_KEY);
    const { body: customer } = await api.get(`/v2/customers/${customerId}`);
    assert.deepEqual(cob.devedor, { cpf: customer.taxId.replace(/\D/g, ''), nome: customer.name });
  });

  test('a paid charge takes the on-ramp to SUCCESS, confirmed with the PSP, with no sandbox helper', async () => {
    const { body: t } = await onRamp('80.00');
    await svc.monitor.runDue(); // the webhook registered
    const e2e = await double.pay(txidOf(t.id));
    assert.equal(double.callbacks.at(-1)?.status, 200);
    assert.ok(double.calls.includes(`GET /pix/${e2e}`), 'the callback was confirmed with GET /pix/{e2eid}');
    assert.equal(await status(t.id), 'TRANSFERRING_FIAT');
    await runJobs();
    assert.equal(await status(t.id), 'SUCCESS');
    assert.deepEqual(await rows(sql`SELECT kind FROM ledger_movements WHERE reference = ${t.id}`), [{ kind: 'on_ramp.success' }]);
  });

  test('a Pix whose callback comes while the PSP does not answer our reads: nothing moves on the callback; the poller finds it once the PSP is back, and it is credited once', async () => {
    const { body: t } = await onRamp('81.00');
    const before = await status(t.id);
    double.goDown();
    const e2e = await double.pay(txidOf(t.id));
    assert.equal(await status(t.id), before, 'an unconfirmed callback moves nothing');
    double.goUp();
    await pollUntil(async () => (await status(t.id)) !== before);
    await runJobs();
    assert.equal(await status(t.id), 'SUCCESS');
    // The callback again (the PSP retries it), and more passes of the poller: still one credit.
    const cob = double.cobs.get(txidOf(t.id))!;
    await double.notify(cob.chave, { pix: [{ endToEndId: e2e, txid: txidOf(t.id), valor: '81.00', chave: cob.chave, horario: double.pix.get(e2e)!.horario }] });
    for (let i = 0; i < 3; i++) await svc.monitor.runDue();
    assert.deepEqual(await rows(sql`SELECT kind FROM ledger_movements WHERE reference = ${t.id}`), [{ kind: 'on_ramp.success' }]);
    assert.deepEqual((await rows(sql`SELECT e2eid FROM pix_receipts WHERE transaction_id = ${t.id}`)).map((r) => r.e2eid), [e2e]);
  });

  test('the sandbox cannot fake a PIX payment when the PSP is configured: 409 saying so', async () => {
    const { body: t } = await onRamp('12.00');
    const res = await api.post(`/v2/sandbox/transactions/${t.id}/pay`);
    assert.equal(res.status, 409);
    assert.match(res.body.detail, /PSP/);
    assert.equal(await status(t.id), 'AWAITING_FUNDS');
  });
});

describe('a callback is only a hint', () => {
  test('a forged callback (a Pix the PSP does not have) credits nothing; a replayed one nothing more', async () => {
    const { body: t } = await onRamp('30.00');
    await svc.monitor.runDue();
    const url = `${double.webhooks.get(double.env().RAMP_PIX_KEY!)}/pix`;
    const forged = { pix: [{ endToEndId: `E12345678${'2'.repeat(23)}`, txid: txidOf(t.id), valor: '30.00', horario: new Date().toISOString() }] };
    assert.equal((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forged) })).status, 200);
    assert.equal(await status(t.id), 'AWAITING_FUNDS');

    const e2e = await double.pay(txidOf(t.id));
    assert.equal(await status(t.id), 'TRANSFERRING_FIAT');
    const replay = double.callbacks.at(-1)!.body;
    for (let i = 0; i < 3; i++) await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(replay) });
    const receipts = await rows(sql`SELECT e2eid, outcome FROM pix_receipts WHERE transaction_id = ${t.id}`);
    assert.deepEqual(receipts, [{ e2eid: e2e, outcome: 'CREDITED' }]);
    const events = (await api.get(`/v2/events?size=100`)).body.data.filter((e: any) => e.data?.id === t.id && e.eventType === 'onramp.transferring_fiat');
    assert.equal(events.length, 1);
  });

  test('a lost callback: the open charge is polled and the payment found', async () => {
    const { body: t } = await onRamp('45.00');
    double.dropCallbacks = true;
    await double.pay(txidOf(t.id));
    assert.equal(await status(t.id), 'AWAITING_FUNDS');
    await pollUntil(async () => (await status(t.id)) === 'TRANSFERRING_FIAT');
  });

  test('polling backs off from the poll interval to at most 30 s, so a payment is found within two minutes', () => {
    const pauses = Array.from({ length: 40 }, (_, i) => chargeBackoffMs(i, 5000));
    assert.equal(pauses[0], 5000);
    assert.ok(pauses.every((p, i) => i === 0 || p >= pauses[i - 1]!));
    assert.equal(Math.max(...pauses), 30_000);
  });

  test('a token that expires mid-run is renewed and the payment still found', async () => {
    const { body: t } = await onRamp('46.00');
    double.dropCallbacks = true;
    await double.pay(txidOf(t.id));
    double.expireTokens();
    await pollUntil(async () => (await status(t.id)) === 'TRANSFERRING_FIAT');
  });
});

describe('the PSP down or slow when an on-ramp is created', () => {
  for (const [what, breakIt] of [
    ['down', () => double.goDown()],
    ['slow past the timeout', () => (double.delayMs = 2500)],
  ] as const) {
    test(`${what}: 503 with Retry-After and nothing behind (no transaction, no reservation, no charge)`, async () => {
      const before = { tx: (await rows(sql`SELECT count(*)::int AS n FROM transactions`))[0]!.n, res: (await rows(sql`SELECT count(*)::int AS n FROM limit_reservations`))[0]!.n, cobs: double.cobs.size };
      breakIt();
      const started = Date.now();
      const key = { 'idempotency-key': `pix-${what.replaceAll(' ', '-')}-${Date.now()}` };
      const res = await onRamp('20.00', key);
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'PSP_UNAVAILABLE');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.ok(Date.now() - started < scaledMs(2400), 'answered within the PSP timeout');
      double.goUp();
      double.delayMs = 0;
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal((await rows(sql`SELECT count(*)::int AS n FROM transactions`))[0]!.n, before.tx);
      assert.equal((await rows(sql`SELECT count(*)::int AS n FROM limit_reservations`))[0]!.n, before.res);
      // A slow PSP carries the request out after we gave up: that charge exists at the PSP, but nothing of ours names it
      // and no one was shown its BR Code (it expires there unpaid; reconcile would name any Pix paid into it).
      const late = [...double.cobs.keys()].slice(before.cobs);
      assert.equal(late.length, what === 'down' ? 0 : 1);
      for (const txid of late) assert.deepEqual(await rows(sql`SELECT txid FROM pix_charges WHERE txid = ${txid}`), []);
      // The same request again, with the same Idempotency-Key, once the PSP is back: created (a 503 is never replayed), on
      // the charge the slow PSP made after we gave up when there is one (its txid comes from the key), else a new one.
      const again = await onRamp('20.00', key);
      assert.equal(again.status, 201, again.text);
      const [charge] = await rows(sql`SELECT txid FROM pix_charges WHERE transaction_id = ${again.body.id}`);
      assert.equal(double.cobs.get(charge!.txid)?.status, 'ATIVA');
      assert.deepEqual([...double.cobs.keys()].slice(before.cobs), [charge!.txid], 'one charge for the request, however many tries');
    });
  }
});

describe('one Idempotency-Key, many copies at once', () => {
  test('30 copies of one on-ramp with the same key: one transaction, one charge at the PSP, every answer the same on-ramp', async () => {
    const key = { 'idempotency-key': `pix-copies-${Date.now()}` };
    const cobs = double.cobs.size;
    const answers = await Promise.all(Array.from({ length: 30 }, () => onRamp('33.00', key)));
    const statuses = [...new Set(answers.map((a) => a.status))];
    assert.deepEqual(statuses, [201], answers.map((a) => `${a.status} ${a.body?.code ?? ''}`).join(', '));
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 1, 'every copy answers the same on-ramp');
    assert.equal(double.cobs.size, cobs + 1, 'one charge at the PSP');
    const [id] = ids;
    assert.deepEqual(await rows(sql`SELECT count(*)::int AS n FROM pix_charges WHERE transaction_id = ${id}`), [{ n: 1 }]);
    assert.deepEqual(await rows(sql`SELECT count(*)::int AS n FROM limit_reservations WHERE reference = ${id}`), [{ n: 1 }]);
  });
});

describe('expiry and late or extra money', () => {
  test('an on-ramp that expires unpaid removes its charge (REMOVIDA_PELO_USUARIO_RECEBEDOR)', async () => {
    const { body: t } = await onRamp('60.00');
    await svc.server.advance(901);
    assert.equal(await status(t.id), 'FAILED');
    await pollUntil(async () => double.cobs.get(txidOf(t.id))!.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  test('money for an expired on-ramp is returned in full with a derived devolução id: REFUNDING, then REFUNDED when the PSP says DEVOLVIDO', async () => {
    const { body: t } = await onRamp('61.00');
    await svc.server.advance(901);
    assert.equal(await status(t.id), 'FAILED');
    // The payer's bank read the BR Code before it closed; the money comes after (the double accepts it).
    const e2e = await double.pay(txidOf(t.id));
    assert.equal(await status(t.id), 'REFUNDING');
    await pollUntil(async () => (double.pix.get(e2e)!.devolucoes.length > 0));
    for (let i = 0; i < 3; i++) await svc.monitor.runDue();
    // The record of the answer lost (as a crash between the PSP's answer and our write would lose it): asked again with
    // the same derived id, which the PSP answers with the same devolução.
    await svc.server.deps.store.db.execute(sql`UPDATE pix_receipts SET refund_status = NULL WHERE e2eid = ${e2e}`);
    await svc.monitor.runDue();
    assert.equal(double.calls.filter((c) => c === `PUT /pix/${e2e}/devolucao/${refundIdOf(e2e)}`).length, 2);
    const refunds = double.pix.get(e2e)!.devolucoes;
    assert.equal(refunds.length, 1, 'one devolução, however often the monitor runs or asks');
    assert.equal(refunds[0]!.id, refundIdOf(e2e));
    assert.equal(refunds[0]!.valor, '61.00');
    const shown = (await api.get(`/v2/transactions/${t.id}`)).body.state;
    assert.match(shown.error.message, /EM_PROCESSAMENTO/);
    double.settleRefund(e2e, refundIdOf(e2e), 'DEVOLVIDO');
    await pollUntil(async () => (await status(t.id)) === 'REFUNDED');
    assert.match((await api.get(`/v2/transactions/${t.id}`)).body.state.error.message, /DEVOLVIDO/);
  });

  test('the PSP down when a Pix is to be returned: the on-ramp stays REFUNDING, and once it is back one devolução is asked', async () => {
    const { body: t } = await onRamp('62.00');
    await svc.server.advance(901);
    const e2e = await double.pay(txidOf(t.id));
    assert.equal(await status(t.id), 'REFUNDING');
    double.goDown();
    for (let i = 0; i < 3; i++) await svc.monitor.runDue();
    assert.equal(double.pix.get(e2e)!.devolucoes.length, 0);
    assert.equal(await status(t.id), 'REFUNDING');
    double.goUp();
    await pollUntil(async () => double.pix.get(e2e)!.devolucoes.length > 0);
    for (let i = 0; i < 3; i++) await svc.monitor.runDue();
    assert.equal(double.pix.get(e2e)!.devolucoes.length, 1, 'one devolução, however many passes failed before');
    double.settleRefund(e2e, refundIdOf(e2e), 'DEVOLVIDO');
    await pollUntil(async () => (await status(t.id)) === 'REFUNDED');
  });

  test('more than was due is returned in full and credits nothing', async () => {
    const { body: t } = await onRamp('70.00');
    const e2e = await double.pay(txidOf(t.id), { valor: '700.00' });
    assert.equal(await status(t.id), 'REFUNDING');
    await pollUntil(async () => double.pix.get(e2e)!.devolucoes.length === 1);
    assert.equal(double.pix.get(e2e)!.devolucoes[0]!.valor, '700.00');
    // No stablecoin for it: not a single ledger movement refers to this on-ramp (a paid one has its SUCCESS movement).
    assert.deepEqual(await rows(sql`SELECT kind FROM ledger_movements WHERE reference = ${t.id}`), []);
    const receipts = await rows(sql`SELECT outcome FROM pix_receipts WHERE transaction_id = ${t.id}`);
    assert.deepEqual(receipts, [{ outcome: 'REFUND' }]);
  });
});
