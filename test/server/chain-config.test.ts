// Configuring on-chain settlement: RAMP_CHAIN_* validated with one clear line each, tokens checked on the node at start,
// production's rules (a chain must settle, an unavailable one answers 422 BLOCKCHAIN_UNAVAILABLE), and `ops treasury`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { inspect, promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { deployToken } from '../../scripts/devnet/token.mjs';
import { bootstrap } from '../../server/bootstrap';
import { ConfigError, loadConfig } from '../../server/config';
import { fromBaseUnits } from '../../server/domain/chain/amounts';
import { treasuryAccount, treasuryDerivationPath } from '../../server/domain/chain/treasury';
import { customerDerivationPath } from '../../server/domain/wallets';
import { createLogger } from '../../server/logger';
import { client, openTestStore, startTestServer } from './harness';
import { type ChainNode, startChainNode } from './support/chain-node';
import { stubSettlement } from './settlement-stub';
import { productionEnv } from './support/production-env';

const seed = randomBytes(32).toString('hex');
let chain: ChainNode;

before(async () => {
  chain = await startChainNode({ chainId: 31_404, blockchain: 'BASE', seed, usdc: '2500.5', native: 3n * 10n ** 18n });
});
after(async () => {
  await chain?.stop();
});

const production = productionEnv({ RAMP_WALLET_SEED: seed });
/** A PSP that moves fiat only (part 2's shape): every chain must settle on a node. */
const fiatOnly = () => ({ ...stubSettlement(), chains: [] as const });

describe('RAMP_CHAIN_* configuration', () => {
  const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  const refused: [string, Record<string, string>][] = [
    ['RAMP_CHAIN_TOKEN_BASE_USDC', { RAMP_CHAIN_TOKEN_BASE_USDC: usdc }],
    ['RAMP_CHAIN_CONFIRMATIONS_POLYGON', { RAMP_CHAIN_CONFIRMATIONS_POLYGON: '5' }],
    ['RAMP_CHAIN_RPC_BASE', { RAMP_CHAIN_RPC_BASE: 'http://node.example' }],
    ['RAMP_CHAIN_RPC_BASE', { RAMP_CHAIN_RPC_BASE: 'wss://node.example/key-Zq9Secr3t', RAMP_CHAIN_TOKEN_BASE_USDC: usdc }],
    ['RAMP_CHAIN_TOKEN_BASE_USDC', { RAMP_CHAIN_RPC_BASE: 'http://node.example', RAMP_CHAIN_TOKEN_BASE_USDC: '0x5FBDB2315678afecb367f032d93F642f64180aa3' }],
    ['RAMP_CHAIN_TOKEN_BASE_USDT', { RAMP_CHAIN_RPC_BASE: 'http://node.example', RAMP_CHAIN_TOKEN_BASE_USDC: usdc, RAMP_CHAIN_TOKEN_BASE_USDT: usdc.toLowerCase() }],
    ['RAMP_CHAIN_CONFIRMATIONS_BASE', { RAMP_CHAIN_RPC_BASE: 'http://node.example', RAMP_CHAIN_TOKEN_BASE_USDC: usdc, RAMP_CHAIN_CONFIRMATIONS_BASE: '0' }],
    ['RAMP_CHAIN_REPLACE_AFTER_MS', { RAMP_CHAIN_REPLACE_AFTER_MS: '10' }],
  ];
  for (const [name, env] of refused) {
    test(`refused, naming ${name}: ${JSON.stringify(env).slice(0, 90)}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: Error) => err instanceof ConfigError && err.message.split('\n').some((l) => l.startsWith(`${name}:`)) && !err.message.includes('Zq9Secr3t'),
      );
    });
  }

  test('a configured chain: its tokens checksummed, confirmations per chain by default (ETHEREUM 12, BASE 10, POLYGON 64)', () => {
    const base = { RAMP_CHAIN_TOKEN_ETHEREUM_USDT: usdc.toLowerCase(), RAMP_CHAIN_TOKEN_BASE_USDC: usdc, RAMP_CHAIN_TOKEN_POLYGON_USDC: usdc };
    const c = loadConfig({ ...base, RAMP_CHAIN_RPC_ETHEREUM: 'https://eth.example/', RAMP_CHAIN_RPC_BASE: 'http://base.example', RAMP_CHAIN_RPC_POLYGON: 'http://polygon.example', RAMP_CHAIN_CONFIRMATIONS_BASE: '3' });
    assert.deepEqual(c.chains, [
      { blockchain: 'ETHEREUM', rpcUrl: 'https://eth.example', tokens: { USDT: usdc }, confirmations: 12 },
      { blockchain: 'BASE', rpcUrl: 'http://base.example', tokens: { USDC: usdc }, confirmations: 3 },
      { blockchain: 'POLYGON', rpcUrl: 'http://polygon.example', tokens: { USDC: usdc }, confirmations: 64 },
    ]);
    assert.deepEqual(loadConfig({}).chains, []);
  });

  test('the treasury derives on a branch no customer uses, one account per chain', () => {
    assert.deepEqual(['ETHEREUM', 'BASE', 'POLYGON'].map((c) => treasuryDerivationPath(c as 'BASE')), ["m/44'/60'/0'/1/0", "m/44'/60'/0'/1/1", "m/44'/60'/0'/1/2"]);
    for (let i = 0; i < 200; i++) assert.match(customerDerivationPath(randomBytes(16).toString('hex'), 'BASE'), /^m\/44'\/60'\/\d+'\/0\/\d+$/);
    const t = treasuryAccount(seed, 'BASE');
    assert.equal(t.address, chain.treasury);
    assert.notEqual(treasuryAccount(seed, 'POLYGON').address, t.address);
    assert.ok(!JSON.stringify(t).includes(t.signingKey().slice(2)), 'the key is not in its JSON');
    assert.ok(!inspect(t).includes(t.signingKey().slice(2)), 'nor in util.inspect');
  });
});

describe('tokens are read from the node at start', () => {
  test('an address that is no token, or a token with fewer than 6 decimals, stops the start naming the variable', async () => {
    const cents = await deployToken(chain.rpcUrl, { name: 'Cents', symbol: 'CNT', decimals: 2, deployerKey: DEV_ACCOUNTS[1].privateKey });
    for (const [token, why] of [
      [DEV_ACCOUNTS[2].address, /^RAMP_CHAIN_TOKEN_BASE_USDT: decimals\(\) of/],
      [cents, /^RAMP_CHAIN_TOKEN_BASE_USDT: the USDT token .* has 2 decimals; the service needs at least 6/],
    ] as const) {
      const { store, drop } = await openTestStore();
      try {
        const config = loadConfig({ RAMP_WALLET_SEED: seed, RAMP_DATA_DIR: '/nonexistent', RAMP_API_KEY: `sk_sandbox_${'k'.repeat(24)}`, ...chain.env(), RAMP_CHAIN_TOKEN_BASE_USDT: token });
        await assert.rejects(bootstrap(config, createLogger('silent'), { store }), (err: Error) => err instanceof ConfigError && why.test(err.message));
      } finally {
        await drop();
      }
    }
  });

  test('a node down at start does not stop the service: it starts, and says so', async () => {
    const server = await startTestServer({ ...chain.env('http://127.0.0.1:9'), RAMP_CHAIN_RPC_TIMEOUT_MS: '500' });
    try {
      assert.equal((await server.app.request('/readyz')).status, 200);
      assert.ok(server.logs.some((l) => l.includes('chain node unavailable at start')), 'the start says the node did not answer');
      assert.ok(!server.logs.some((l) => l.includes(server.deps.chains.get('BASE')!.treasury.signingKey().slice(2))), 'no key in the logs');
    } finally {
      await server.close();
    }
  });
});

describe('production', () => {
  test('with no chain to settle on (none configured, a fiat-only provider) the service does not start', async () => {
    await assert.rejects(bootstrap(loadConfig(production), createLogger('silent'), { settlement: fiatOnly() }), (err: Error) => err instanceof ConfigError && /^RAMP_CHAIN_RPC_<CHAIN>: production needs at least one chain/.test(err.message));
  });

  test('a quote or transaction naming a chain that does not settle here answers 422 BLOCKCHAIN_UNAVAILABLE naming blockchain', async () => {
    const server = await startTestServer({ ...production, ...chain.env() }, { settlement: fiatOnly() });
    try {
      const api = client(server, production.RAMP_API_KEY);
      const { body: c } = await api.post('/v2/customers', { type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '52998224725', birthDate: '1990-05-17' });
      await server.deps.store.db.execute(sql`UPDATE customers SET verification_status = 'APPROVED' WHERE id = ${c.id}`);
      const quote = (blockchain: string, targetCurrency = 'USDC') => api.post('/v2/exchange-rates', { type: 'FLOATING', customerId: c.id, rail: 'ACH', sourceCurrency: 'USD', targetCurrency, sourceAmount: '100.00', blockchain });
      for (const blockchain of ['POLYGON', 'ETHEREUM', 'TRON']) {
        const res = await quote(blockchain);
        assert.equal(res.status, 422, blockchain);
        assert.equal(res.body.code, 'BLOCKCHAIN_UNAVAILABLE');
        assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), ['blockchain']);
      }
      assert.equal((await quote('BASE')).status, 200);
      const onRamp = await api.post('/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '10.00', blockchain: 'TRON' });
      assert.equal(onRamp.status, 422);
      assert.equal(onRamp.body.code, 'BLOCKCHAIN_UNAVAILABLE');
      // Without `blockchain`, the default (POLYGON) is named the same way.
      const byDefault = await api.post('/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '10.00' });
      assert.equal(byDefault.body.code, 'BLOCKCHAIN_UNAVAILABLE');
      const ok = await api.post('/v2/transactions/on-ramp', { customerId: c.id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '10.00', blockchain: 'BASE' });
      assert.equal(ok.status, 201, ok.text);
    } finally {
      await server.close();
    }
  });
});

describe('ops treasury', () => {
  const ops = (env: Record<string, string>, ...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/ops/main.ts', 'treasury', ...args], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, DATABASE_URL: '', RAMP_WALLET_SEED: seed, ...env },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );

  test('--json prints exactly one object: per configured chain the treasury address and its balances on the node, as decimal strings', async () => {
    const { code, stdout } = await ops(chain.env(), '--json');
    assert.equal(code, 0, stdout);
    assert.equal(stdout.trim().split('\n').length, 1);
    const report = JSON.parse(stdout);
    const native = await chain.pub.getBalance({ address: chain.treasury });
    assert.deepEqual(report, {
      BASE: { address: chain.treasury, native: fromBaseUnits(native, 18), USDC: '2500.500000', USDT: '2500.500000' },
    });
    assert.ok(!stdout.includes(treasuryAccount(seed, 'BASE').signingKey().slice(2)));
  });

  test('a node that does not answer: its chain carries an error, and the exit code is 1', async () => {
    const { code, stdout } = await ops({ ...chain.env('http://127.0.0.1:9'), RAMP_CHAIN_RPC_TIMEOUT_MS: '500' }, '--json');
    assert.equal(code, 1);
    const report = JSON.parse(stdout);
    assert.deepEqual(Object.keys(report.BASE), ['address', 'error']);
    assert.ok(!report.BASE.error.includes('127.0.0.1:9'), 'the RPC URL is not printed');
  });
});
