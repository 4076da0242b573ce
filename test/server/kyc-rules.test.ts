// The refusals of KYC: each associated-party rule, each document rule (order, side, type by bytes, 50 MB while streaming), additional information, and review surviving a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_DOCUMENT_BYTES } from '../../src/contract/kyc';
import { openStore } from '../../server/store/db';
import { business, client, individual, newPartner, openTestStore, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, businessInfo, individualInfo, PDF, readyIndividual, upload } from './kyc-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

const person = (over: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL', roles: ['UBO'], ownershipPercentage: '50', name: 'Carla Dias', taxId: taxIdEndingIn('cpf'), birthDate: '1980-01-01', email: 'carla@acme.example', address, ...over,
});
const company = (over: Record<string, unknown> = {}) => ({
  type: 'BUSINESS', roles: ['SHAREHOLDER'], ownershipPercentage: '50', legalName: 'Holding SA', taxId: taxIdEndingIn('cnpj'), incorporationDate: '2010-01-01', email: 'ir@holding.example', address, ...over,
});

async function newBusiness() {
  const p = await newPartner(server);
  const { body } = await p.api.post('/v2/customers', business());
  return { ...p, id: body.id as string };
}

const refusedOn = (res: { status: number; body: any; text: string }, path: string, status = 400) => {
  assert.equal(res.status, status, res.text);
  assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), `expected an error on ${path}: ${res.text}`);
};

describe('associated-party rules', () => {
  test('a UBO is always an individual', async () => {
    const { api, id } = await newBusiness();
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, company({ roles: ['UBO'] })), 'roles');
  });

  test('a REPRESENTATIVE is always an individual', async () => {
    const { api, id } = await newBusiness();
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, company({ roles: ['REPRESENTATIVE'], ownershipPercentage: undefined })), 'roles');
  });

  test('a SHAREHOLDER may be an individual or a business', async () => {
    const { api, id } = await newBusiness();
    assert.equal((await api.post(`/v2/customers/${id}/associated-parties`, person({ roles: ['SHAREHOLDER'] }))).status, 201);
    assert.equal((await api.post(`/v2/customers/${id}/associated-parties`, company())).status, 201);
  });

  test('UBO and SHAREHOLDER need ownershipPercentage', async () => {
    const { api, id } = await newBusiness();
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ ownershipPercentage: undefined })), 'ownershipPercentage');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, company({ ownershipPercentage: undefined })), 'ownershipPercentage');
  });

  test('ownershipPercentage is 25 to 100', async () => {
    const { api, id } = await newBusiness();
    for (const pct of ['24.99', '100.01', '0', 101, 'abc']) {
      refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ ownershipPercentage: pct })), 'ownershipPercentage');
    }
    assert.equal((await api.post(`/v2/customers/${id}/associated-parties`, person({ ownershipPercentage: '25' }))).status, 201);
  });

  test('a REPRESENTATIVE needs no ownership, and one party may hold several roles', async () => {
    const { api, id } = await newBusiness();
    const rep = await api.post(`/v2/customers/${id}/associated-parties`, person({ roles: ['REPRESENTATIVE'], ownershipPercentage: undefined }));
    assert.equal(rep.status, 201, rep.text);
    assert.equal(rep.body.ownershipPercentage, null);
    const both = await api.post(`/v2/customers/${id}/associated-parties`, person({ roles: ['UBO', 'SHAREHOLDER', 'REPRESENTATIVE'], ownershipPercentage: '30' }));
    assert.equal(both.status, 201, both.text);
    assert.deepEqual(both.body.roles, ['UBO', 'SHAREHOLDER', 'REPRESENTATIVE']);
  });

  test('shareholders under one parent own at most 100% together', async () => {
    const { api, id } = await newBusiness();
    assert.equal((await api.post(`/v2/customers/${id}/associated-parties`, company({ ownershipPercentage: '70' }))).status, 201);
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, company({ ownershipPercentage: '31' })), 'ownershipPercentage');
  });

  test('a nested party may only be a SHAREHOLDER: UBO and REPRESENTATIVE are top level only', async () => {
    const { api, id } = await newBusiness();
    const parent = (await api.post(`/v2/customers/${id}/associated-parties`, company())).body;
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: parent.id })), 'roles');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: parent.id, roles: ['REPRESENTATIVE'], ownershipPercentage: undefined })), 'roles');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: parent.id, roles: ['SHAREHOLDER', 'UBO'] })), 'roles');
    assert.equal((await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: parent.id, roles: ['SHAREHOLDER'] }))).status, 201);
  });

  test('parentId must be a business shareholder of the same customer', async () => {
    const { api, id } = await newBusiness();
    const individualParent = (await api.post(`/v2/customers/${id}/associated-parties`, person({ roles: ['SHAREHOLDER'] }))).body;
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: individualParent.id, roles: ['SHAREHOLDER'] })), 'parentId');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d', roles: ['SHAREHOLDER'] })), 'parentId', 404);
    const other = await newBusiness();
    const foreignParent = (await other.api.post(`/v2/customers/${other.id}/associated-parties`, company())).body;
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: foreignParent.id, roles: ['SHAREHOLDER'] })), 'parentId', 404);
  });

  test('shareholders nest over several levels', async () => {
    const { api, id } = await newBusiness();
    const l1 = (await api.post(`/v2/customers/${id}/associated-parties`, company({ ownershipPercentage: '100' }))).body;
    const l2 = await api.post(`/v2/customers/${id}/associated-parties`, company({ parentId: l1.id, ownershipPercentage: '100' }));
    assert.equal(l2.status, 201, l2.text);
    const l3 = await api.post(`/v2/customers/${id}/associated-parties`, person({ parentId: l2.body.id, roles: ['SHAREHOLDER'], ownershipPercentage: '100' }));
    assert.equal(l3.status, 201, l3.text);
  });

  test('parties belong to business customers only', async () => {
    const { api } = await newPartner(server);
    const { body: ind } = await api.post('/v2/customers', individual());
    const res = await api.post(`/v2/customers/${ind.id}/associated-parties`, person());
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'INVALID_STATE');
  });

  test("an individual party needs name and birthDate, a business party legalName and incorporationDate, both a valid taxId", async () => {
    const { api, id } = await newBusiness();
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ name: undefined })), 'name');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ birthDate: undefined })), 'birthDate');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, company({ legalName: undefined })), 'legalName');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ taxId: '123.456.789-00' })), 'taxId');
    refusedOn(await api.post(`/v2/customers/${id}/associated-parties`, person({ address: { ...address, country: 'XX' } })), 'address.country');
  });
});

describe('document rules', () => {
  test('documents before additional information are a 409', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const res = await upload(server, apiKey, c.id, { type: 'BANK_STATEMENT' });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body.missing, ['ADDITIONAL_INFORMATION']);
    assert.equal((await api.get(`/v2/customers/${c.id}/documents`)).body.data.length, 0);
  });

  async function infoDone() {
    const p = await newPartner(server);
    const { body: c } = await p.api.post('/v2/customers', individual());
    await p.api.patch(`/v2/customers/${c.id}/additional-information`, individualInfo());
    return { ...p, id: c.id as string };
  }

  test('the record carries the fields of a document', async () => {
    const { apiKey, id, api } = await infoDone();
    const res = await upload(server, apiKey, id, { type: 'BANK_STATEMENT', country: 'bra' }, { bytes: PDF, name: 'extrato.pdf' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['associatedPartyId', 'comment', 'contentType', 'country', 'createdAt', 'fileName', 'id', 'rejectLabels', 'sha256', 'side', 'size', 'status', 'type'].sort());
    assert.equal(res.body.contentType, 'application/pdf');
    assert.equal(res.body.fileName, 'extrato.pdf');
    assert.equal(res.body.size, PDF.length);
    assert.equal(res.body.country, 'BRA');
    assert.equal(res.body.status, 'SENT');
    assert.equal(res.body.sha256, (await import('node:crypto')).createHash('sha256').update(PDF).digest('hex'));
    assert.equal((await api.get(`/v2/customers/${id}/documents`)).body.data[0].id, res.body.id);
  });

  test('side is required for ID_CARD and DRIVERS_LICENSE, and ignored on other types (a PASSPORT with a side is accepted, stored without one)', async () => {
    const { apiKey, id } = await infoDone();
    refusedOn(await upload(server, apiKey, id, { type: 'ID_CARD' }), 'side');
    refusedOn(await upload(server, apiKey, id, { type: 'DRIVERS_LICENSE' }), 'side');
    const passport = await upload(server, apiKey, id, { type: 'PASSPORT', side: 'FRONT_SIDE', country: 'BRA' });
    assert.equal(passport.status, 201, passport.text);
    assert.equal(passport.body.side, null);
  });

  test('type, country and associatedPartyId are checked', async () => {
    const { apiKey, id } = await infoDone();
    refusedOn(await upload(server, apiKey, id, { type: 'SELFIE_VIDEO' }), 'type');
    refusedOn(await upload(server, apiKey, id, {}), 'type');
    refusedOn(await upload(server, apiKey, id, { type: 'SELFIE' }), 'type');
    refusedOn(await upload(server, apiKey, id, { type: 'PASSPORT', country: 'XYZ' }), 'country');
    refusedOn(await upload(server, apiKey, id, { type: 'PASSPORT', associatedPartyId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' }), 'associatedPartyId', 404);
  });

  test('a text file named .pdf is refused with 415: the type is read from the bytes', async () => {
    const { apiKey, id, api } = await infoDone();
    const res = await upload(server, apiKey, id, { type: 'BANK_STATEMENT' }, { bytes: Buffer.from('just some text, not a PDF at all\n'.repeat(10)), name: 'statement.pdf', type: 'application/pdf' });
    assert.equal(res.status, 415);
    assert.equal(res.body.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal((await api.get(`/v2/customers/${id}/documents`)).body.data.length, 0);
  });

  test('a JSON body is not an upload: 415', async () => {
    const { api, id } = await infoDone();
    const res = await api.post(`/v2/customers/${id}/documents`, { type: 'BANK_STATEMENT' });
    assert.equal(res.status, 415);
  });

  test('a declared body over 50 MB is refused with 413 before it is read', async () => {
    const { apiKey, id } = await infoDone();
    const res = await server.app.request(`/v2/customers/${id}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(MAX_DOCUMENT_BYTES + 1024 * 1024) },
      body: '--x--',
    });
    assert.equal(res.status, 413);
  });

  test('a 50 MB + 1 byte file streamed without Content-Length is refused with 413, and memory does not grow by the file', async () => {
    const { apiKey, id, api } = await infoDone();
    const boundary = 'ramp-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nBANK_STATEMENT\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const fileBytes = MAX_DOCUMENT_BYTES + 1;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 9; // the %PDF-1.4\n already in `head`
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    gc();
    const baseline = used();
    let peak = baseline;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(head));
      },
      pull(controller) {
        if (sent >= fileBytes) {
          controller.enqueue(new Uint8Array(tail));
          controller.close();
          return;
        }
        // Sampled as the server pulls the body: the server's memory is this process's memory.
        if (++pulls % 8 === 0) peak = Math.max(peak, used());
        const n = Math.min(chunk.length, fileBytes - sent);
        sent += n;
        controller.enqueue(chunk.subarray(0, n));
      },
    });
    const res = await server.app.request(`/v2/customers/${id}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    peak = Math.max(peak, used());
    assert.equal(res.status, 413, await res.clone().text());
    assert.equal((await res.json()).code, 'PAYLOAD_TOO_LARGE');
    assert.ok(sent >= fileBytes, 'the whole body was offered');
    // Garbage between collections counts in the peak, so the bound is loose; a buffered file would put 50 MB in it at once.
    const growth = peak - baseline;
    assert.ok(growth < 40 * 1024 * 1024, `memory peaked ${(growth / 1024 / 1024).toFixed(1)} MB above the baseline while streaming a 50 MB file`);
    gc();
    const retained = used() - baseline;
    assert.ok(retained < 5 * 1024 * 1024, `${(retained / 1024 / 1024).toFixed(1)} MB retained after the upload`);
    assert.equal((await api.get(`/v2/customers/${id}/documents`)).body.data.length, 0);
  });
});

describe('additional information', () => {
  test('each field is checked and named', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const cases: [Record<string, unknown>, string][] = [
      [individualInfo({ phone: '11987654321' }), 'phone'],
      [individualInfo({ phone: '+55 11 1' }), 'phone'],
      [individualInfo({ address: { ...address, country: 'ZZZ' } }), 'address.country'],
      [individualInfo({ monthlyVolumeInUSD: 2500 }), 'monthlyVolumeInUSD'],
      [individualInfo({ monthlyVolumeInUSD: '2,500' }), 'monthlyVolumeInUSD'],
      [individualInfo({ professionalSituation: 'ASTRONAUT' }), 'professionalSituation'],
      [individualInfo({ jurisdictions: [] }), 'jurisdictions'],
      [individualInfo({ firstName: undefined }), 'firstName'],
      [individualInfo({ middleName: undefined }), 'middleName'],
      [businessInfo(), 'type'],
    ];
    for (const [body, path] of cases) refusedOn(await api.patch(`/v2/customers/${c.id}/additional-information`, body), path);
    assert.equal((await api.get(`/v2/customers/${c.id}`)).body.additionalInformation, undefined);
  });

  test('a business must explain a regulated activity', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', business());
    refusedOn(await api.patch(`/v2/customers/${c.id}/additional-information`, businessInfo({ isRegulatedActivity: true, regulatedActivityDetails: '' })), 'regulatedActivityDetails');
    const ok = await api.patch(`/v2/customers/${c.id}/additional-information`, businessInfo({ isRegulatedActivity: true, regulatedActivityDetails: 'Licensed payment institution, BCB 123.' }));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.additionalInformation.companyType, 'PAYMENT_GATEWAY');
    assert.equal(ok.body.requirements[0].status, 'SENT');
  });

  test('is refused while under review and after approval', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    assert.equal((await api.patch(`/v2/customers/${id}/additional-information`, individualInfo())).status, 409);
  });
});

describe('restarts', () => {
  test('a customer under review when the process stops is still reviewed after it starts again', async () => {
    const url = process.env.DATABASE_URL;
    const dir = mkdtempSync(join(tmpdir(), 'ramp-review-restart-'));
    const schema = `ramp_test_restart_${process.pid}`;
    const open = () => (url ? openStore({ databaseUrl: url, schema }) : openStore({ dataDir: dir }));
    const env = { RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_API_KEY: `sk_sandbox_${'r'.repeat(32)}`, RAMP_SESSION_SECRET: 's'.repeat(40) };
    try {
      const first = await startTestServer(env, { store: await open() });
      const api = client(first, first.apiKey);
      const id = await readyIndividual(first, api, first.apiKey, 0);
      await api.post(`/v2/sandbox/customers/${id}/liveness`);
      assert.equal((await api.get(`/v2/customers/${id}`)).body.verification.status, 'UNDER_VERIFICATION');
      await first.close();
      await first.deps.store.close();

      const second = await startTestServer(env, { store: await open() });
      try {
        assert.equal(await second.advance(61), 1);
        assert.equal((await client(second, second.apiKey).get(`/v2/customers/${id}`)).body.verification.status, 'APPROVED');
      } finally {
        await second.close();
        await second.deps.store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (url) {
        const { store, drop } = await openTestStore();
        await store.db.execute((await import('drizzle-orm')).sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
        await drop();
      }
    }
  });
});
