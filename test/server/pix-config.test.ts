// PIX through a PSP is configured by RAMP_PIX_*: all or nothing, its PEM files readable, the payout adapter named (only
// `efi`), a client certificate in production; each mistake stops the process with one line naming the variable.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bootstrap } from '../../server/bootstrap';
import { ConfigError, loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { PKI } from './support/psp-double';
import { productionEnv } from './support/production-env';

const full = {
  RAMP_PIX_PSP_URL: 'https://pix.example.com/v2/',
  RAMP_PIX_OAUTH_URL: 'https://pix.example.com/oauth/token',
  RAMP_PIX_CLIENT_ID: 'client',
  RAMP_PIX_CLIENT_SECRET: 'Sup3rS3cretValue',
  RAMP_PIX_CERT: PKI.certFile,
  RAMP_PIX_CERT_KEY: PKI.keyFile,
  RAMP_PIX_CA: PKI.caFile,
  RAMP_PIX_KEY: 'a1b2c3d4-0000-4000-8000-00000000beef',
  RAMP_PIX_PAYOUT_PROVIDER: 'efi',
};

const refused = (env: Record<string, string>, name: string) =>
  assert.throws(
    () => loadConfig(env),
    (err: Error) => {
      assert.ok(err instanceof ConfigError, String(err));
      assert.match(err.message, new RegExp(`(^|\\n)${name}:`), err.message);
      assert.ok(!err.message.includes(full.RAMP_PIX_CLIENT_SECRET));
      return true;
    },
  );

describe('PIX configuration', () => {
  test('unset: no PSP (sandbox simulates PIX)', () => {
    assert.equal(loadConfig({}).pix, undefined);
  });

  test('set: the PSP with its PEM files read and the base URL without a trailing slash', () => {
    const pix = loadConfig(full).pix!;
    assert.equal(pix.pspUrl, 'https://pix.example.com/v2');
    assert.equal(pix.payoutProvider, 'efi');
    assert.match(pix.cert!, /BEGIN CERTIFICATE/);
    assert.match(pix.certKey!, /BEGIN PRIVATE KEY/);
    assert.match(pix.ca!, /BEGIN CERTIFICATE/);
  });

  test('a payout provider other than efi is refused', () => refused({ ...full, RAMP_PIX_PAYOUT_PROVIDER: 'itau' }, 'RAMP_PIX_PAYOUT_PROVIDER'));
  test('each variable the PSP needs is required with RAMP_PIX_PSP_URL', () => {
    for (const k of ['RAMP_PIX_OAUTH_URL', 'RAMP_PIX_CLIENT_ID', 'RAMP_PIX_CLIENT_SECRET', 'RAMP_PIX_KEY', 'RAMP_PIX_PAYOUT_PROVIDER'] as const) refused({ ...full, [k]: '' }, k);
  });
  test('a PIX variable without RAMP_PIX_PSP_URL is refused (PIX would silently stay simulated)', () => refused({ RAMP_PIX_KEY: full.RAMP_PIX_KEY }, 'RAMP_PIX_KEY'));
  test('plain http is refused: the PSP is spoken to over TLS only', () => refused({ ...full, RAMP_PIX_PSP_URL: 'http://pix.example.com/v2' }, 'RAMP_PIX_PSP_URL'));
  test('a certificate without its key, an unreadable file, a file that is not PEM', () => {
    refused({ ...full, RAMP_PIX_CERT_KEY: '' }, 'RAMP_PIX_CERT_KEY');
    refused({ ...full, RAMP_PIX_CA: '/nonexistent/ca.pem' }, 'RAMP_PIX_CA');
    refused({ ...full, RAMP_PIX_CERT: new URL(import.meta.url).pathname }, 'RAMP_PIX_CERT');
  });
  test('production needs the client certificate (mutual TLS)', () => {
    const production = productionEnv();
    refused({ ...production, ...full, RAMP_PIX_CERT: '', RAMP_PIX_CERT_KEY: '' }, 'RAMP_PIX_CERT');
    assert.ok(loadConfig({ ...production, ...full }).pix);
  });

  test('production refuses to start PIX without the PSP, naming RAMP_PIX_PSP_URL', async () => {
    const production = productionEnv({ RAMP_DATA_DIR: '/nonexistent/ramp' });
    await assert.rejects(bootstrap(loadConfig(production), createLogger('silent')), (err: Error) => err instanceof ConfigError && /\nRAMP_PIX_PSP_URL: required when RAMP_ENV=production/.test(err.message));
    // With the PSP, PIX is no longer what is missing (the other rails still need their provider).
    await assert.rejects(bootstrap(loadConfig({ ...production, ...full }), createLogger('silent')), (err: Error) => err instanceof ConfigError && !err.message.includes('RAMP_PIX_PSP_URL'));
  });
});
