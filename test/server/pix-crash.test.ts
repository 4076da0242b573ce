// Real server processes SIGKILLed between the PSP's answer and our record of it (RAMP_PIX_CRASH_AT, a hook inert unless set
// in sandbox): after Efí accepted a payout, and after the PSP confirmed a received Pix. The next process finds the payout
// or the Pix again by its derived id, and nothing is paid or credited twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { idEnvioOf, refundIdOf, txidOf } from '../../server/domain/pix/pix-psp';
import { PspDouble } from './support/psp-double';
import { apiCaller, approvedCustomer, type Call, eventually, killedBySignal, type ServerProcess, sharedServerEnv, startServerProcess } from './support/server-process';
import { holderAddress } from './transactions-helpers';

const double = new PspDouble();
before(async () => {
  await double.start();
});
after(async () => {
  await double.close();
});

const usdc = (body: any) => body.wallets.find((w: { blockchain: string }) => w.blockchain === 'POLYGON').balances.find((b: { stablecoin: string }) => b.stablecoin === 'USDC').balance as string;

/** The on-ramp reaches SUCCESS on `proc`, its customer's USDC is its receipt's amount (credited once), and the PSP saw only conforming requests. */
async function creditedOnce(call: Call, proc: ServerProcess, onRampId: string, customerId: string): Promise<void> {
  const done = await eventually('SUCCESS', async () => {
    const s = (await call(proc.base, 'GET', `/v2/transactions/${onRampId}`)).body.state;
    return s.status === 'SUCCESS' && s;
  }, proc);
  assert.equal(usdc((await call(proc.base, 'GET', `/v2/customers/${customerId}?includeBalances=true`)).body), done.receipt.targetAmount, 'credited once');
  double.assertConforming();
  await proc.kill();
}

describe('a server process killed between the PSP’s answer and our record', () => {
  test('after Efí accepted the payout: the next process finds it by its idEnvio, sends nothing new, and reaches SUCCESS on REALIZADO', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'pixcrash1');
    const call = apiCaller(apiKey);
    const common = { ...env, ...double.env(), RAMP_SANDBOX_STEP_MS: '50', RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '50', RAMP_PIX_POLL_MS: '100', RAMP_PIX_TIMEOUT_MS: '10000' };
    const a = await startServerProcess({ ...common, RAMP_PIX_CRASH_AT: 'after-payout-sent' });
    const chave = double.env().RAMP_PIX_KEY!;
    const registrations = () => double.calls.filter((x) => x === `PUT /webhook/${chave}`).length;
    const registered = registrations();
    await eventually('the webhook registered by the first process', async () => registrations() > registered, a);
    const webhookUrl = double.webhooks.get(chave);
    const c = await approvedCustomer(call, apiKey, a.base);
    assert.equal((await call(a.base, 'POST', '/v2/sandbox/wallets/fund', { customerId: c.id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '100' })).status, 200);
    const { body: account } = await call(a.base, 'POST', '/v2/bank-accounts', {
      customerId: c.id,
      name: 'Conta',
      type: 'EXTERNAL',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'EVP', keyValue: '123e4567-e12b-42d3-a456-426614174000' },
      holder: { type: 'INDIVIDUAL', relationship: 'SELF', name: c.name, taxId: c.taxId, address: holderAddress },
    });
    await eventually('the account approved', async () => (await call(a.base, 'GET', `/v2/bank-accounts/${account.id}`)).body.holder.verification.status === 'APPROVED', a);
    const { status, body: off } = await call(a.base, 'POST', '/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '25.000000' });
    assert.equal(status, 201, JSON.stringify(off));
    const idEnvio = idEnvioOf(off.id);
    assert.equal(await killedBySignal(a), 'SIGKILL', 'died right after the PSP accepted the payout');
    assert.equal(double.payouts.get(idEnvio)?.status, 'EM_PROCESSAMENTO', 'the PSP has it');

    const b = await startServerProcess(common);
    await eventually('the webhook registered again by the next process', async () => registrations() > registered + 1, b);
    // Each test process has a public URL of its own (its port); the path, with its token, is shared through the database.
    const path = (u: string | undefined) => new URL(u!).pathname;
    assert.equal(path(double.webhooks.get(chave)), path(webhookUrl));
    await eventually('the payout found again', async () => double.calls.includes(`GET /gn/pix/enviados/id-envio/${idEnvio}`), b);
    await double.settlePayout(idEnvio, 'REALIZADO');
    await eventually('SUCCESS', async () => (await call(b.base, 'GET', `/v2/transactions/${off.id}`)).body.state.status === 'SUCCESS', b);
    assert.equal(double.calls.filter((x) => x === `PUT /gn/pix/${idEnvio}`).length, 1, 'sent once, by the process that died');
    assert.equal(usdc((await call(b.base, 'GET', `/v2/customers/${c.id}?includeBalances=true`)).body), '75.000000');
    double.assertConforming();
    await b.kill();
  });

  test('after the PSP created an on-ramp’s charge, before our commit: the same request again (its Idempotency-Key) finds that charge, and one Pix pays one on-ramp', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'pixcrash3');
    const call = apiCaller(apiKey);
    const common = { ...env, ...double.env(), RAMP_SANDBOX_STEP_MS: '50', RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_PIX_POLL_MS: '100', RAMP_PIX_TIMEOUT_MS: '10000' };
    const a = await startServerProcess({ ...common, RAMP_PIX_CRASH_AT: 'after-charge-created' });
    const c = await approvedCustomer(call, apiKey, a.base);
    const body = JSON.stringify({ customerId: c.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });
    const onRamp = (base: string) =>
      fetch(`${base}/v2/transactions/on-ramp`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'on-ramp-crash-1' }, body });
    const before = new Set(double.cobs.keys());
    await assert.rejects(onRamp(a.base), 'the process died before it answered');
    assert.equal(await killedBySignal(a), 'SIGKILL', 'died right after the PSP created the charge');
    const made = [...double.cobs.keys()].filter((k) => !before.has(k));
    assert.equal(made.length, 1, 'the PSP has the charge');

    const b = await startServerProcess(common);
    const res = await onRamp(b.base);
    const on = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(on));
    const cob = double.cobs.get(made[0]!)!;
    assert.equal([...double.cobs.keys()].filter((k) => !before.has(k)).length, 1, 'no second charge');
    assert.equal(on.state.payment.brCode, (double.cobJson(cob) as { pixCopiaECola: string }).pixCopiaECola, 'the on-ramp shows the charge the dead try made');
    const list = await call(b.base, 'GET', `/v2/transactions?customerId=${c.id}&type=ON_RAMP`);
    assert.deepEqual(list.body.data.map((x: { id: string }) => x.id), [on.id], 'one on-ramp');
    await double.pay(made[0]!);
    await creditedOnce(call, b, on.id, c.id);
  });

  test('after the PSP confirmed a received Pix: the next process finds it again by polling and credits it once', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'pixcrash2');
    const call = apiCaller(apiKey);
    const common = { ...env, ...double.env(), RAMP_SANDBOX_STEP_MS: '50', RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_PIX_POLL_MS: '100', RAMP_PIX_TIMEOUT_MS: '10000' };
    const a = await startServerProcess({ ...common, RAMP_PIX_CRASH_AT: 'after-pix-read' });
    const c = await approvedCustomer(call, apiKey, a.base);
    const { status, body: on } = await call(a.base, 'POST', '/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });
    assert.equal(status, 201, JSON.stringify(on));
    // The callback cannot reach this process (RAMP_PUBLIC_URL is not its address): the poller finds the Pix.
    await double.pay(txidOf(on.id));
    assert.equal(await killedBySignal(a), 'SIGKILL', 'died right after the PSP confirmed the Pix');

    const b = await startServerProcess(common);
    await creditedOnce(call, b, on.id, c.id);
  });

  test('after the PSP took a devolução: the next process asks again under the same id, and the Pix is returned once', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'pixcrash3');
    const call = apiCaller(apiKey);
    const common = { ...env, ...double.env(), RAMP_SANDBOX_STEP_MS: '50', RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_PIX_POLL_MS: '100', RAMP_PIX_TIMEOUT_MS: '10000' };
    const a = await startServerProcess({ ...common, RAMP_PIX_CRASH_AT: 'after-refund-asked' });
    t.after(() => (a.child.exitCode === null && a.child.signalCode === null ? a.kill() : undefined));
    const c = await approvedCustomer(call, apiKey, a.base);
    const { status, body: on } = await call(a.base, 'POST', '/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '90.00' });
    assert.equal(status, 201, JSON.stringify(on));
    // More than was due: the poller finds it on the open charge, and it goes back in full.
    const e2e = await double.pay(txidOf(on.id), { valor: '900.00', callback: false });
    const died = await Promise.race([killedBySignal(a), new Promise<string>((r) => setTimeout(() => r('still running after 60 s'), 60_000).unref())]);
    assert.equal(died, 'SIGKILL', 'died right after the PSP took the devolução');
    assert.equal(double.pix.get(e2e)!.devolucoes.length, 1);

    const b = await startServerProcess(common);
    await eventually('the devolução asked again', async () => double.calls.filter((x) => x === `PUT /pix/${e2e}/devolucao/${refundIdOf(e2e)}`).length >= 2, b);
    double.settleRefund(e2e, refundIdOf(e2e), 'DEVOLVIDO');
    await eventually('REFUNDED', async () => (await call(b.base, 'GET', `/v2/transactions/${on.id}`)).body.state.status === 'REFUNDED', b);
    assert.equal(double.pix.get(e2e)!.devolucoes.length, 1, 'returned once');
    double.assertConforming();
    await b.kill();
  });
});
