// Configuration: every bad value stops the process with one clear line naming the variable.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config';

describe('configuration', () => {
  test('defaults: sandbox on :8787 with the embedded database in ./.ramp-data', () => {
    const c = loadConfig({});
    assert.equal(c.PORT, 8787);
    assert.equal(c.RAMP_ENV, 'sandbox');
    assert.equal(c.DATABASE_URL, undefined);
    assert.equal(c.RAMP_DATA_DIR, './.ramp-data');
    assert.equal(c.publicUrl, 'http://localhost:8787');
    assert.equal(c.RAMP_SANDBOX_REVIEW_MS, 1500);
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
    ['RAMP_API_KEY', { RAMP_ENV: 'production', RAMP_SESSION_SECRET: 'x'.repeat(32), RAMP_PUBLIC_URL: 'https://ramp.example', RAMP_WALLET_SEED: 'ab'.repeat(32) }],
  ];
  for (const [name, env] of bad) {
    test(`${name}=${JSON.stringify(Object.values(env)[0])} is refused, naming ${name}`, () => {
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message.startsWith(`${name}:`));
    });
  }

  test('production refuses a sandbox key', () => {
    assert.throws(
      () => loadConfig({ RAMP_ENV: 'production', RAMP_API_KEY: `sk_sandbox_${'a'.repeat(20)}`, RAMP_SESSION_SECRET: 'x'.repeat(32), RAMP_PUBLIC_URL: 'https://r.example', RAMP_WALLET_SEED: 'ab'.repeat(32) }),
      /RAMP_API_KEY/,
    );
  });

  test('the process stops with one line naming the bad variable', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 78);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^ramp: invalid configuration: PORT: /);
  });
});
