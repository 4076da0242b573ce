// Validation errors a form can act on: every errors[] entry has a code from the one table (src/contract/field-codes.ts),
// our own English (never zod's), and an RFC 6901 pointer beside its dotted path; a body's errors come all at once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { FIELD_ERROR_CODES, fromPointer, toPointer } from '../../src/contract/field-codes';
import { issuesOf } from '../../server/domain/zod-issues';
import { business, client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { pixAccount } from './transactions-helpers';

interface Entry {
  path: string;
  pointer: string;
  code: string;
  message: string;
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const ZOD_WORDING = /Invalid input|expected \w+, received|Too (small|big):|Unrecognized key|Invalid option|Invalid (string|UUID|discriminator)/;

/** The rules every entry keeps; answers the entries. */
function entriesOf(res: { status: number; body: any; text: string }): Entry[] {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'VALIDATION_FAILED', res.text);
  const errors = res.body.errors as Entry[];
  assert.ok(Array.isArray(errors) && errors.length > 0, `no errors[]: ${res.text}`);
  for (const e of errors) {
    assert.ok((FIELD_ERROR_CODES as readonly string[]).includes(e.code), `code ${e.code} is not in the table: ${res.text}`);
    assert.equal(typeof e.pointer, 'string', res.text);
    assert.deepEqual(fromPointer(e.pointer)?.join('.') || '(body)', e.path, `pointer ${e.pointer} and path ${e.path} disagree`);
    assert.doesNotMatch(e.message, ZOD_WORDING, res.text);
  }
  assert.doesNotMatch(res.body.detail, ZOD_WORDING, res.text);
  return errors;
}

const find = (errors: Entry[], path: string) => errors.find((e) => e.path === path);

test('every code of the table is in the OpenAPI enum and in docs/api.md', async () => {
  const doc = await (await server.app.request('/openapi.json')).json();
  const entry = doc.components.schemas.Problem.properties.errors.items;
  assert.deepEqual([...entry.properties.code.enum].sort(), [...FIELD_ERROR_CODES].sort());
  assert.deepEqual([...entry.required].sort(), ['code', 'message', 'path', 'pointer']);
  const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  for (const code of FIELD_ERROR_CODES) assert.match(docs, new RegExp(`^\\s*\\| \`${code}\` \\|`, "m"), `docs/api.md has no table row for ${code}`);
});

test('zod issues map onto the table, in our words', () => {
  const schema = z.strictObject({
    s: z.string().min(2).max(3),
    n: z.number().int().min(1).max(5),
    big: z.number().max(5),
    e: z.enum(['A', 'B']),
    id: z.uuid(),
    list: z.array(z.string()).min(1),
    t: z.string(),
    nested: z.object({ deep: z.object({ country: z.string() }) }),
    u: z.discriminatedUnion('kind', [z.object({ kind: z.literal('X') }), z.object({ kind: z.literal('Y') })]),
    w: z.union([z.string(), z.number()]),
  });
  const input = { s: 'x', n: 1.5, big: 9, e: 'C', id: 'nope', list: [], t: 5, nested: { deep: {} }, u: {}, w: true, extra: 1, 'a/b~c': 2 };
  const r = schema.safeParse(input);
  assert.ok(!r.success);
  const issues = issuesOf(r.error, 'json', input);
  const code = (path: string) => issues.find((i) => i.path === path)?.code;
  assert.equal(code('s'), 'TOO_SHORT');
  assert.equal(code('n'), 'INVALID_TYPE');
  assert.equal(code('big'), 'TOO_LARGE');
  assert.equal(code('e'), 'NOT_ONE_OF');
  assert.equal(code('id'), 'INVALID_FORMAT');
  assert.equal(code('list'), 'TOO_FEW');
  assert.equal(code('t'), 'INVALID_TYPE');
  assert.equal(code('nested.deep.country'), 'REQUIRED');
  assert.equal(code('u.kind'), 'REQUIRED');
  assert.equal(code('w'), 'INVALID_VALUE');
  assert.equal(code('extra'), 'UNKNOWN_FIELD');
  assert.equal(issues.find((i) => i.path === 'a/b~c')?.pointer, '/a~1b~0c');
  for (const i of issues) assert.doesNotMatch(i.message, ZOD_WORDING);
  const query = issuesOf(z.object({ size: z.coerce.number().int() }).safeParse({ size: 'x' }).error!, 'query', { size: 'x' });
  assert.deepEqual(query.map((i) => [i.path, i.pointer]), [['query.size', '/query/size']]);
  assert.equal(toPointer(['roles', 1]), '/roles/1');
});

test('a missing nested field is REQUIRED with its pointer', async () => {
  const p = await newPartner(server);
  const customerId = (await p.api.post('/v2/customers', individual())).body.id as string;
  const account = pixAccount(customerId);
  const { country: _, ...address } = account.holder.address;
  const errors = entriesOf(await p.api.post('/v2/bank-accounts', { ...account, holder: { ...account.holder, address } }));
  const issue = find(errors, 'holder.address.country');
  assert.equal(issue?.code, 'REQUIRED', JSON.stringify(errors));
  assert.equal(issue?.pointer, '/holder/address/country');
});

test('an empty body (none, empty JSON, or {}) names each required field', async () => {
  const p = await newPartner(server);
  for (const body of [undefined, '', {}]) {
    const errors = entriesOf(await p.api.post('/v2/bank-accounts', body));
    for (const field of ['customerId', 'name', 'rail', 'currency', 'identifier', 'holder']) {
      assert.equal(find(errors, field)?.code, 'REQUIRED', `${field} with body ${JSON.stringify(body)}: ${JSON.stringify(errors)}`);
    }
  }
  const none = entriesOf(await p.api.post('/v2/customers', ''));
  assert.equal(find(none, 'type')?.code, 'REQUIRED', JSON.stringify(none));
});

test('several bad fields, in the path and in the body, come back in one answer', async () => {
  const p = await newPartner(server);
  const res = await p.api.patch('/v2/customers/not-a-uuid/additional-information', { type: 'INDIVIDUAL', phone: 7, colour: 'blue' });
  const errors = entriesOf(res);
  assert.equal(find(errors, 'id')?.code, 'INVALID_FORMAT', res.text);
  assert.equal(find(errors, 'phone')?.code, 'INVALID_TYPE', res.text);
  assert.equal(find(errors, 'colour')?.code, 'UNKNOWN_FIELD', res.text);
  assert.ok(errors.some((e) => e.code === 'REQUIRED'), res.text);

  const created = (await p.api.post('/v2/customers', business())).body.id as string;
  const list = entriesOf(await p.api.get('/v2/customers?size=0&cursor=nope'));
  assert.deepEqual(list.map((e) => [e.path, e.pointer, e.code]).sort(), [
    ['query.cursor', '/query/cursor', 'INVALID_FORMAT'],
    ['query.size', '/query/size', 'TOO_SMALL'],
  ]);
  assert.ok(created);
});

test('a body refused for its shape also names what the later rules find: check digits and dates beside the missing field', async () => {
  const p = await newPartner(server);
  const res = await p.api.post('/v2/customers', { type: 'INDIVIDUAL', taxId: '529.982.247-26', birthDate: '2999-01-01', email: 'nope' });
  const errors = entriesOf(res);
  assert.deepEqual(errors.map((e) => [e.path, e.code]).sort(), [
    ['birthDate', 'FUTURE_DATE'],
    ['email', 'INVALID_FORMAT'],
    ['name', 'REQUIRED'],
    ['taxId', 'INVALID_TAX_ID'],
  ], res.text);
  assert.equal((await p.api.get('/v2/customers')).body.data.length, 0, 'nothing written');

  const customerId = (await p.api.post('/v2/customers', individual())).body.id as string;
  const account = pixAccount(customerId);
  const { name: _, ...rest } = account;
  const bank = await p.api.post('/v2/bank-accounts', { ...rest, holder: { ...account.holder, relationship: 'FRIEND', taxId: '111.111.111-11', birthDate: '2999-01-01' } });
  assert.deepEqual(entriesOf(bank).map((e) => [e.path, e.code]).sort(), [
    ['holder.birthDate', 'FUTURE_DATE'],
    ['holder.taxId', 'INVALID_TAX_ID'],
    ['name', 'REQUIRED'],
  ], bank.text);
});

test('hand-written checks carry codes too, and keys are escaped in pointers', async () => {
  const p = await newPartner(server);
  const errors = entriesOf(await p.api.post('/v2/customers', individual({ taxId: '111.111.111-11', birthDate: '2999-01-01' })));
  assert.equal(find(errors, 'taxId')?.code, 'INVALID_TAX_ID', JSON.stringify(errors));
  assert.equal(find(errors, 'birthDate')?.code, 'FUTURE_DATE', JSON.stringify(errors));
  const keyed = entriesOf(await p.api.post('/v2/customers', individual({ metadata: { 'a/b~c': 'x\u0000' } })));
  assert.deepEqual(keyed.map((e) => [e.pointer, e.code]), [['/metadata/a~1b~0c', 'INVALID_CHARACTERS']]);
  const dotted = entriesOf(await p.api.post('/v2/customers', individual({ metadata: { 'd.e': 'x'.repeat(501), list: ['y'.repeat(501)] } })));
  assert.deepEqual(dotted.map((e) => [e.pointer, e.code]).sort(), [['/metadata/d.e', 'TOO_LONG'], ['/metadata/list/0', 'TOO_LONG']], JSON.stringify(dotted));
  const bad = entriesOf(await client(server, p.apiKey).post('/v2/customers', '{"type":'));
  assert.deepEqual(bad.map((e) => [e.path, e.pointer, e.code]), [['(body)', '', 'INVALID_BODY']]);
});
