// KYC and KYB over HTTP: individuals with taxIds ending 0–3 and a business with a nested shareholder, to each outcome of the spec's state machine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { events } from '../../server/store/schema/index';
import { business, client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, businessInfo, individualInfo, JPG, PNG, readyIndividual, upload } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

const eventTypes = async (partnerId: string, customerId: string) =>
  (await server.deps.store.db.select().from(events).where(eq(events.partnerId, partnerId)).orderBy(events.id))
    .filter((e) => e.customerId === customerId)
    .map((e) => e.eventType);

const status = async (api: ReturnType<typeof client>, id: string) => (await api.get(`/v2/customers/${id}`)).body.verification.status;
const reqs = async (api: ReturnType<typeof client>, id: string) =>
  Object.fromEntries((await api.get(`/v2/customers/${id}`)).body.requirements.map((r: { name: string; status: string }) => [r.name, r.status]));

describe('individuals', () => {
  test('taxId ending 0: liveness starts review by itself, and review approves after the delay', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    assert.deepEqual(await reqs(api, id), { ADDITIONAL_INFORMATION: 'SENT', ID_CARD: 'SENT', BANK_STATEMENT: 'SENT', LIVENESS: 'NOT_SENT' });
    const live = await api.post(`/v2/sandbox/customers/${id}/liveness`);
    assert.equal(live.status, 200);
    assert.equal(live.body.verification.status, 'UNDER_VERIFICATION');
    assert.equal(await server.advance(30), 0, 'nothing is decided before RAMP_SANDBOX_REVIEW_MS');
    assert.equal(await status(api, id), 'UNDER_VERIFICATION');
    assert.equal(await server.advance(31), 1);
    assert.equal(await status(api, id), 'APPROVED');
    assert.deepEqual(await reqs(api, id), { ADDITIONAL_INFORMATION: 'APPROVED', ID_CARD: 'APPROVED', BANK_STATEMENT: 'APPROVED', LIVENESS: 'APPROVED' });
    const vs = await api.get(`/v2/customers/${id}/verifications`);
    assert.equal(vs.body.data.length, 1);
    const v = await api.get(`/v2/customers/${id}/verifications/${vs.body.data[0].id}`);
    assert.deepEqual({ customerId: v.body.customerId, status: v.body.status, level: v.body.level }, { customerId: id, status: 'APPROVED', level: 'STANDARD' });
    assert.equal(v.body.statusReason, undefined);
    assert.deepEqual(await eventTypes(partnerId, id), ['customer.created', 'customer.under_verification', 'customer.approved']);
    const docs = await api.get(`/v2/customers/${id}/documents`);
    assert.ok(docs.body.data.every((d: { status: string }) => d.status === 'APPROVED'));
  });

  test('liveness before the documents: review starts when the last document arrives', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual({ taxId: taxIdEndingIn('cpf', 5) }));
    await api.patch(`/v2/customers/${c.id}/additional-information`, individualInfo());
    assert.equal((await api.post(`/v2/sandbox/customers/${c.id}/liveness`)).body.verification.status, 'NOT_STARTED');
    await upload(server, apiKey, c.id, { type: 'PASSPORT', country: 'BRA' }, { bytes: JPG });
    assert.equal(await status(api, c.id), 'NOT_STARTED');
    await upload(server, apiKey, c.id, { type: 'BANK_STATEMENT' });
    assert.equal(await status(api, c.id), 'UNDER_VERIFICATION');
  });

  test('taxId ending 1: verification never starts, the customer stays NOT_STARTED', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 1);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    await server.advance(120);
    assert.equal(await status(api, id), 'NOT_STARTED');
    assert.equal((await reqs(api, id)).LIVENESS, 'SENT');
    assert.deepEqual(await eventTypes(partnerId, id), ['customer.created']);
  });

  test('taxId ending 2: TEMPORARY_REJECTION with statusReason; re-uploading the document resumes review, which approves', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 2);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    await server.advance(61);
    const rejected = await api.get(`/v2/customers/${id}`);
    assert.equal(rejected.body.verification.status, 'TEMPORARY_REJECTION');
    assert.equal((await reqs(api, id)).BANK_STATEMENT, 'REJECTED');
    const v = (await api.get(`/v2/customers/${id}/verifications`)).body.data[0];
    assert.equal(v.status, 'TEMPORARY_REJECTION');
    assert.deepEqual(v.statusReason.rejectLabels, ['DOCUMENT_OUTDATED']);
    assert.equal(v.statusReason.documents.length, 1);
    assert.deepEqual(Object.keys(v.statusReason.documents[0]).sort(), ['comment', 'rejectLabels', 'status', 'type']);
    assert.equal(v.statusReason.documents[0].type, 'BANK_STATEMENT');
    assert.equal(v.statusReason.documents[0].status, 'REJECTED');
    const docs = (await api.get(`/v2/customers/${id}/documents`)).body.data;
    const statement = docs.find((d: { type: string }) => d.type === 'BANK_STATEMENT');
    assert.equal(statement.status, 'REJECTED');
    assert.ok(statement.comment);
    // Additional information may be corrected too while TEMPORARY_REJECTION.
    assert.equal((await api.patch(`/v2/customers/${id}/additional-information`, individualInfo({ professionalOccupation: 'Architect' }))).status, 200);
    // Another document does not resume review; the corrected one does.
    await upload(server, apiKey, id, { type: 'INCOME_TAX_RETURN' });
    assert.equal(await status(api, id), 'TEMPORARY_REJECTION');
    const fixed = await upload(server, apiKey, id, { type: 'BANK_STATEMENT' });
    assert.equal(fixed.status, 201);
    assert.equal(await status(api, id), 'UNDER_VERIFICATION');
    await server.advance(61);
    assert.equal(await status(api, id), 'APPROVED');
    assert.equal((await api.get(`/v2/customers/${id}/verifications`)).body.data.length, 1, 'the same verification resumed');
    assert.deepEqual(await eventTypes(partnerId, id), [
      'customer.created',
      'customer.under_verification',
      'customer.temporary_rejection',
      'customer.under_verification',
      'customer.approved',
    ]);
  });

  test('taxId ending 3: FINAL_REJECTION, after which every write for the customer is a 409', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 3);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    await server.advance(61);
    assert.equal(await status(api, id), 'FINAL_REJECTION');
    const writes = [
      await upload(server, apiKey, id, { type: 'BANK_STATEMENT' }),
      await api.patch(`/v2/customers/${id}/additional-information`, individualInfo()),
      await api.post(`/v2/customers/${id}/verifications`),
      await api.post(`/v2/sandbox/customers/${id}/liveness`),
    ];
    for (const w of writes) {
      assert.equal(w.status, 409, w.text);
      assert.equal(w.body.code, 'INVALID_STATE');
    }
    assert.equal(await status(api, id), 'FINAL_REJECTION');
    assert.deepEqual(await eventTypes(partnerId, id), ['customer.created', 'customer.under_verification', 'customer.final_rejection']);
  });

  test('individuals do not start verification by API: liveness starts it', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 4);
    const res = await api.post(`/v2/customers/${id}/verifications`);
    assert.equal(res.status, 409);
  });
});

describe('a business with a nested shareholder', () => {
  test('goes from NOT_STARTED to APPROVED; start is refused with exactly what is missing until everything is in', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 7) }));
    const missing = async () => {
      const r = await api.post(`/v2/customers/${biz.id}/verifications`);
      assert.equal(r.status, 409);
      return r.body.missing as string[];
    };
    assert.deepEqual(await missing(), ['ADDITIONAL_INFORMATION', 'INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY', 'ASSOCIATED_PARTIES']);
    assert.equal((await api.patch(`/v2/customers/${biz.id}/additional-information`, businessInfo())).status, 200);
    for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) {
      assert.equal((await upload(server, apiKey, biz.id, { type })).status, 201);
    }
    assert.deepEqual(await missing(), ['ASSOCIATED_PARTIES']);

    const ubo = await api.post(`/v2/customers/${biz.id}/associated-parties`, {
      type: 'INDIVIDUAL', roles: ['UBO', 'REPRESENTATIVE'], ownershipPercentage: '40', name: 'Carla Dias', taxId: taxIdEndingIn('cpf'), birthDate: '1980-01-01', email: 'carla@acme.example', address,
    });
    assert.equal(ubo.status, 201, ubo.text);
    assert.equal(ubo.body.ownershipPercentage, '40.00');
    assert.equal(ubo.body.verification.status, 'NOT_STARTED');
    const holding = await api.post(`/v2/customers/${biz.id}/associated-parties`, {
      type: 'BUSINESS', roles: ['SHAREHOLDER'], ownershipPercentage: 60, legalName: 'Holding SA', taxId: taxIdEndingIn('cnpj'), incorporationDate: '2010-01-01', email: 'ir@holding.example', address,
    });
    assert.equal(holding.status, 201, holding.text);
    const nested = await api.post(`/v2/customers/${biz.id}/associated-parties`, {
      type: 'INDIVIDUAL', roles: ['SHAREHOLDER'], ownershipPercentage: '100', parentId: holding.body.id, name: 'Davi Lima', taxId: taxIdEndingIn('cpf'), birthDate: '1975-06-30', email: 'davi@holding.example', address,
    });
    assert.equal(nested.status, 201, nested.text);
    assert.equal(nested.body.parentId, holding.body.id);

    assert.deepEqual((await missing()).sort(), [
      `associatedParties.${holding.body.id}.DIRECTORS_REGISTRY`,
      `associatedParties.${holding.body.id}.INCORPORATION_ARTICLES`,
      `associatedParties.${nested.body.id}.ID_CARD`,
      `associatedParties.${ubo.body.id}.ID_CARD`,
    ].sort());
    assert.equal((await upload(server, apiKey, biz.id, { type: 'PASSPORT', associatedPartyId: ubo.body.id }, { bytes: JPG })).status, 201);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'INCORPORATION_ARTICLES', associatedPartyId: holding.body.id })).status, 201);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'DIRECTORS_REGISTRY', associatedPartyId: holding.body.id })).status, 201);
    assert.deepEqual(await missing(), [`associatedParties.${nested.body.id}.ID_CARD`]);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'DRIVERS_LICENSE', side: 'FRONT_SIDE', associatedPartyId: nested.body.id }, { bytes: PNG })).status, 201);
    // A licence needs both sides before it counts.
    assert.deepEqual(await missing(), [`associatedParties.${nested.body.id}.ID_CARD`]);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'DRIVERS_LICENSE', side: 'BACK_SIDE', associatedPartyId: nested.body.id }, { bytes: JPG })).status, 201);

    const parties = (await api.get(`/v2/customers/${biz.id}/associated-parties`)).body.data;
    assert.equal(parties.length, 3);
    assert.ok(parties.every((p: { requirements: { status: string }[] }) => p.requirements.every((r) => r.status === 'SENT')));

    const started = await api.post(`/v2/customers/${biz.id}/verifications`);
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.status, 'UNDER_VERIFICATION');
    assert.equal((await api.post(`/v2/customers/${biz.id}/verifications`)).status, 409, 'cannot start twice');
    await server.advance(61);
    assert.equal(await status(api, biz.id), 'APPROVED');
    const after = (await api.get(`/v2/customers/${biz.id}/associated-parties`)).body.data;
    assert.ok(after.every((p: { verification: { status: string } }) => p.verification.status === 'APPROVED'));
    assert.equal((await api.get(`/v2/customers/${biz.id}/verifications/${started.body.id}`)).body.status, 'APPROVED');
    assert.deepEqual(await eventTypes(partnerId, biz.id), ['customer.created', 'customer.under_verification', 'customer.approved']);
  });

  test('a business with taxId ending 2 re-uploads the rejected registry and is then approved', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 2) }));
    await api.patch(`/v2/customers/${biz.id}/additional-information`, businessInfo());
    for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) await upload(server, apiKey, biz.id, { type });
    const rep = await api.post(`/v2/customers/${biz.id}/associated-parties`, {
      type: 'INDIVIDUAL', roles: ['REPRESENTATIVE'], name: 'Eva Rocha', taxId: taxIdEndingIn('cpf'), birthDate: '1985-01-01', email: 'eva@acme.example', address,
    });
    assert.equal(rep.status, 201, rep.text);
    await upload(server, apiKey, biz.id, { type: 'PASSPORT', associatedPartyId: rep.body.id }, { bytes: JPG });
    assert.equal((await api.post(`/v2/customers/${biz.id}/verifications`)).status, 201);
    await server.advance(61);
    assert.equal(await status(api, biz.id), 'TEMPORARY_REJECTION');
    const reason = (await api.get(`/v2/customers/${biz.id}/verifications`)).body.data[0].statusReason;
    assert.equal(reason.documents[0].type, 'DIRECTORS_REGISTRY');
    await upload(server, apiKey, biz.id, { type: 'DIRECTORS_REGISTRY' });
    assert.equal(await status(api, biz.id), 'UNDER_VERIFICATION');
    await server.advance(61);
    assert.equal(await status(api, biz.id), 'APPROVED');
  });
});

describe('sandbox review helper', () => {
  test('forces an outcome on a verification under review, and refuses otherwise', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    assert.equal((await api.post(`/v2/sandbox/customers/${id}/review`, { outcome: 'APPROVED' })).status, 409);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    const res = await api.post(`/v2/sandbox/customers/${id}/review`, { outcome: 'FINAL_REJECTION' });
    assert.equal(res.status, 200);
    assert.equal(res.body.verification.status, 'FINAL_REJECTION');
    assert.equal(await server.advance(61), 1, 'the scheduled review finds nothing left to decide');
    assert.equal(await status(api, id), 'FINAL_REJECTION');
  });
});

describe('tenancy', () => {
  test("another partner's customer sub-resources are 404", async () => {
    const a = await newPartner(server);
    const b = await newPartner(server);
    const id = await readyIndividual(server, a.api, a.apiKey, 0);
    for (const res of [
      await b.api.get(`/v2/customers/${id}/documents`),
      await b.api.get(`/v2/customers/${id}/associated-parties`),
      await b.api.get(`/v2/customers/${id}/verifications`),
      await b.api.patch(`/v2/customers/${id}/additional-information`, individualInfo()),
      await b.api.post(`/v2/customers/${id}/verifications`),
      await b.api.post(`/v2/sandbox/customers/${id}/liveness`),
      await upload(server, b.apiKey, id, { type: 'BANK_STATEMENT' }),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
    }
  });
});

