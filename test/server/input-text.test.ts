// Hostile text: control characters, deep or oversized JSON, malformed filters are 400 problems naming the field; logs of a failed query hold no personal data.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { emptyBankForm } from '../../src/components/offramp/model';
import { fieldError } from '../../src/components/offramp/validators';
import { checkNewCustomer, fieldErrorMessages } from '../../src/contract/customer-rules';
import { checkText, cleanFileName, cleanText, metadataIssues, MULTILINE_TEXT_PATTERN, TEXT_PATTERN, textErrorMessages } from '../../src/contract/text';
import { client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, individualInfo } from './kyc-helpers';
import { pixAccount } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

type Api = ReturnType<typeof client>;

/** A 400 problem whose `errors[]` names `path`. */
function assertNamed(res: { status: number; headers: Headers; body: any; text: string }, path: string) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  assert.equal(res.body.code, 'VALIDATION_FAILED');
  assert.ok(
    res.body.errors?.some((e: { path: string }) => e.path === path),
    `expected an error on ${path}, got ${JSON.stringify(res.body.errors)}`,
  );
}

const fee = (over: Record<string, unknown> = {}) => ({
  name: 'Marketplace fee',
  walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } },
  ...over,
});

async function countRows(table: string): Promise<number> {
  const res = await server.deps.store.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
  return Number((res as unknown as { rows: { n: number }[] }).rows[0]!.n);
}

describe('the text rule (shared with the components)', () => {
  test('control characters and lone surrogates are refused, line feeds only in multi-line text', () => {
    for (const bad of ['a\u0000b', 'a\u0001', '\u007f', 'a\u0085b', 'a\u009fb', 'x\ud800', 'line\nbreak', 'tab\tbed']) {
      assert.equal(checkText(bad), 'controlCharacter', JSON.stringify(bad));
    }
    assert.equal(checkText('line\nbreak\ttab', { multiline: true }), undefined);
    assert.equal(checkText('nul\u0000', { multiline: true }), 'controlCharacter');
    for (const good of ['Ana Souza', 'José', '😀 emoji', 'مرحبا', 'עברית', 'a\u0301']) assert.equal(checkText(good), undefined, good);
  });

  test('the OpenAPI pattern says the same as the check, with and without the u flag', () => {
    const samples = ['', 'Ana', 'a\u0000', '\u001f', '\u007f', '\u0085', '\u00a0ok', '😀', 'x\ud800', '\udc00x', '\ud83d\ude00\ud800', 'a\nb', 'a\tb', 'a\rb', 'مرحبا'];
    for (const [pattern, multiline] of [[TEXT_PATTERN, false], [MULTILINE_TEXT_PATTERN, true]] as const) {
      for (const s of samples) {
        const ok = checkText(s, { multiline }) !== 'controlCharacter';
        assert.equal(new RegExp(pattern).test(s), ok, `${JSON.stringify(s)} without u`);
        assert.equal(new RegExp(pattern, 'u').test(s), ok, `${JSON.stringify(s)} with u`);
      }
    }
  });

  test('text is NFC-normalised and trimmed', () => {
    assert.equal(cleanText('  Jose\u0301 '), 'Jos\u00e9');
    assert.equal(cleanText('a\r\nb', { multiline: true }), 'a\nb');
    assert.equal(cleanFileName('ra\u0000port\u0007.pdf'), 'raport.pdf');
    assert.equal(cleanFileName('\u0000'), 'document');
  });

  test('the components check the same rule before sending, in the server\'s words', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const bad = checkNewCustomer({ type: 'INDIVIDUAL', name: 'Ana\u0000', taxId: '529.982.247-25', birthDate: '1990-05-17' }, now);
    assert.deepEqual(bad, { name: 'controlCharacter' });
    assert.equal(fieldErrorMessages.controlCharacter, textErrorMessages.controlCharacter);
    const form = { ...emptyBankForm('PIX'), name: 'Conta\u0001' };
    assert.equal(fieldError(form, 'name', '2026-01-01'), 'controlCharacter');
  });

  test('metadata is bounded: keys, depth, string length, size; a 10,000-deep value costs no stack', () => {
    assert.deepEqual(metadataIssues({ a: { b: { c: { d: { e: 'x' } } } } }), []);
    assert.ok(metadataIssues({ a: { b: { c: { d: { e: { f: 'x' } } } } } }).some((i) => /deeper/.test(i.message)));
    assert.ok(metadataIssues({ k: 'x'.repeat(501) }).some((i) => i.path === 'k'));
    assert.ok(metadataIssues({ ['k'.repeat(41)]: 1 }).length > 0);
    assert.ok(metadataIssues(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))).length > 0);
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    assert.ok(metadataIssues({ deep }).length > 0);
  });
});

describe('control characters in bodies answer 400 naming the field, and write nothing', () => {
  let api: Api;
  let customerId: string;
  before(async () => {
    ({ api } = await newPartner(server));
    const res = await api.post('/v2/customers', individual());
    assert.equal(res.status, 201, res.text);
    customerId = res.body.id;
  });

  test('customer name, metadata values and keys, email, country', async () => {
    const before = await countRows('customers');
    assertNamed(await api.post('/v2/customers', individual({ name: 'Ana\u0000Souza' })), 'name');
    assertNamed(await api.post('/v2/customers', individual({ name: 'Ana\u0001' })), 'name');
    assertNamed(await api.post('/v2/customers', individual({ metadata: { ref: 'u\u0000' } })), 'metadata.ref');
    assertNamed(await api.post('/v2/customers', individual({ metadata: { 'r\u0000f': 'u' } })), 'metadata.r?f');
    assertNamed(await api.post('/v2/customers', individual({ metadata: { list: ['ok', 'n\u0000'] } })), 'metadata.list.1');
    assertNamed(await api.post('/v2/customers', individual({ country: 'BR\u0000' })), 'country');
    assertNamed(await api.post('/v2/customers', individual({ name: 'x\ud800' })), 'name');
    assert.equal(await countRows('customers'), before);
  });

  test('metadata nested 10,000 deep, or deeper than 5, or with long strings', async () => {
    const before = await countRows('customers');
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const body = JSON.stringify(individual()).replace(/}$/, `,"metadata":{"d":${deep}}}`);
    assertNamed(await api.post('/v2/customers', body), '(body)');
    assertNamed(await api.post('/v2/customers', individual({ metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } })), 'metadata.a.b.c.d.e');
    assertNamed(await api.post('/v2/customers', individual({ metadata: { note: 'x'.repeat(501) } })), 'metadata.note');
    assert.equal(await countRows('customers'), before);
  });

  test('names are stored NFC and trimmed', async () => {
    const res = await api.post('/v2/customers', individual({ name: '  Jose\u0301 Souza ' }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'Jos\u00e9 Souza');
  });

  test('partner-fee names', async () => {
    const before = await countRows('partner_fees');
    assertNamed(await api.post('/v2/partner-fees', fee({ name: 'fee\u0000' })), 'name');
    assertNamed(await api.post('/v2/partner-fees', fee({ fees: { onRamp: { rate: '1\u0000', flatAmount: '0' }, offRamp: { rate: '1', flatAmount: '0' } } })), 'fees.onRamp.rate');
    assert.equal(await countRows('partner_fees'), before);
  });

  test('bank-account names, holder and address', async () => {
    const before = await countRows('bank_accounts');
    assertNamed(await api.post('/v2/bank-accounts', pixAccount(customerId, { name: 'Conta\u0000' })), 'name');
    const holder = pixAccount(customerId).holder;
    assertNamed(await api.post('/v2/bank-accounts', pixAccount(customerId, { holder: { ...holder, name: 'Ana\u0000' } })), 'holder.name');
    assertNamed(
      await api.post('/v2/bank-accounts', pixAccount(customerId, { holder: { ...holder, address: { ...holder.address, city: 'S\u0000o Paulo' } } })),
      'holder.address.city',
    );
    assert.equal(await countRows('bank_accounts'), before);
  });

  test('additional information and associated parties', async () => {
    assertNamed(await api.patch(`/v2/customers/${customerId}/additional-information`, individualInfo({ firstName: 'A\u0000' })), 'firstName');
    assertNamed(
      await api.patch(`/v2/customers/${customerId}/additional-information`, individualInfo({ address: { ...address, line1: 'Rua\u0000' } })),
      'address.line1',
    );
    assertNamed(await api.patch(`/v2/customers/${customerId}/additional-information`, individualInfo({ professionalOccupation: 'Eng\nineer' })), 'professionalOccupation');
  });

  test('a JSON body deeper than 32 levels is refused before parsing', async () => {
    const body = '['.repeat(33) + ']'.repeat(33);
    assertNamed(await api.post('/v2/customers', body), '(body)');
  });
});

describe('query strings: control characters and malformed filters answer 400 naming the parameter', () => {
  let api: Api;
  before(async () => {
    ({ api } = await newPartner(server));
  });

  for (const [path, param] of [
    ['/v2/customers?email=a%00%40b.co', 'query.email'],
    ['/v2/customers?taxId=%00', 'query.taxId'],
    ['/v2/events?eventType=%00', 'query.eventType'],
    ['/v2/events?eventType=on%01ramp.', 'query.eventType'],
    ['/v2/partner-fees?size=1%00', 'query.size'],
    ['/v2/partner-fees?anything=%C2%85', 'query.anything'],
    ['/v2/transactions?cursor=%00', 'query.cursor'],
  ] as const) {
    test(`${path} names ${param}`, async () => assertNamed(await api.get(path), param));
  }

  for (const [path, param] of [
    ['/v2/customers?taxId=%25', 'query.taxId'],
    ['/v2/customers?taxId=', 'query.taxId'],
    ['/v2/customers?taxId=529_982%25', 'query.taxId'],
    ['/v2/customers?email=%25', 'query.email'],
    ['/v2/customers?email=', 'query.email'],
    ['/v2/events?eventType=%25', 'query.eventType'],
    ['/v2/events?eventType=', 'query.eventType'],
    ['/v2/events?eventType=customer.%25', 'query.eventType'],
  ] as const) {
    test(`malformed filter ${path} is not dropped: 400 naming ${param}`, async () => assertNamed(await api.get(path), param));
  }

  test('well-formed filters still work', async () => {
    const taxId = taxIdEndingIn('cpf');
    const created = await api.post('/v2/customers', individual({ taxId, email: 'Ana@Example.com' }));
    assert.equal(created.status, 201, created.text);
    const punctuated = `${taxId.slice(0, 3)}.${taxId.slice(3, 6)}.${taxId.slice(6, 9)}-${taxId.slice(9)}`;
    const byTax = await api.get(`/v2/customers?taxId=${encodeURIComponent(punctuated)}`);
    assert.deepEqual(byTax.body.data.map((c: { id: string }) => c.id), [created.body.id]);
    const byEmail = await api.get('/v2/customers?email=ana%40example.com');
    assert.deepEqual(byEmail.body.data.map((c: { id: string }) => c.id), [created.body.id]);
    const events = await api.get('/v2/events?eventType=customer.');
    assert.equal(events.status, 200, events.text);
    assert.ok(events.body.data.length >= 1);
  });
});

describe('BFF bodies', () => {
  test('a JSON body that is not an object answers 400, not 500', async () => {
    const api = client(server, server.apiKey); // the BFF serves the bootstrap partner's sessions
    const customer = await api.post('/v2/customers', individual());
    const bound = client(server, (await api.post('/v2/widget-sessions', { customerId: customer.body.id })).body.token);
    const onboarding = client(server, (await api.post('/v2/widget-sessions', {})).body.token);
    for (const body of ['[]', 'null', '"text"', '42', 'true']) {
      for (const [who, path] of [
        [bound, '/bff/transactions/on-ramp'],
        [bound, '/bff/transactions/off-ramp'],
        [bound, '/bff/transactions/transfer'],
        [bound, '/bff/bank-accounts'],
        [bound, '/bff/exchange-rates'],
        [onboarding, '/bff/customers'],
      ] as const) {
        const res = await who.post(path, body);
        assertNamed(res, '(body)');
      }
    }
    const patched = await bound.patch('/bff/customer/additional-information', '[1]');
    assertNamed(patched, '(body)');
    // An upload that is not multipart is refused as such, not forwarded as an empty stream (a 502 before).
    for (const body of ['', '[]', '{"type":"PASSPORT"}']) {
      const res = await bound.send('POST', '/bff/customer/documents', body, { 'content-type': 'application/json' });
      assert.equal(res.status, 415, res.text);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
    }
  });

  test('control characters through the BFF are refused like on /v2', async () => {
    const api = client(server, server.apiKey);
    const onboarding = client(server, (await api.post('/v2/widget-sessions', {})).body.token);
    assertNamed(await onboarding.post('/bff/customers', individual({ name: 'Ana\u0000' })), 'name');
    assertNamed(await onboarding.get('/bff/transactions?cursor=%00'), 'query.cursor');
  });
});

describe('logs of a failed query carry no personal data', () => {
  test('a database error is logged by its code, constraint and statement, without the name, tax id or birth date', async () => {
    const own = await startTestServer();
    try {
      // An injected fault: the database refuses this birth date, so the insert fails inside PostgreSQL.
      await own.deps.store.db.execute(sql.raw(`alter table customers add constraint ramp_test_fault check (birth_date <> '1977-07-07')`));
      const { api } = await newPartner(own);
      const taxId = taxIdEndingIn('cpf');
      const res = await api.post('/v2/customers', individual({ name: 'Zuleica Quaresma', taxId, birthDate: '1977-07-07' }));
      assert.equal(res.status, 500, res.text);
      const errorLines = own.logs.filter((l) => /"level":50/.test(l));
      assert.equal(errorLines.length, 1, own.logs.join(''));
      const log = own.logs.join('');
      for (const secret of [taxId, 'Zuleica', 'Quaresma', '1977-07-07']) assert.ok(!log.includes(secret), `the log holds ${secret}: ${errorLines[0]}`);
      const entry = JSON.parse(errorLines[0]!);
      assert.equal(entry.err.cause?.code ?? entry.err.code, '23514');
      assert.equal(entry.err.cause?.constraint ?? entry.err.constraint, 'ramp_test_fault');
      assert.equal(entry.err.statement, 'insert "customers"');
      assert.ok(entry.err.stack, 'the stack frames are kept');
    } finally {
      await own.close();
    }
  });
});
