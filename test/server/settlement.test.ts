// Settlement behind the SettlementProvider port (issue 9, item 14): the simulated rails serve sandbox only; production does
// not start without a real provider, and with one, every payment instruction and receipt comes from it.
import { serverArgs } from '../support/server-child';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { bootstrap } from '../../server/bootstrap';
import { ConfigError, loadConfig } from '../../server/config';
import { payOnRamp } from '../../server/flows/transactions';
import { createLogger } from '../../server/logger';
import { client, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { stubSettlement } from './settlement-stub';
import { settle } from './transactions-helpers';
import { productionEnv } from './support/production-env';

const production = productionEnv();

describe('settlement provider', () => {
  test('production without a settlement provider refuses to start, naming RAMP_SETTLEMENT_PROVIDER (and never a secret)', async () => {
    const config = loadConfig(production);
    await assert.rejects(bootstrap(config, createLogger('silent')), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /^RAMP_SETTLEMENT_PROVIDER: required when RAMP_ENV=production/);
      for (const secret of Object.values(production).filter((v) => v.length > 20)) assert.ok(!err.message.includes(secret));
      return true;
    });
    // Naming the simulated rails does not make them serve production.
    await assert.rejects(bootstrap(loadConfig({ ...production, RAMP_SETTLEMENT_PROVIDER: 'simulated' }), createLogger('silent')), /^ConfigError: RAMP_SETTLEMENT_PROVIDER: the simulated rails serve sandbox only/);
    assert.throws(() => loadConfig({ ...production, RAMP_SETTLEMENT_PROVIDER: 'acme' }), /^ConfigError: RAMP_SETTLEMENT_PROVIDER:/);
  });

  test('the process exits 78 with one line naming RAMP_SETTLEMENT_PROVIDER', () => {
    const run = spawnSync(process.execPath, serverArgs(), {
      env: { ...process.env, ...production, DATABASE_URL: '', RAMP_DATA_DIR: '/nonexistent/ramp', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr.trim(), /^ramp: invalid configuration: RAMP_SETTLEMENT_PROVIDER: required when RAMP_ENV=production/);
  });

  test('sandbox settles on the simulated rails: the sandbox PIX key, testnet explorers', async () => {
    const server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
    try {
      assert.equal(server.deps.settlement.name, 'simulated');
      const api = client(server, server.apiKey);
      const id = await approvedIndividual(server, api, server.apiKey);
      const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
      assert.ok(t.state.payment.brCode.includes('7d9f0d2e-5c1b-4f7a-9a63-2f0f3c1e8b42'));
      await api.post(`/v2/sandbox/transactions/${t.id}/pay`);
      await settle(server);
      const done = (await api.get(`/v2/transactions/${t.id}`)).body;
      assert.equal(done.state.status, 'SUCCESS');
      assert.match(done.state.receipt.blockExplorerUrl, /^https:\/\/amoy\.polygonscan\.com\/tx\/0x[0-9a-f]{64}$/);
    } finally {
      await server.close();
    }
  });

  test('production with a provider: instructions and receipts are the provider’s, none of the sandbox’s', async () => {
    const provider = stubSettlement();
    const server = await startTestServer(production, { settlement: provider });
    try {
      const api = client(server, production.RAMP_API_KEY);
      const { body: c } = await api.post('/v2/customers', { type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '52998224725', birthDate: '1990-05-17' });
      assert.ok(c.id);
      // No sandbox review in production: approve by hand through the store, as a reviewer would.
      const { db } = server.deps.store;
      const { sql } = await import('drizzle-orm');
      await db.execute(sql`UPDATE customers SET verification_status = 'APPROVED' WHERE id = ${c.id}`);
      const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '10.00' });
      assert.equal(t.state.status, 'AWAITING_FUNDS', JSON.stringify(t));
      assert.match(t.state.payment.instructions, /TEST-PSP/);
      assert.ok(!JSON.stringify(t).includes('DE89370400440532013000'), 'no textbook IBAN in production');
      // The payer pays (in production the provider reports it); the rest runs on the provider's timing and receipts.
      await payOnRamp(db, server.deps, server.deps.partnerId!, t.id);
      await settle(server, 30);
      const done = (await api.get(`/v2/transactions/${t.id}`)).body;
      assert.equal(done.state.status, 'SUCCESS');
      assert.equal(done.state.receipt.blockExplorerUrl, `https://explorer.test-psp.example/POLYGON/${t.id}`);
      assert.deepEqual(provider.transfers, [t.id]);
    } finally {
      await server.close();
    }
  });
});
