// errors[].code through HTTP: the stable reasons clients translate (src/contract/field-codes.ts), on the answers a partner receives.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

test('quote problems name the field and carry a stable code (validated against /openapi.json by the harness)', async () => {
  const p = await newPartner(server);
  const customerId = await approvedIndividual(server, p.api, p.apiKey);
  const buy = { customerId, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00' };
  const sell = { ...buy, sourceCurrency: 'USDC', targetCurrency: 'BRL' };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...buy, sourceAmount: '10.001' }, 'sourceAmount', 'TOO_MANY_DECIMALS'],
    [{ ...buy, sourceAmount: '0.00' }, 'sourceAmount', 'NOT_POSITIVE'],
    [{ ...buy, sourceAmount: '1000000000000000' }, 'sourceAmount', 'ABOVE_MAXIMUM'],
    [{ ...sell, sourceAmount: '0.000001' }, 'sourceAmount', 'BELOW_MINIMUM'],
    [{ ...buy, rail: 'TED' }, 'rail', 'NOT_ONE_OF'],
    [{ ...buy, colour: 'blue' }, 'colour', 'UNKNOWN_FIELD'],
  ];
  for (const [body, path, code] of cases) {
    const res = await p.api.post('/v2/exchange-rates', body);
    assert.equal(res.status, 400, `${code}: ${res.text}`);
    const issue = (res.body.errors as { path: string; code?: string }[]).find((e) => e.path === path);
    assert.equal(issue?.code, code, `${path}: ${res.text}`);
    if (code === 'BELOW_MINIMUM') assert.match(res.body.minimumSourceAmount, /^\d+\.\d{6}$/);
  }
});
