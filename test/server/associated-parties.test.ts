// Correcting and removing a business's associated parties: allowed until verification is under way, checked as a new party, 409 afterwards; and through the BFF for the session's customer only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { business, client, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, businessInfo, JPG, upload } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

const ubo = (over: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL', roles: ['UBO'], ownershipPercentage: '40', name: 'Carla Dias', taxId: taxIdEndingIn('cpf'), birthDate: '1980-01-01', email: 'carla@acme.example', address, ...over,
});

describe('associated parties: correct and remove', () => {
  test('PATCH corrects a party (checked as a whole), DELETE removes it with its documents; both 409 once verification is under way', async () => {
    const { api, apiKey } = await newPartner(server);
    // A CNPJ ending in 0: the sandbox starts review for it (one ending in 1 would stay NOT_STARTED, and editable).
    const { body: biz } = await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 0) }));
    const base = `/v2/customers/${biz.id}/associated-parties`;
    const created = await api.post(base, ubo({ name: 'Carla Diaz' }));
    assert.equal(created.status, 201, created.text);
    const partyId = created.body.id as string;

    const fixed = await api.patch(`${base}/${partyId}`, { name: 'Carla Dias', ownershipPercentage: '45' });
    assert.equal(fixed.status, 200, fixed.text);
    assert.equal(fixed.body.name, 'Carla Dias');
    assert.equal(fixed.body.ownershipPercentage, '45.00');
    assert.equal(fixed.body.email, 'carla@acme.example', 'fields not sent are kept');

    const bad = await api.patch(`${base}/${partyId}`, { ownershipPercentage: '10' });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(bad.body.errors.some((e: { path: string }) => e.path === 'ownershipPercentage'), bad.text);
    assert.equal((await api.patch(`${base}/${partyId}`, { type: 'BUSINESS' })).status, 400, 'the type cannot change');
    assert.equal((await api.get(base)).body.data[0].ownershipPercentage, '45.00', 'a refused correction changes nothing');

    assert.equal((await api.patch(`/v2/customers/${biz.id}/additional-information`, businessInfo())).status, 200);
    const other = await api.post(base, ubo({ roles: ['REPRESENTATIVE'], ownershipPercentage: undefined, name: 'Eva Rocha', email: 'eva@acme.example' }));
    assert.equal(other.status, 201, other.text);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'PASSPORT', associatedPartyId: other.body.id }, { bytes: JPG })).status, 201);
    const removed = await api.send('DELETE', `${base}/${other.body.id}`);
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual((await api.get(base)).body.data.map((p: { id: string }) => p.id), [partyId]);
    const docs = (await api.get(`/v2/customers/${biz.id}/documents`)).body.data as { associatedPartyId?: string | null }[];
    assert.ok(!docs.some((d) => d.associatedPartyId === other.body.id), 'its documents went with it');
    assert.equal((await api.send('DELETE', `${base}/${other.body.id}`)).status, 404);

    // Another partner's party is a 404, never a change.
    const stranger = await newPartner(server);
    assert.equal((await stranger.api.patch(`${base}/${partyId}`, { name: 'X' })).status, 404);
    assert.equal((await stranger.api.send('DELETE', `${base}/${partyId}`)).status, 404);

    // Under verification: refused.
    for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) assert.equal((await upload(server, apiKey, biz.id, { type })).status, 201);
    assert.equal((await upload(server, apiKey, biz.id, { type: 'PASSPORT', associatedPartyId: partyId }, { bytes: JPG })).status, 201);
    const started = await api.post(`/v2/customers/${biz.id}/verifications`);
    assert.equal(started.status, 201, started.text);
    const late = await api.patch(`${base}/${partyId}`, { name: 'Someone Else' });
    assert.equal(late.status, 409, late.text);
    assert.equal(late.body.code, 'INVALID_STATE');
    assert.equal((await api.send('DELETE', `${base}/${partyId}`)).status, 409);
    assert.equal((await api.get(base)).body.data[0].name, 'Carla Dias');
  });

  test("another partner's party is 404 to PATCH and DELETE, and stays as it was", async () => {
    const { api } = await newPartner(server);
    const { api: other } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 0) }));
    const base = `/v2/customers/${biz.id}/associated-parties`;
    const { body: party } = await api.post(base, ubo());
    assert.equal((await other.patch(`${base}/${party.id}`, { name: 'Someone Else' })).status, 404);
    assert.equal((await other.send('DELETE', `${base}/${party.id}`)).status, 404);
    assert.equal((await other.get(base)).status, 404);
    assert.equal((await api.get(base)).body.data[0].name, 'Carla Dias');
  });

  test('a shareholder with parties nested under it cannot be removed before them', async () => {
    const { api } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business());
    const base = `/v2/customers/${biz.id}/associated-parties`;
    const holding = await api.post(base, {
      type: 'BUSINESS', roles: ['SHAREHOLDER'], ownershipPercentage: 60, legalName: 'Holding SA', taxId: taxIdEndingIn('cnpj'), incorporationDate: '2010-01-01', email: 'ir@holding.example', address,
    });
    assert.equal(holding.status, 201, holding.text);
    const nested = await api.post(base, ubo({ roles: ['SHAREHOLDER'], ownershipPercentage: '100', parentId: holding.body.id }));
    assert.equal(nested.status, 201, nested.text);
    assert.equal((await api.send('DELETE', `${base}/${holding.body.id}`)).status, 409);
    assert.equal((await api.send('DELETE', `${base}/${nested.body.id}`)).status, 204);
    assert.equal((await api.send('DELETE', `${base}/${holding.body.id}`)).status, 204);
  });

  test('through the BFF: the session customer corrects and removes its own parties; another customer’s party is 404', async () => {
    const api = client(server, server.apiKey);
    const { body: biz } = await api.post('/v2/customers', business());
    const { body: theirs } = await api.post('/v2/customers', business());
    const theirParty = await api.post(`/v2/customers/${theirs.id}/associated-parties`, ubo());
    const session = await api.post('/v2/widget-sessions', { customerId: biz.id });
    const bff = client(server, session.body.token);
    const mine = await bff.post('/bff/customer/associated-parties', ubo({ name: 'Carla Diaz' }));
    assert.equal(mine.status, 201, mine.text);
    const fixed = await bff.patch(`/bff/customer/associated-parties/${mine.body.id}`, { name: 'Carla Dias' });
    assert.equal(fixed.status, 200, fixed.text);
    assert.equal(fixed.body.name, 'Carla Dias');
    assert.equal((await bff.patch(`/bff/customer/associated-parties/${theirParty.body.id}`, { name: 'X' })).status, 404);
    assert.equal((await bff.send('DELETE', `/bff/customer/associated-parties/${theirParty.body.id}`)).status, 404);
    assert.equal((await bff.send('DELETE', `/bff/customer/associated-parties/${mine.body.id}`)).status, 204);
    assert.equal((await api.get(`/v2/customers/${theirs.id}/associated-parties`)).body.data.length, 1);
  });
});
