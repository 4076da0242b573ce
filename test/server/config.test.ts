// Configuration: every bad value stops the process with one clear line naming the variable.
import { serverArgs } from '../support/server-child';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../server/config';
import { generateApiKey } from '../../server/domain/api-keys';
import { productionEnv } from './support/production-env';

describe('configuration', () => {
  test('defaults: sandbox on :8787 with the embedded database in ./.ramp-data', () => {
    const c = loadConfig({});
    assert.equal(c.PORT, 8787);
    assert.equal(c.RAMP_ENV, 'sandbox');
    assert.equal(c.DATABASE_URL, undefined);
    assert.equal(c.RAMP_DATA_DIR, './.ramp-data');
    assert.equal(c.publicUrl, 'http://localhost:8787');
    assert.equal(c.RAMP_SANDBOX_REVIEW_MS, 1500);
    assert.equal(c.RAMP_VERIFICATION_LINK_TTL_HOURS, 24);
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['RAMP_ENV', { RAMP_ENV: 'staging' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['RAMP_API_KEY', { RAMP_API_KEY: 'secret' }],
    ['RAMP_PUBLIC_URL', { RAMP_PUBLIC_URL: 'not a url' }],
    ['RAMP_SESSION_SECRET', { RAMP_SESSION_SECRET: 'short' }],
    ['RAMP_WALLET_SEED', { RAMP_WALLET_SEED: 'zz' }],
    ['RAMP_SANDBOX_REVIEW_MS', { RAMP_SANDBOX_REVIEW_MS: '-1' }],
    ['RAMP_VERIFICATION_LINK_TTL_HOURS', { RAMP_VERIFICATION_LINK_TTL_HOURS: '0' }],
    ['RAMP_VERIFICATION_LINK_TTL_HOURS', { RAMP_VERIFICATION_LINK_TTL_HOURS: 'a day' }],
    ['RAMP_API_KEY', productionEnv({ RAMP_API_KEY: '' })],
  ];
  for (const [name, env] of bad) {
    test(`${name}=${JSON.stringify(Object.values(env)[0])} is refused, naming ${name}`, () => {
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message.startsWith(`${name}:`));
    });
  }

  // Values that look like what they are: a refused value is often a real secret pasted into the wrong variable.
  const secrets: [string, Record<string, string>, string][] = [
    ['RAMP_SESSION_SECRET', { RAMP_SESSION_SECRET: 'hunter2-S3cr3t!' }, 'hunter2-S3cr3t!'],
    ['RAMP_API_KEY', { RAMP_API_KEY: 'sk_live_Zx9!notquite' }, 'sk_live_Zx9!notquite'],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://admin:Pa55w0rd-xyz@db.internal/ramp' }, 'Pa55w0rd-xyz'],
    ['RAMP_WALLET_SEED', { RAMP_WALLET_SEED: 'deadbeefcafebabe-not-hex-topsecret' }, 'topsecret'],
    ['RAMP_PUBLIC_URL', { RAMP_PUBLIC_URL: 'ftp://user:Hidd3nPass@ramp.example' }, 'Hidd3nPass'],
    ['RAMP_FEE_SCHEDULE', { RAMP_FEE_SCHEDULE: '{"service": Zq9Secr3t}' }, 'Zq9Secr3t'],
    ['RAMP_RATE_LIMIT_API_KEY', { RAMP_RATE_LIMIT_API_KEY: 'sk_live_limitSecret/1' }, 'limitSecret'],
  ];
  for (const [name, env, secret] of secrets) {
    test(`a bad ${name} is named, and its value is never echoed`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: Error) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, new RegExp(`^${name}: `));
          assert.ok(!err.message.includes(secret), `the message echoes the value: ${err.message}`);
          return true;
        },
      );
    });
  }

  test('HOST: loopback by default in sandbox, every interface in production, as set when set', () => {
    const prod = productionEnv();
    assert.equal(loadConfig({}).HOST, '127.0.0.1');
    assert.equal(loadConfig(prod).HOST, '0.0.0.0');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).HOST, '0.0.0.0');
    assert.equal(loadConfig({ ...prod, HOST: '10.1.2.3' }).HOST, '10.1.2.3');
  });

  test('rate limits: <requests>/<seconds>, a store of memory, postgres or off, a proxy count', () => {
    const c = loadConfig({ RAMP_RATE_LIMIT_API_KEY: '250/10', RAMP_RATE_LIMIT_STORE: 'off', RAMP_TRUST_PROXY: '2' });
    assert.deepEqual(c.RAMP_RATE_LIMIT_API_KEY, { points: 250, seconds: 10 });
    assert.deepEqual(loadConfig({}).RAMP_RATE_LIMIT_AUTH_FAILURES, { points: 20, seconds: 60 });
    assert.equal(c.RAMP_RATE_LIMIT_STORE, 'off');
    assert.equal(c.RAMP_TRUST_PROXY, 2);
    for (const bad of ['0/1', '10', '10/0', '1.5/1', 'ten/1']) assert.throws(() => loadConfig({ RAMP_RATE_LIMIT_SESSION: bad }), /^ConfigError: RAMP_RATE_LIMIT_SESSION: /);
    assert.throws(() => loadConfig({ RAMP_RATE_LIMIT_STORE: 'redis' }), /RAMP_RATE_LIMIT_STORE/);
    assert.throws(() => loadConfig({ RAMP_TRUST_PROXY: 'yes' }), /RAMP_TRUST_PROXY/);
  });

  test('RAMP_WORKERS: one process by default, a number or auto (one per core); more than one needs PostgreSQL', () => {
    const pg = { DATABASE_URL: 'postgres://localhost/ramp' };
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ ...pg, RAMP_WORKERS: '4' }).workers, 4);
    assert.equal(loadConfig({ ...pg, RAMP_WORKERS: 'auto' }).workers, availableParallelism());
    assert.equal(loadConfig({ RAMP_WORKERS: 'auto' }).workers, 1, 'auto on the embedded database: one process');
    assert.throws(() => loadConfig({ RAMP_WORKERS: '2' }), /^ConfigError: RAMP_WORKERS: more than one process needs DATABASE_URL/);
    for (const bad of ['0', '-1', '1.5', 'many', '1000']) assert.throws(() => loadConfig({ ...pg, RAMP_WORKERS: bad }), /^ConfigError: RAMP_WORKERS: /, bad);
  });

  test('production refuses a sandbox key', () => {
    assert.throws(() => loadConfig(productionEnv({ RAMP_API_KEY: generateApiKey('sandbox') })), /RAMP_API_KEY/);
  });

  // What a person types instead of what a machine draws: refused at start, the variable named with why, never echoed.
  const weak: [string, string, string][] = [
    ['RAMP_SESSION_SECRET', 'x'.repeat(40), 'one character repeated'],
    ['RAMP_SESSION_SECRET', 'correct horse battery staple and a few more words', 'a dictionary phrase'],
    ['RAMP_SESSION_SECRET', 'correcthorsebatterystapleandafewmorewords', 'words run together'],
    ['RAMP_SESSION_SECRET', 'Password1234567890Password1234567890', 'a pattern repeated'],
    ['RAMP_SESSION_SECRET', 'ab'.repeat(20), 'two characters repeated'],
    ['RAMP_WALLET_SEED', '00'.repeat(32), 'an all-zero seed'],
    ['RAMP_WALLET_SEED', 'ab'.repeat(32), 'one byte repeated'],
    ['RAMP_WALLET_SEED', '0123456789abcdef'.repeat(4), 'a counting pattern'],
    ['RAMP_API_KEY', `sk_live_${'a'.repeat(16)}`, '16 repeated characters'],
    ['RAMP_API_KEY', `sk_live_${'abcd'.repeat(8)}`, 'a short pattern repeated'],
    ['RAMP_PUBLIC_URL', 'http://ramp.example', 'plain http'],
  ];
  for (const [name, value, what] of weak) {
    test(`production refuses ${name} as ${what}, naming it and not echoing it`, () => {
      assert.throws(
        () => loadConfig(productionEnv({ [name]: value })),
        (err: Error) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, new RegExp(`^${name}: `));
          assert.ok(!err.message.includes(value), err.message);
          return true;
        },
      );
      assert.doesNotThrow(() => loadConfig({ [name]: value }), 'sandbox takes it');
    });
  }

  test('secrets drawn by a machine pass: openssl-style hex and base64, generated keys, at their shortest lengths too', () => {
    for (let i = 0; i < 200; i++) {
      const env = productionEnv({
        RAMP_SESSION_SECRET: i % 2 ? randomBytes(16).toString('hex') : randomBytes(24).toString('base64'),
        RAMP_WALLET_SEED: randomBytes(i % 2 ? 16 : 64).toString('hex'),
        RAMP_API_KEY: i % 3 ? generateApiKey('production') : `sk_live_${randomBytes(12).toString('base64url')}`,
      });
      assert.doesNotThrow(() => loadConfig(env));
    }
  });

  test('the process stops with one line naming the bad variable, and not its value', () => {
    const run = spawnSync(process.execPath, serverArgs(), {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: '', RAMP_SESSION_SECRET: '', RAMP_API_KEY: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 78);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^ramp: invalid configuration: PORT: /);
    assert.ok(!run.stderr.includes('eighty'), run.stderr);
  });
});
