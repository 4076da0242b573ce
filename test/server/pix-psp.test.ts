// The PSP adapter (BACEN's API Pix for receiving, Efí's envio de Pix for payouts) against the repo's PSP double over HTTPS
// with client certificates: every request it sends conforms to the standard's schemas, tokens are cached and renewed,
// and failures are told apart as "unreachable, retry later" or "refused".
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { loadConfig } from '../../server/config';
import { idEnvioOf, PspRefusedError, PspUnavailableError, refundIdOf, txidOf } from '../../server/domain/pix/pix-psp';
import { pixPsp } from '../../server/providers/pix';
import { newId } from '../../server/ids';
import { PKI, PspDouble } from './support/psp-double';
import { scaledMs } from '../support/server-child';

const double = new PspDouble();
let psp: ReturnType<typeof pixPsp>;
const adapter = (env: Record<string, string> = {}) => pixPsp(loadConfig(double.env({ RAMP_PIX_TIMEOUT_MS: '1500', ...env })).pix!);

before(async () => {
  await double.start();
  psp = adapter();
});
after(async () => {
  psp.close();
  await double.close();
});
afterEach(() => {
  // A non-conforming request fails the test that sent it; the tests that send one on purpose empty the list themselves.
  const rejected = double.rejections.splice(0);
  double.delayMs = 0;
  double.unavailable = false;
  double.goUp();
  if (rejected.length) throw new Error(`non-conforming requests: ${JSON.stringify(rejected)}`);
});

const charge = (id = newId(), valor = '150.00') => ({ txid: txidOf(id), expiracao: 900, valor, chave: psp.chave, devedor: { cpf: '52998224725', nome: 'Maria Silva' }, solicitacaoPagador: 'Ramp on-ramp' });

describe('API Pix: charges, received Pix, refunds, webhook', () => {
  test('a charge is created with a derived txid, read back, paid and removed', async () => {
    const req = charge();
    assert.match(req.txid, /^[a-zA-Z0-9]{26,35}$/);
    const created = await psp.createCharge(req);
    assert.equal(created.status, 'ATIVA');
    assert.equal(created.valor, '150.00');
    assert.equal(created.expiracao, 900);
    assert.match(created.pixCopiaECola!, /^000201.*br\.gov\.bcb\.pix/);
    assert.equal((await psp.getCharge(req.txid))?.status, 'ATIVA');
    assert.equal(await psp.getCharge(txidOf(newId())), null);

    const e2e = await double.pay(req.txid);
    const paid = await psp.getCharge(req.txid);
    assert.equal(paid?.status, 'CONCLUIDA');
    assert.deepEqual(paid?.pix.map((p) => [p.endToEndId, p.valor]), [[e2e, '150.00']]);
    const pix = await psp.getPix(e2e);
    assert.equal(pix?.txid, req.txid);
    assert.equal(await psp.getPix(`E${'0'.repeat(31)}`), null);

    const other = charge(newId(), '10.50');
    await psp.createCharge(other);
    assert.equal((await psp.removeCharge(other.txid)).status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
    // The double keeps what the standard says: a removed charge cannot be removed again, and that is a refusal.
    await assert.rejects(psp.removeCharge(other.txid), (err) => err instanceof PspRefusedError && err.status === 400);
  });

  test('a business debtor goes as a CNPJ; a charge created twice is refused, not duplicated', async () => {
    const req = { ...charge(), devedor: { cnpj: '11222333000181', nome: 'Empresa Ltda' } };
    await psp.createCharge(req);
    await assert.rejects(psp.createCharge(req), (err) => err instanceof PspRefusedError && err.status === 400 && /já existe/.test(err.message));
    assert.equal([...double.cobs.keys()].filter((k) => k === req.txid).length, 1);
  });

  test('received Pix are listed across pages', async () => {
    const from = new Date(Date.now() - 1000);
    const ours = new Set<string>();
    for (let i = 0; i < 105; i++) ours.add(await double.receiveWithoutCharge(psp.chave, '1.00'));
    const list = await psp.listReceived({ inicio: from, fim: new Date(Date.now() + 1000) });
    assert.equal(list.filter((p) => ours.has(p.endToEndId)).length, 105);
    assert.equal(new Set(list.map((p) => p.endToEndId)).size, list.length);
    assert.equal(double.calls.filter((c) => c === 'GET /pix').length >= 2, true);
  });

  test('a refund with a derived id is asked for once however often it is asked, and read back with its status', async () => {
    const req = charge();
    await psp.createCharge(req);
    const e2e = await double.pay(req.txid, { valor: '200.00' });
    const id = refundIdOf(e2e);
    assert.match(id, /^[a-zA-Z0-9]{1,35}$/);
    const first = await psp.refund({ e2eid: e2e, id, valor: '200.00', descricao: 'Ramp: on-ramp closed' });
    const again = await psp.refund({ e2eid: e2e, id, valor: '200.00', descricao: 'Ramp: on-ramp closed' });
    assert.equal(first.status, 'EM_PROCESSAMENTO');
    assert.equal(again.rtrId, first.rtrId);
    assert.equal(double.pix.get(e2e)!.devolucoes.length, 1);
    double.settleRefund(e2e, id, 'DEVOLVIDO');
    assert.equal((await psp.getRefund(e2e, id))?.status, 'DEVOLVIDO');
    assert.equal(await psp.getRefund(e2e, 'Dnothing'), null);
  });

  test('the webhook is configured for our key', async () => {
    await psp.configureWebhook(psp.chave, 'https://ramp.example/psp/pix/tok3n');
    await psp.configureWebhook(psp.chave, 'https://ramp.example/psp/pix/tok3n');
    assert.equal(double.webhooks.get(psp.chave), 'https://ramp.example/psp/pix/tok3n');
  });
});

describe("Efí's envio de Pix", () => {
  test('a payout with a derived idEnvio is sent once, read back, and settles REALIZADO or NAO_REALIZADO', async () => {
    await psp.configureWebhook(psp.chave, 'http://127.0.0.1:9/unused');
    const idEnvio = idEnvioOf(newId());
    assert.match(idEnvio, /^[a-zA-Z0-9]{1,35}$/);
    const sent = await psp.sendPayout({ idEnvio, valor: '99.90', pagadorChave: psp.chave, favorecidoChave: 'maria@example.com', infoPagador: 'Ramp off-ramp' });
    assert.equal(sent.status, 'EM_PROCESSAMENTO');
    assert.match(sent.e2eId!, /^E/);
    // Sent again (a retry): Efí refuses the idEnvio, so nothing is paid twice; the outcome is read back instead.
    await assert.rejects(psp.sendPayout({ idEnvio, valor: '99.90', pagadorChave: psp.chave, favorecidoChave: 'maria@example.com' }), (err) => err instanceof PspRefusedError && err.status === 409);
    assert.equal(double.payouts.size >= 1, true);
    await double.settlePayout(idEnvio, 'REALIZADO');
    assert.deepEqual(await psp.getPayout(idEnvio), { idEnvio, e2eId: sent.e2eId, valor: '99.90', status: 'REALIZADO' });
    assert.equal(await psp.getPayout(idEnvioOf(newId())), null);

    const refused = idEnvioOf(newId());
    await psp.sendPayout({ idEnvio: refused, valor: '15.00', pagadorChave: psp.chave, favorecidoChave: '+5511999990000' });
    await double.settlePayout(refused, 'NAO_REALIZADO');
    assert.equal((await psp.getPayout(refused))?.status, 'NAO_REALIZADO');
  });
});

describe('tokens', () => {
  test('one token serves many calls; a token revoked mid-run is renewed once and the call goes through', async () => {
    const p = adapter();
    try {
      const before = double.tokensIssued.length;
      for (let i = 0; i < 5; i++) await p.getCharge(txidOf(newId()));
      assert.equal(double.tokensIssued.length - before, 1);
      double.expireTokens();
      assert.equal(await p.getCharge(txidOf(newId())), null);
      assert.equal(double.tokensIssued.length - before, 2);
    } finally {
      p.close();
    }
  });

  test('a token is renewed shortly before it expires, without a 401 first', async () => {
    double.tokenTtlS = 2;
    const p = adapter();
    try {
      const before = double.tokensIssued.length;
      await p.getCharge(txidOf(newId()));
      await new Promise((r) => setTimeout(r, 1100));
      await p.getCharge(txidOf(newId()));
      assert.equal(double.tokensIssued.length - before, 2);
    } finally {
      double.tokenTtlS = 3600;
      p.close();
    }
  });

  test('wrong client credentials are a refusal, not "retry later"', async () => {
    const p = adapter({ RAMP_PIX_CLIENT_SECRET: 'wrong' });
    try {
      await assert.rejects(p.getCharge(txidOf(newId())), (err) => err instanceof PspRefusedError && err.status === 401);
    } finally {
      p.close();
    }
  });
});

describe('mutual TLS', () => {
  test('without our client certificate, or with one from another CA, the PSP never sees the call', async () => {
    for (const env of [{ RAMP_PIX_CERT: '', RAMP_PIX_CERT_KEY: '' }, { RAMP_PIX_CERT: PKI.rogueCertFile, RAMP_PIX_CERT_KEY: PKI.rogueKeyFile }]) {
      const calls = double.calls.length;
      const tokens = double.tokensIssued.length;
      const p = adapter(env);
      try {
        await assert.rejects(p.getCharge(txidOf(newId())), (err) => err instanceof PspUnavailableError);
      } finally {
        p.close();
      }
      assert.equal(double.calls.length, calls);
      assert.equal(double.tokensIssued.length, tokens);
    }
  });

  test("a PSP whose certificate does not chain to RAMP_PIX_CA is not spoken to", async () => {
    const p = adapter({ RAMP_PIX_CA: PKI.certFile });
    try {
      await assert.rejects(p.getCharge(txidOf(newId())), (err) => err instanceof PspUnavailableError && /certificate/i.test(err.message));
    } finally {
      p.close();
    }
  });
});

describe('a PSP that is down, slow or failing', () => {
  test('down: "unavailable", and it works again once the PSP is back', async () => {
    double.goDown();
    await assert.rejects(psp.getCharge(txidOf(newId())), (err) => err instanceof PspUnavailableError);
    double.goUp();
    assert.equal(await psp.getCharge(txidOf(newId())), null);
  });

  test('slow past the timeout: "unavailable" within the timeout, not hanging', async () => {
    double.delayMs = 3000;
    const started = Date.now();
    await assert.rejects(psp.createCharge(charge()), (err) => err instanceof PspUnavailableError && /no answer in 1500 ms/.test(err.message));
    const took = Date.now() - started;
    assert.ok(took < scaledMs(2900), `took ${took} ms`);
  });

  test('503 from the PSP: "unavailable"', async () => {
    double.unavailable = true;
    await assert.rejects(psp.getPix(`E${'1'.repeat(31)}`), (err) => err instanceof PspUnavailableError && /503/.test(err.message));
  });
});

describe('the double rejects what the standard does not allow', () => {
  test('a txid that is too short, an amount with three decimals, an unknown field: 400 with violations, and recorded', async () => {
    await assert.rejects(psp.createCharge({ ...charge(), txid: 'short1' }), (err) => err instanceof PspRefusedError && err.status === 400 && err.violations.length > 0);
    await assert.rejects(psp.createCharge({ ...charge(), valor: '1.005' }), (err) => err instanceof PspRefusedError && err.status === 400);
    await assert.rejects(psp.createCharge({ ...charge(), devedor: { cpf: '123', nome: 'X' } }), (err) => err instanceof PspRefusedError && err.status === 400);
    const rejected = double.rejections.splice(0);
    assert.equal(rejected.length, 3);
    assert.match(rejected[0]!.problems.join(), /txid/);
    assert.match(rejected[1]!.problems.join(), /valor\/original/);
    assert.match(rejected[2]!.problems.join(), /devedor/);
  });
});
