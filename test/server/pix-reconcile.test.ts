// `ops reconcile` with a PSP (issue 31, point 6): the Pix the PSP received and the payouts it made against the books. After
// a paid on-ramp and a paid-out off-ramp the two agree; a Pix that matches no on-ramp, an amount that differs and a
// payout the PSP has and we don't are each a discrepancy naming the e2eid, in process and from the CLI (same shape as
// the chain part: {ok, discrepancies, checked, errors}).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { idEnvioOf, txidOf } from '../../server/domain/pix/pix-psp';
import { reconcilePix } from '../../server/flows/pix/reconcile';
import { openStore } from '../../server/store/db';
import { allReceipts } from '../../server/store/queries/pix';
import { client } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { PspDouble } from './support/psp-double';
import { type PixService, startPixService } from './support/pix-service';
import { selfPixAccount, settle } from './transactions-helpers';

const double = new PspDouble();
const dataDir = mkdtempSync(join(tmpdir(), 'ramp-pix-reconcile-'));
let svc: PixService | undefined;
let api: ReturnType<typeof client>;
const window = () => ({ inicio: new Date(Date.now() - 3_600_000), fim: new Date(Date.now() + 60_000) });

before(async () => {
  await double.start();
  // PGlite on disk whatever DATABASE_URL says (as chain-reconcile does), so that the CLI can open the same database once
  // the service has closed it (PGlite has one owner at a time).
  const store = await openStore({ dataDir });
  svc = await startPixService(double, { RAMP_SANDBOX_STEP_MS: '0' }, { store });
  api = client(svc.server, svc.server.apiKey);
  await svc.monitor.runDue();
});
after(async () => {
  try {
    double.assertConforming();
  } finally {
    await svc?.close();
    await svc?.server.deps.store.close().catch(() => undefined);
    await double.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const pollUntil = async (done: () => Promise<boolean>) => {
  const until = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('not in time');
    for (let i = 0; i < 20 && (await svc!.server.workers.runDue()) > 0; i++);
    await svc!.monitor.runDue();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const status = async (id: string) => (await api.get(`/v2/transactions/${id}`)).body.state.status as string;

describe('ops reconcile: the PSP against the books', () => {
  let unmatched: string;
  let stray: { e2eId: string; idEnvio: string };
  let differing: string;

  test('after a paid on-ramp and a paid-out off-ramp the books equal the PSP', async () => {
    const customerId = await approvedIndividual(svc!.server, api, svc!.server.apiKey);
    const { body: on } = await api.post('/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '90.00' });
    await double.pay(txidOf(on.id));
    await pollUntil(async () => (await status(on.id)) === 'SUCCESS');
    const account = (await api.post('/v2/bank-accounts', await selfPixAccount(api, customerId))).body;
    await settle(svc!.server, 5);
    const { body: off } = await api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '5.000000' });
    await pollUntil(async () => double.payouts.has(idEnvioOf(off.id)));
    await double.settlePayout(idEnvioOf(off.id), 'REALIZADO');
    await pollUntil(async () => (await status(off.id)) === 'SUCCESS');
    const report = await reconcilePix(svc!.server.deps.store.db, svc!.server.deps.pix!, window());
    assert.deepEqual(report.discrepancies, []);
    assert.equal(report.checked, 2);
    double.assertConforming();
  });

  test('a Pix that matches no on-ramp, an amount that differs, a payout the PSP has and we don’t: each names the e2eid', async () => {
    const chave = double.env().RAMP_PIX_KEY!;
    unmatched = await double.receiveWithoutCharge(chave, '12.34');
    stray = double.payOutsideTheService(chave, '50.00');
    // The books say another amount for a Pix they recorded (a row changed behind the service's back).
    differing = (await allReceipts(svc!.server.deps.store.db))[0]!.e2eid;
    await svc!.server.deps.store.db.execute(sql`UPDATE pix_receipts SET valor = '89.99' WHERE e2eid = ${differing}`);
    const report = await reconcilePix(svc!.server.deps.store.db, svc!.server.deps.pix!, window());
    const byKind = Object.fromEntries(report.discrepancies.map((d) => [d.kind, d]));
    assert.deepEqual(Object.keys(byKind).sort(), ['PAYOUT_NOT_OURS', 'PIX_AMOUNT_DIFFERS', 'PIX_MATCHES_NO_ONRAMP']);
    assert.equal(byKind.PIX_MATCHES_NO_ONRAMP!.e2eid, unmatched);
    assert.equal(byKind.PIX_MATCHES_NO_ONRAMP!.psp, '12.34');
    assert.equal(byKind.PIX_AMOUNT_DIFFERS!.e2eid, differing);
    assert.deepEqual([byKind.PIX_AMOUNT_DIFFERS!.books, byKind.PIX_AMOUNT_DIFFERS!.psp], ['89.99', '90.00']);
    assert.equal(byKind.PAYOUT_NOT_OURS!.e2eid, stray.e2eId);
    assert.equal(byKind.PAYOUT_NOT_OURS!.idEnvio, stray.idEnvio);
  });

  test('the CLI prints one JSON object with the PIX discrepancies beside the chains’, and exits 1', async () => {
    const config = svc!.server.deps.config;
    await svc!.close();
    await svc!.server.deps.store.close();
    svc = undefined;
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/ops/main.ts', 'reconcile', '--json', '--since', new Date(Date.now() - 3_600_000).toISOString()], {
      env: { PATH: process.env.PATH, RAMP_ENV: 'sandbox', RAMP_DATA_DIR: dataDir, RAMP_API_KEY: config.RAMP_API_KEY, RAMP_WALLET_SEED: 'ab'.repeat(32), ...double.env() },
    });
    const failed = await run.then(
      () => assert.fail('reconcile exited 0 with discrepancies'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.equal(failed.code, 1, failed.stderr);
    const out = JSON.parse(failed.stdout);
    assert.deepEqual(Object.keys(out).sort(), ['checked', 'discrepancies', 'errors', 'ok']);
    assert.equal(out.ok, false);
    assert.deepEqual(out.discrepancies.map((d: { e2eid: string }) => d.e2eid).sort(), [differing, unmatched, stray.e2eId].sort());
    assert.deepEqual(out.errors, []);
  });
});
