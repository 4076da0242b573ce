// GET /v2/events: the rows every change writes, newest first, per partner, filtered by customer and type.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

describe('events', () => {
  test("a customer's changes read back newest first, by customer and by type prefix; other partners see none", async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await approvedIndividual(server, api, apiKey);
    const all = await api.get(`/v2/events?customerId=${id}`);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.data.map((e: { eventType: string }) => e.eventType), ['customer.approved', 'customer.under_verification', 'customer.created']);
    const approved = all.body.data[0];
    assert.equal(approved.data.id, id);
    assert.equal(approved.data.verification.status, 'APPROVED');
    assert.match(approved.eventId, /^[0-9a-f-]{36}$/);
    assert.equal((await api.get('/v2/events?eventType=customer.approved')).body.data.length, 1);
    assert.equal((await api.get('/v2/events?eventType=customer.')).body.data.length, 3);
    assert.equal((await api.get('/v2/events?eventType=onramp.')).body.data.length, 0);
    assert.equal((await api.get('/v2/events?size=1')).body.pagination.hasNextPage, true);
    const other = await newPartner(server);
    assert.equal((await other.api.get(`/v2/events?customerId=${id}`)).body.data.length, 0);
    assert.equal((await other.api.get('/v2/events')).body.data.length, 0);
  });
});
