// `ops reconcile` on a real node: after payouts and deposits the books equal the chain; stablecoin moved out of a customer's
// wallet behind the service's back is a discrepancy naming the address and both figures, in process and from the CLI.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createWalletClient, http } from 'viem';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { compileTestToken, mint } from '../../scripts/devnet/token.mjs';
import { toBaseUnits } from '../../server/domain/chain/amounts';
import type { Address } from '../../server/domain/chain/chain-client';
import { reconcile } from '../../server/flows/chain/reconcile';
import { openStore } from '../../server/store/db';
import { type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { type ChainNode, startChainNode } from './support/chain-node';
import { payouts } from './support/payouts';

const seed = randomBytes(32).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'ramp-reconcile-'));
let chain: ChainNode;
let server: TestServer | undefined;
let p: ReturnType<typeof payouts>;

before(async () => {
  chain = await startChainNode({ chainId: 31_405, blockchain: 'ETHEREUM', seed, usdc: '100000', native: 10n ** 19n });
  // On disk, so that the CLI can open the same database once the server has closed it (PGlite has one owner at a time).
  const store = await openStore({ dataDir });
  server = await startTestServer({ RAMP_WALLET_SEED: seed, RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_CHAIN_POLL_MS: '50', ...chain.env(undefined, 1) }, { store });
  p = payouts(server);
  await p.monitor.scanDeposits(); // the cursor starts here
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await server?.deps.store.close().catch(() => undefined);
  await chain?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ops reconcile', () => {
  let victim: { customerId: string; wallet: string };

  test('after a payout and a deposit the books equal the chain, a deposit not yet credited counting as in flight', async () => {
    const t = await p.paidOnRamp('ETHEREUM', '25.00');
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'the payout confirms');
    const customerId = await approvedIndividual(server!, p.api, server!.apiKey);
    const wallet = (await p.api.get(`/v2/customers/${customerId}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'ETHEREUM').address as string;
    victim = { customerId, wallet };
    await mint(chain.rpcUrl, { token: chain.usdc, to: wallet as Address, amount: toBaseUnits('30', 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Address });
    const before = await reconcile(server!.deps.store.db, server!.deps.chains);
    assert.equal(before.ok, true, JSON.stringify(before.discrepancies));
    await p.monitor.scanDeposits();
    const after = await reconcile(server!.deps.store.db, server!.deps.chains);
    assert.deepEqual({ ok: after.ok, discrepancies: after.discrepancies, errors: after.errors }, { ok: true, discrepancies: [], errors: [] });
    assert.ok(after.checked >= 4, `two wallets × two coins at least, ${after.checked} compared`);
    assert.equal(await p.apiBalance(customerId, 'ETHEREUM'), '30.000000');
  });

  test('stablecoin moved out of a wallet behind the service’s back is reported with the address and both figures', async () => {
    // Whoever holds the wallet's key spends from it (anvil lets the test act as the address).
    const stray = victim.wallet as Address;
    await chain.test.impersonateAccount({ address: stray });
    await chain.test.setBalance({ address: stray, value: 10n ** 18n });
    const spender = createWalletClient({ account: stray, transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const hash = await spender.writeContract({ address: chain.usdc, abi: compileTestToken().abi, functionName: 'transfer', args: [DEV_ACCOUNTS[2]!.address as Address, toBaseUnits('12.5', 6)], chain: null });
    await chain.pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await chain.test.stopImpersonatingAccount({ address: stray });
    const report = await reconcile(server!.deps.store.db, server!.deps.chains);
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.discrepancies.map(({ partnerId: _, ...d }) => d),
      [{ blockchain: 'ETHEREUM', address: victim.wallet, customerId: victim.customerId, coin: 'USDC', ledger: '30.000000', chain: '17.500000', inFlight: '0.000000', difference: '-12.500000' }],
    );
  });

  test('the CLI prints exactly one JSON object and exits 1 on a discrepancy (the database opened once the server let it go)', async () => {
    await p.monitor.stop();
    const env = server!.deps.config;
    await server!.close();
    await server!.deps.store.close();
    server = undefined;
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/ops/main.ts', 'reconcile', '--json'], {
      env: { PATH: process.env.PATH, RAMP_ENV: 'sandbox', RAMP_DATA_DIR: dataDir, RAMP_WALLET_SEED: seed, ...chain.env(undefined, 1), RAMP_API_KEY: env.RAMP_API_KEY },
    });
    const failed = await run.then(
      () => assert.fail('reconcile exited 0 with a discrepancy'),
      (err: { code: number; stdout: string }) => err,
    );
    assert.equal(failed.code, 1);
    const out = JSON.parse(failed.stdout);
    assert.equal(out.ok, false);
    assert.equal(out.discrepancies.length, 1);
    assert.equal(out.discrepancies[0].address, victim.wallet);
    assert.equal(out.discrepancies[0].chain, '17.500000');
    assert.equal(out.discrepancies[0].ledger, '30.000000');
  });
});
