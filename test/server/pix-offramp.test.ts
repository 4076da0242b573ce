// PIX off-ramps through the PSP's payout API (issue 31, point 5): at TRANSFERRING_FIAT the service sends the Pix with
// Efí's envio de Pix (idEnvio derived from the transaction), reaches SUCCESS only on REALIZADO, and on NAO_REALIZADO (or
// a refusal of the request) returns the stablecoin: REFUNDING → REFUNDED. Against the PSP double, over real HTTP.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { idEnvioOf } from '../../server/domain/pix/pix-psp';
import { payoutOf } from '../../server/store/queries/pix';
import { getTransaction } from '../../server/store/queries/transactions';
import { balanceOf, client, newPartner } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { PspDouble } from './support/psp-double';
import { type PixService, startPixService } from './support/pix-service';
import { selfPixAccount, settle } from './transactions-helpers';

const double = new PspDouble();
let svc: PixService;

before(async () => {
  await double.start();
  svc = await startPixService(double, { RAMP_SANDBOX_STEP_MS: '0' });
  await svc.monitor.runDue(); // the webhook registered (Efí sends nothing from a key without one)
});
after(async () => {
  await svc.close();
  await double.close();
});
afterEach(() => {
  double.dropCallbacks = false;
  double.unavailable = false;
  double.goUp();
  double.assertConforming();
});

async function funded(amount = '100') {
  const p = await newPartner(svc.server);
  const id = await approvedIndividual(svc.server, p.api, p.apiKey);
  await p.api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDC', amount });
  const res = await p.api.post('/v2/bank-accounts', await selfPixAccount(p.api, id));
  assert.equal(res.status, 201, res.text);
  await settle(svc.server, 5);
  return { api: p.api, partnerId: p.partnerId as string, id, account: res.body };
}
type Api = ReturnType<typeof client>;
const state = async (api: Api, id: string) => (await api.get(`/v2/transactions/${id}`)).body.state;
const runJobs = async () => {
  for (let i = 0; i < 20 && (await svc.server.workers.runDue()) > 0; i++);
};
const pollUntil = async (done: () => Promise<boolean>, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('the PIX monitor did not get there in time');
    await runJobs();
    await svc.monitor.runDue();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const offRamp = (api: Api, accountId: string, amount = '25.000000') => api.post('/v2/transactions/off-ramp', { bankAccountId: accountId, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount });

describe('an off-ramp is a payout', () => {
  test('at TRANSFERRING_FIAT the Pix is sent (derived idEnvio, our key, the account key, the BRL amount); SUCCESS only on REALIZADO', async () => {
    const { api, id, account } = await funded();
    const { body: t } = await offRamp(api, account.id);
    const idEnvio = idEnvioOf(t.id);
    await pollUntil(async () => double.payouts.has(idEnvio));
    const sent = double.payouts.get(idEnvio)!;
    assert.equal(sent.favorecido.chave, account.identifier.keyValue);
    assert.equal(sent.pagador.chave, double.env().RAMP_PIX_KEY);
    // In processing: not SUCCESS, however often the monitor looks.
    for (let i = 0; i < 3; i++) await svc.monitor.runDue();
    assert.equal((await state(api, t.id)).status, 'TRANSFERRING_FIAT');
    assert.equal((await payoutOf(svc.server.deps.store.db, idEnvio))?.status, 'SENT');
    await double.settlePayout(idEnvio, 'REALIZADO');
    assert.equal(double.callbacks.at(-1)?.status, 200);
    assert.equal((await state(api, t.id)).status, 'SUCCESS', 'the callback (confirmed with GET …/id-envio) moved it');
    assert.equal(await balanceOf(api, id), '75.000000');
    assert.equal(double.calls.filter((c) => c === `PUT /gn/pix/${idEnvio}`).length, 1);
  });

  test("the amount sent is the off-ramp's BRL amount (finalTargetAmount), two decimals", async () => {
    const { api, account, partnerId } = await funded();
    const { body: t } = await offRamp(api, account.id, '10.000000');
    await pollUntil(async () => double.payouts.has(idEnvioOf(t.id)));
    const row = await getTransaction(svc.server.deps.store.db, partnerId, t.id);
    const due = (row!.quote as { finalTargetAmount: string }).finalTargetAmount;
    assert.match(due, /^\d+\.\d{2}$/);
    assert.equal(double.payouts.get(idEnvioOf(t.id))!.valor, due);
  });

  test('NAO_REALIZADO: REFUNDING then REFUNDED, the stablecoin back in the wallet', async () => {
    const { api, id, account } = await funded();
    const { body: t } = await offRamp(api, account.id);
    await pollUntil(async () => double.payouts.has(idEnvioOf(t.id)));
    assert.equal(await balanceOf(api, id), '75.000000');
    double.dropCallbacks = true; // found by polling
    await double.settlePayout(idEnvioOf(t.id), 'NAO_REALIZADO');
    await pollUntil(async () => (await state(api, t.id)).status === 'REFUNDED');
    assert.equal((await state(api, t.id)).error.code, 'PAYOUT_FAILED');
    assert.equal(await balanceOf(api, id), '100.000000');
  });

  test('a payout the PSP refuses at the request: REFUNDING then REFUNDED, the stablecoin back, nothing paid', async () => {
    const { api, id, account } = await funded();
    double.refusePayoutsAbove = '20.00';
    try {
      const { body: t } = await offRamp(api, account.id);
      await pollUntil(async () => (await state(api, t.id)).status === 'REFUNDED');
      const shown = await state(api, t.id);
      assert.equal(shown.error.code, 'PAYOUT_FAILED');
      assert.match(shown.error.message, /refused/);
      assert.equal(double.payouts.has(idEnvioOf(t.id)), false);
      assert.equal(await balanceOf(api, id), '100.000000');
      assert.equal((await payoutOf(svc.server.deps.store.db, idEnvioOf(t.id)))?.status, 'NAO_REALIZADO');
    } finally {
      double.refusePayoutsAbove = undefined;
    }
  });

  test('the sandbox cannot fake the payout: /fail answers 409 while the PSP has it', async () => {
    const { api, account } = await funded();
    const { body: t } = await offRamp(api, account.id);
    await pollUntil(async () => double.payouts.has(idEnvioOf(t.id)));
    const res = await api.post(`/v2/sandbox/transactions/${t.id}/fail`);
    assert.equal(res.status, 409);
    assert.match(res.body.detail, /PSP/);
  });

  test('the PSP down: the payout waits and is sent once it is back, once', async () => {
    const { api, account } = await funded();
    double.unavailable = true;
    const { body: t } = await offRamp(api, account.id);
    for (let i = 0; i < 5; i++) {
      await runJobs();
      await svc.monitor.runDue();
    }
    assert.equal((await state(api, t.id)).status, 'TRANSFERRING_FIAT');
    assert.match((await payoutOf(svc.server.deps.store.db, idEnvioOf(t.id)))!.lastError ?? '', /503/);
    // /readyz says what waits for the PSP and why, and stays ready (the API and the other rails still serve).
    const ready = await (await svc.server.app.request('/readyz')).json();
    assert.equal(ready.status, 'ready');
    assert.equal(ready.pix.status, 'waiting');
    assert.ok(ready.pix.waiting.some((w: { idEnvio?: string; reason: string }) => w.idEnvio === idEnvioOf(t.id) && /503/.test(w.reason)));
    double.unavailable = false;
    await pollUntil(async () => double.payouts.has(idEnvioOf(t.id)));
    await double.settlePayout(idEnvioOf(t.id), 'REALIZADO');
    await pollUntil(async () => (await state(api, t.id)).status === 'SUCCESS');
    assert.equal(double.calls.filter((c) => c === `PUT /gn/pix/${idEnvioOf(t.id)}`).length, 1);
    // No longer waiting (another test's payout, checked while the PSP was down, may still be listed until its next check).
    const after = (await (await svc.server.app.request('/readyz')).json()).pix;
    assert.ok(!(after.waiting ?? []).some((w: { idEnvio?: string }) => w.idEnvio === idEnvioOf(t.id)));
  });

  test('the PSP slow past our timeout on the payout itself: it takes the payout after we gave up; every later try names the same idEnvio, and one payout is made', async () => {
    const { api, account } = await funded();
    const payoutsBefore = double.payouts.size;
    double.delayMs = 2500;
    double.delayOnly = /^PUT \/gn\/pix\//;
    const { body: t } = await offRamp(api, account.id);
    try {
      await pollUntil(async () => double.calls.includes(`PUT /gn/pix/${idEnvioOf(t.id)}`));
      await new Promise((r) => setTimeout(r, 2700));
    } finally {
      double.delayMs = 0;
      double.delayOnly = undefined;
    }
    assert.ok(double.payouts.has(idEnvioOf(t.id)), 'the PSP took the payout after our request gave up');
    assert.match((await payoutOf(svc.server.deps.store.db, idEnvioOf(t.id)))!.lastError ?? '', /.+/, 'our request gave up');
    await double.settlePayout(idEnvioOf(t.id), 'REALIZADO', { callback: false });
    await pollUntil(async () => (await state(api, t.id)).status === 'SUCCESS');
    // A check while the first request was still inside the PSP asked again with the same idEnvio (the PSP answers 409):
    // whatever the number of tries, one payout.
    assert.equal(double.payouts.size, payoutsBefore + 1, 'one payout for the off-ramp');
  });
});
